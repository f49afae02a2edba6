import type { OperatorOperations } from '../operations/operatorOperations.ts';
import type { ApiKeyReadName } from '../operations/apiKeyReads.ts';
import type { OAuthGrantActionName } from '../operations/oauthGrantActions.ts';
import type { ReadName } from '../operations/systemReads.ts';
import type { WriteName } from '../operations/systemWrites.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The cookie-session routes of auth.md §7 and §11 (besides login). */
export type SessionActionName = 'refresh' | 'logout' | 'logoutAll' | 'issueAccessToken';

/**
 * What a route does: a read of SystemOperations, an API-key read, a write of the system write catalogue (all named
 * as their GraphQL field), the password login, or a session action. Path parameters are named as the input fields
 * they fill; the rest of the input comes from the query string (GET) or the JSON body.
 */
export type RestAction =
  | { readonly kind: 'read'; readonly name: ReadName }
  | { readonly kind: 'keyRead'; readonly name: ApiKeyReadName }
  | { readonly kind: 'grant'; readonly name: OAuthGrantActionName }
  | { readonly kind: 'write'; readonly name: WriteName }
  | { readonly kind: 'operator'; readonly name: keyof OperatorOperations }
  | { readonly kind: 'login' }
  | { readonly kind: 'session'; readonly name: SessionActionName };

export type RestRoute = {
  readonly method: HttpMethod;
  /** Express path below `/api`. */
  readonly path: string;
  readonly action: RestAction;
  readonly status: 200 | 201 | 202 | 204;
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
};

const O = '/organization/:organizationId';
const P = `${O}/project/:projectName`;
const Br = `${P}/branch/:branchName`;
const R = '/revision/:revisionId';
const T = `${R}/table/:tableId`;

function route(method: HttpMethod, path: string, action: RestAction, tag: string, summary: string, extra: Partial<RestRoute> = {}): RestRoute {
  const operationId = action.kind === 'login' ? 'login' : action.name;
  return { method, path, action, status: 200, operationId, tag, summary, ...extra };
}
const read = (name: ReadName): RestAction => ({ kind: 'read', name });
const keyRead = (name: ApiKeyReadName): RestAction => ({ kind: 'keyRead', name });
const write = (name: WriteName): RestAction => ({ kind: 'write', name });
const session = (name: SessionActionName): RestAction => ({ kind: 'session', name });
const operator = (name: keyof OperatorOperations): RestAction => ({ kind: 'operator', name });
const created = { status: 201 } as const;
const noContent = { status: 204 } as const;

/**
 * Every route of the system REST API (system-api.md §4). The router, the OpenAPI document and the route tests are
 * built from this one table.
 */
export const systemRestRoutes: readonly RestRoute[] = [
  route('POST', '/auth/login', { kind: 'login' }, 'auth', 'Password login: returns an access token and sets the session cookies'),
  route('POST', '/auth/refresh', session('refresh'), 'auth', 'Rotate the refresh token (cookie svc_rt) and renew the session cookies'),
  route('POST', '/auth/logout', session('logout'), 'auth', 'End this browser session and clear its cookies', noContent),
  route('POST', '/auth/logout-all', session('logoutAll'), 'auth', 'End every session of the user (JWT only)', noContent),
  route('POST', '/auth/access-token', session('issueAccessToken'), 'auth', 'A fresh access token for this JWT session'),
  route('GET', '/me', read('me'), 'auth', 'The calling user'),
  route('PUT', '/me/password', write('updatePassword'), 'auth', 'Change the own password'),

  route('GET', '/users', read('users'), 'users', 'List all users (systemAdmin)'),
  route('POST', '/users', write('createUser'), 'users', 'Create a user and their personal organization', created),
  route('GET', '/users/search', read('searchUsers'), 'users', 'Search users by username prefix'),
  route('GET', '/user/:userId', read('user'), 'users', 'Get a user (systemAdmin)'),
  route('POST', '/user/:userId/deactivate', write('deactivateUser'), 'users', 'Deactivate a user'),
  route('POST', '/user/:userId/reactivate', write('reactivateUser'), 'users', 'Reactivate a user'),
  route('POST', '/user/:userId/role', write('setUserRole'), 'users', "Change a user's system role (not one's own)"),
  route('PUT', '/user/:userId/password', write('resetPassword'), 'users', "Reset a user's password"),

  route('GET', '/organizations', read('myOrganizations'), 'organizations', 'Organizations the caller belongs to'),
  route('POST', '/organizations', write('createOrganization'), 'organizations', 'Create an organization', created),
  route('GET', O, read('organization'), 'organizations', 'Get an organization'),
  route('GET', `${O}/users`, read('usersOrganization'), 'organizations', 'List organization members'),
  route('POST', `${O}/users`, write('addUserToOrganization'), 'organizations', 'Add a member or change their role'),
  route('DELETE', `${O}/user/:userId`, write('removeUserFromOrganization'), 'organizations', 'Remove a member'),

  route('GET', `${O}/projects`, read('projects'), 'projects', 'List projects the caller can read'),
  route('POST', `${O}/projects`, write('createProject'), 'projects', 'Create a project', created),
  route('GET', P, read('project'), 'projects', 'Get a project'),
  route('PATCH', P, write('updateProject'), 'projects', "Change a project's visibility"),
  route('DELETE', P, write('deleteProject'), 'projects', 'Delete a project'),
  route('GET', `${P}/users`, read('usersProject'), 'projects', 'List project members'),
  route('POST', `${P}/users`, write('addUserToProject'), 'projects', 'Add a project member or change their role'),
  route('DELETE', `${P}/user/:userId`, write('removeUserFromProject'), 'projects', 'Remove a project member'),
  route('GET', `${P}/branches`, read('branches'), 'branches', 'List branches (root first)'),
  route('GET', `${P}/endpoints`, read('projectEndpoints'), 'endpoints', "List the project's endpoints"),

  route('GET', Br, read('branch'), 'branches', 'Get a branch'),
  route('DELETE', Br, write('deleteBranch'), 'branches', 'Delete a branch'),
  route('GET', `${Br}/revisions`, read('revisions'), 'revisions', 'List revisions (newest first)'),
  route('POST', `${Br}/revisions`, write('createRevision'), 'revisions', 'Commit the draft', created),
  route('POST', `${Br}/revert`, write('revertChanges'), 'revisions', "Revert the draft's changes"),
  route('POST', `${Br}/merge`, write('mergeRevision'), 'revisions', 'Merge a revision into the draft (?dryRun=true: preview)'),
  route('POST', `${Br}/restore`, write('restoreRevision'), 'revisions', "Make the draft equal to a revision's content"),

  route('GET', R, read('revision'), 'revisions', 'Get a revision'),
  route('POST', `${R}/branches`, write('createBranch'), 'branches', 'Create a branch from a committed revision', created),
  route('GET', `${R}/endpoints`, read('revisionEndpoints'), 'endpoints', 'Endpoints currently serving this revision'),
  route('POST', `${R}/endpoints`, write('createEndpoint'), 'endpoints', 'Create an endpoint', created),
  route('GET', '/endpoint/:endpointId', read('endpoint'), 'endpoints', 'Get an endpoint'),
  route('DELETE', '/endpoint/:endpointId', write('deleteEndpoint'), 'endpoints', 'Delete an endpoint'),

  route('GET', `${R}/tables`, read('tables'), 'tables', 'List tables'),
  route('POST', `${R}/tables`, write('createTable'), 'tables', 'Create a table', created),
  route('GET', T, read('table'), 'tables', 'Get a table'),
  route('PATCH', T, write('updateTable'), 'tables', "Change a table's schema (JSON Patch)"),
  route('DELETE', T, write('deleteTable'), 'tables', 'Delete a table'),
  route('POST', `${T}/rename`, write('renameTable'), 'tables', 'Rename a table'),
  route('GET', `${T}/schema`, read('tableSchema'), 'tables', "The table's JSON Schema"),

  route('GET', `${T}/rows`, read('rows'), 'rows', 'List rows (where/orderBy as URL-encoded JSON)'),
  route('POST', `${T}/rows/query`, read('rows'), 'rows', 'List rows (query in the body)', { operationId: 'queryRows' }),
  route('POST', `${T}/rows`, write('createRow'), 'rows', 'Create a row', created),
  route('POST', `${T}/rows/bulk`, write('createRows'), 'rows', 'Create rows', created),
  route('PUT', `${T}/rows/bulk`, write('updateRows'), 'rows', 'Replace the data of rows'),
  route('PATCH', `${T}/rows/bulk`, write('patchRows'), 'rows', 'Patch rows'),
  route('DELETE', `${T}/rows/bulk`, write('deleteRows'), 'rows', 'Delete rows'),
  route('GET', `${T}/row/:rowId`, read('row'), 'rows', 'Get a row'),
  route('PUT', `${T}/row/:rowId`, write('updateRow'), 'rows', "Replace a row's data"),
  route('PATCH', `${T}/row/:rowId`, write('patchRow'), 'rows', 'Patch a row'),
  route('DELETE', `${T}/row/:rowId`, write('deleteRow'), 'rows', 'Delete a row'),
  route('POST', `${T}/row/:rowId/rename`, write('renameRow'), 'rows', 'Rename a row'),
  route('GET', `${R}/changes`, read('revisionChanges'), 'changes', 'Changed tables against a base revision (default: the previous one)'),
  route('GET', `${T}/changes`, read('rowChanges'), 'changes', 'Changed rows of a table against a base revision, with field-level changes'),
  route('GET', `${T}/row/:rowId/history`, read('rowHistory'), 'changes', "A row's versions along the revision's ancestry, newest first"),

  route('GET', '/projections', operator('projections'), 'operations', 'Status and lag of every projection (systemAdmin)'),
  route(
    'POST',
    '/projections/:name/rebuild',
    operator('rebuildProjection'),
    'operations',
    'Start a shadow rebuild of a projection or all (systemAdmin)',
    { status: 202 },
  ),

  route('GET', '/api-keys/personal', keyRead('myApiKeys'), 'api-keys', "The caller's personal API keys (newest first)"),
  route('POST', '/api-keys/personal', write('createPersonalApiKey'), 'api-keys', 'Create a personal API key (the secret is shown once)', created),
  route('GET', `${O}/api-keys/service`, keyRead('serviceApiKeys'), 'api-keys', "The organization's service API keys (newest first)"),
  route('POST', `${O}/api-keys/service`, write('createServiceApiKey'), 'api-keys', 'Create a service API key (the secret is shown once)', created),
  route('GET', '/api-key/:id', keyRead('apiKeyById'), 'api-keys', 'Get an API key'),
  route('POST', '/api-key/:id/revoke', write('revokeApiKey'), 'api-keys', 'Revoke an API key'),
  route('POST', '/api-key/:id/rotate', write('rotateApiKey'), 'api-keys', 'Replace an API key by a new secret', created),

  route('GET', `${O}/webhooks`, read('webhooks'), 'webhooks', "The organization's webhooks (oldest first)"),
  route('POST', `${O}/webhooks`, write('createWebhook'), 'webhooks', 'Create a webhook (the signing secret is shown once)', created),
  route('GET', '/webhook/:id', read('webhook'), 'webhooks', 'Get a webhook'),
  route('PATCH', '/webhook/:id', write('updateWebhook'), 'webhooks', "Change a webhook's URL, filters, description or active flag"),
  route('DELETE', '/webhook/:id', write('deleteWebhook'), 'webhooks', 'Delete a webhook'),
  route(
    'POST',
    '/webhook/:id/rotate-secret',
    write('rotateWebhookSecret'),
    'webhooks',
    'New signing secret; the previous one also signs for 24 hours',
  ),
  route('POST', '/webhook/:id/ping', write('pingWebhook'), 'webhooks', 'Send a webhook.ping event'),
  route('GET', '/webhook/:webhookId/deliveries', read('webhookDeliveries'), 'webhooks', "A webhook's deliveries (newest first)"),
  route('POST', '/webhook-delivery/:deliveryId/redeliver', write('redeliverWebhook'), 'webhooks', 'Queue a new attempt of a delivery now'),
  route('GET', '/oauth/grants', { kind: 'grant', name: 'myOAuthGrants' }, 'oauth', "The caller's connected apps (active OAuth grants)"),
  route(
    'DELETE',
    '/oauth/grants/:id',
    { kind: 'grant', name: 'revokeOAuthGrant' },
    'oauth',
    'Disconnect an app: revoke every token of an OAuth grant',
  ),
];

/** Routes that need no principal and ignore presented credentials (auth.md §1, §2): served before authentication. */
export function isServedBeforeAuthentication(route: RestRoute): boolean {
  const { action } = route;
  return action.kind === 'login' || (action.kind === 'session' && (action.name === 'refresh' || action.name === 'logout'));
}

/** Path parameter names of an express path (`/a/:x/b/:y` -> `['x', 'y']`). */
export function pathParamsOf(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1] as string);
}
