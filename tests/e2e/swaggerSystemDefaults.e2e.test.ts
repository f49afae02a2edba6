// Issue 31 item 5 for the system REST API (system-api.md §4.6): every operation of /api/openapi.json succeeds when
// Swagger UI's "Try it out" → "Execute" sends what it fills in. Swagger UI's own code fills and sends each request
// (support/swaggerHeadless.ts) against a complete server; the document's examples tell one story (systemOpenApiExamples.ts)
// and the walk below follows it. The user types only what no document can know: ids the server generated, in the
// path (Swagger UI leaves those fields empty) or in place of the body's user-id and revision-id placeholders.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD, startAuthServer, type AuthServer } from './support/authServer.ts';
import { createCookieJar } from './support/cookieJar.ts';
import { approve, exchange, pkce, registerClient } from './support/oauthHttp.ts';
import { openHeadlessSwagger, type HeadlessSwagger, type UserInput } from './support/swaggerHeadless.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers of the API
const USER_ID_PLACEHOLDER = '<id of a user>';
const REVISION_ID_PLACEHOLDER = '<id of a revision>';
const REDIRECT = 'http://127.0.0.1:9/callback';

let server: AuthServer;
let document: Json;
/** The admin's browser: the admin token entered in "Authorize", and the page's cookies. */
let adminPage: HeadlessSwagger;
/** Jane's browser: no token entered; the session cookies its own login (an operation of the document) sets. */
let janePage: HeadlessSwagger;

/** Ids the server generated along the way, as the user reads them from earlier answers. */
const ids: Record<string, string> = {};

type Step = {
  readonly page: 'admin' | 'jane';
  readonly operationId: string;
  /** What the user types: ids in the path, or the user id in place of the body's placeholder. */
  readonly input?: () => UserInput;
  /** What the user notes from the answer for later steps. */
  readonly note?: (body: Json) => void;
};

const revision = (which: 'draft' | 'head') => (): UserInput => ({ path: { revisionId: ids[which] ?? '' } });
const userPath = (): UserInput => ({ path: { userId: ids.jane ?? '' } });
const userInBody = (): UserInput => ({ body: (filled) => ({ ...(filled as Json), userId: ids.jane }) });
const noteBranch = (body: Json): void => {
  ids.draft = body.draftRevisionId;
  ids.head = body.headRevisionId;
  ids.start = body.startRevisionId;
};
const revisionInBody = (field: string, which: string) => (): UserInput => ({ body: (filled) => ({ ...(filled as Json), [field]: ids[which] }) });

const STORY_BUNDLE = [
  {
    format: 'strata-bundle',
    version: 1,
    sourceRevisionId: 'staging-head',
    exportedAt: '2026-01-01T00:00:00.000Z',
    tables: [
      {
        id: 'posts',
        schema: { type: 'object', additionalProperties: false, required: ['title'], properties: { title: { type: 'string', default: '' } } },
      },
    ],
  },
  { table: 'posts', id: 'hello', data: { title: 'Hello, world' } },
]
  .map((line) => `${JSON.stringify(line)}\n`)
  .join('');

/** The story of the examples, in an order in which each step can succeed. */
const story: readonly Step[] = [
  { page: 'admin', operationId: 'createOrganization' },
  { page: 'admin', operationId: 'organization' },
  { page: 'admin', operationId: 'myOrganizations' },
  { page: 'admin', operationId: 'createUser', note: (body) => void (ids.jane = body.id) },
  { page: 'admin', operationId: 'users' },
  { page: 'admin', operationId: 'searchUsers' },
  { page: 'admin', operationId: 'user', input: userPath },
  { page: 'admin', operationId: 'addUserToOrganization', input: userInBody },
  { page: 'admin', operationId: 'usersOrganization' },
  { page: 'admin', operationId: 'createProject' },
  { page: 'admin', operationId: 'projects' },
  { page: 'admin', operationId: 'project' },
  { page: 'admin', operationId: 'updateProject' },
  { page: 'admin', operationId: 'addUserToProject', input: userInBody },
  { page: 'admin', operationId: 'usersProject' },
  { page: 'admin', operationId: 'branches' },
  { page: 'admin', operationId: 'branch', note: noteBranch },
  { page: 'admin', operationId: 'revision', input: revision('draft') },
  { page: 'admin', operationId: 'createTable', input: revision('draft') },
  { page: 'admin', operationId: 'tables', input: revision('draft') },
  { page: 'admin', operationId: 'table', input: revision('draft') },
  { page: 'admin', operationId: 'tableSchema', input: revision('draft') },
  { page: 'admin', operationId: 'createRow', input: revision('draft') },
  // The user pastes a bundle of the draft as it is now (table posts, row hello): importing it changes nothing.
  { page: 'admin', operationId: 'importBundle', input: () => ({ file: STORY_BUNDLE }) },
  { page: 'admin', operationId: 'exportBundle', input: revision('draft') },
  { page: 'admin', operationId: 'exportTable', input: revision('draft') },
  { page: 'admin', operationId: 'importTable', input: revision('draft') },
  { page: 'admin', operationId: 'rows', input: revision('draft') },
  { page: 'admin', operationId: 'queryRows', input: revision('draft') },
  { page: 'admin', operationId: 'row', input: revision('draft') },
  { page: 'admin', operationId: 'updateRow', input: revision('draft') },
  { page: 'admin', operationId: 'patchRow', input: revision('draft') },
  { page: 'admin', operationId: 'createRows', input: revision('draft') },
  { page: 'admin', operationId: 'updateRows', input: revision('draft') },
  { page: 'admin', operationId: 'patchRows', input: revision('draft') },
  { page: 'admin', operationId: 'deleteRows', input: revision('draft') },
  { page: 'admin', operationId: 'updateTable', input: revision('draft') },
  { page: 'admin', operationId: 'rowChanges', input: revision('draft') },
  { page: 'admin', operationId: 'revisionChanges', input: revision('draft') },
  { page: 'admin', operationId: 'createRevision' },
  { page: 'admin', operationId: 'revisions' },
  { page: 'admin', operationId: 'branch', note: noteBranch },
  { page: 'admin', operationId: 'rowHistory', input: revision('head') },
  { page: 'admin', operationId: 'createBranch', input: revision('head'), note: (body) => void (ids.feature = body.headRevisionId) },
  // The new branch's start revision merges cleanly (nothing changed since the base): the merge records its edge.
  { page: 'admin', operationId: 'mergeRevision', input: revisionInBody('sourceRevisionId', 'feature') },
  { page: 'admin', operationId: 'deleteBranch' },
  { page: 'admin', operationId: 'createEndpoint', input: revision('draft'), note: (body) => void (ids.endpoint = body.id) },
  { page: 'admin', operationId: 'revisionEndpoints', input: revision('draft') },
  { page: 'admin', operationId: 'projectEndpoints' },
  { page: 'admin', operationId: 'endpoint', input: () => ({ path: { endpointId: ids.endpoint ?? '' } }) },
  { page: 'admin', operationId: 'deleteEndpoint', input: () => ({ path: { endpointId: ids.endpoint ?? '' } }) },
  { page: 'admin', operationId: 'renameRow', input: revision('draft') },
  { page: 'admin', operationId: 'deleteRow', input: revision('draft') },
  { page: 'admin', operationId: 'renameTable', input: revision('draft') },
  { page: 'admin', operationId: 'deleteTable', input: revision('draft') },
  { page: 'admin', operationId: 'revertChanges' },
  // The branch's empty start revision: the restore removes the story's table from the draft.
  { page: 'admin', operationId: 'restoreRevision', input: revisionInBody('revisionId', 'start') },
  { page: 'admin', operationId: 'createPersonalApiKey', note: (body) => void (ids.key = body.apiKey.id) },
  { page: 'admin', operationId: 'myApiKeys' },
  { page: 'admin', operationId: 'apiKeyById', input: () => ({ path: { id: ids.key ?? '' } }) },
  {
    page: 'admin',
    operationId: 'rotateApiKey',
    input: () => ({ path: { id: ids.key ?? '' } }),
    note: (body) => void (ids.rotatedKey = body.apiKey.id),
  },
  { page: 'admin', operationId: 'revokeApiKey', input: () => ({ path: { id: ids.rotatedKey ?? '' } }) },
  { page: 'admin', operationId: 'createServiceApiKey' },
  { page: 'admin', operationId: 'serviceApiKeys' },
  { page: 'admin', operationId: 'createWebhook', note: (body) => void (ids.webhook = body.webhook.id) },
  { page: 'admin', operationId: 'webhooks' },
  { page: 'admin', operationId: 'webhook', input: () => ({ path: { id: ids.webhook ?? '' } }) },
  { page: 'admin', operationId: 'updateWebhook', input: () => ({ path: { id: ids.webhook ?? '' } }) },
  { page: 'admin', operationId: 'rotateWebhookSecret', input: () => ({ path: { id: ids.webhook ?? '' } }) },
  { page: 'admin', operationId: 'pingWebhook', input: () => ({ path: { id: ids.webhook ?? '' } }), note: (body) => void (ids.delivery = body.id) },
  { page: 'admin', operationId: 'webhookDeliveries', input: () => ({ path: { webhookId: ids.webhook ?? '' } }) },
  { page: 'admin', operationId: 'redeliverWebhook', input: () => ({ path: { deliveryId: ids.delivery ?? '' } }) },
  { page: 'admin', operationId: 'deleteWebhook', input: () => ({ path: { id: ids.webhook ?? '' } }) },
  { page: 'admin', operationId: 'projections' },
  { page: 'admin', operationId: 'myOAuthGrants', note: (body) => void (ids.grant = body[0]?.id) },
  { page: 'admin', operationId: 'revokeOAuthGrant', input: () => ({ path: { id: ids.grant ?? '' } }) },
  // Jane signs in on her own page with the login example; her cookies carry her session from then on.
  { page: 'jane', operationId: 'login' },
  { page: 'jane', operationId: 'me' },
  { page: 'jane', operationId: 'issueAccessToken' },
  { page: 'jane', operationId: 'refresh' },
  { page: 'jane', operationId: 'logoutAll' },
  { page: 'jane', operationId: 'login' },
  { page: 'jane', operationId: 'updatePassword' },
  { page: 'jane', operationId: 'logout' },
  // The reset example gives her the password of the login example again.
  { page: 'admin', operationId: 'resetPassword', input: userPath },
  { page: 'admin', operationId: 'removeUserFromProject', input: userPath },
  { page: 'admin', operationId: 'removeUserFromOrganization', input: userPath },
  // Her own steps are done: the role example makes her an administrator, which her deactivation then ends.
  { page: 'admin', operationId: 'setUserRole', input: userPath },
  { page: 'admin', operationId: 'deactivateUser', input: userPath },
  { page: 'admin', operationId: 'reactivateUser', input: userPath },
  { page: 'admin', operationId: 'deleteProject' },
  { page: 'admin', operationId: 'rebuildProjection' },
];

/** An OAuth grant of the admin (a connected app), for the grant operations: the authorization code flow. */
async function connectAnApp(): Promise<void> {
  const registered = await registerClient(server, { redirect_uris: [REDIRECT], client_name: 'Swagger story' });
  assert.equal(registered.status, 201, registered.text);
  const { jar } = await server.login('admin', ADMIN_PASSWORD);
  const { verifier, challenge } = pkce();
  const clientId = registered.body.client_id as string;
  const landed = await approve(server, jar, { clientId, redirectUri: REDIRECT, challenge });
  const tokens = await exchange(server, {
    code: landed.searchParams.get('code') ?? '',
    code_verifier: verifier,
    redirect_uri: REDIRECT,
    client_id: clientId,
  });
  assert.equal(tokens.status, 200, tokens.text);
}

before(async () => {
  server = await startAuthServer();
  const { accessToken } = await server.login('admin', ADMIN_PASSWORD);
  await connectAnApp();
  const reply = await server.call('GET', '/api/openapi.json');
  assert.equal(reply.status, 200);
  document = reply.body;
  adminPage = await openHeadlessSwagger(`${server.url}/api`, document, { bearer: accessToken, jar: createCookieJar() });
  janePage = await openHeadlessSwagger(`${server.url}/api`, document, { jar: createCookieJar() });
});
after(() => server.close());

describe('Swagger UI defaults on the system REST API', () => {
  test('the story covers every operation of the document', () => {
    const documented = adminPage.operations.map((operation) => operation.operationId).sort();
    assert.deepEqual([...new Set(story.map((step) => step.operationId))].sort(), documented);
  });

  test('every operation succeeds with what Swagger UI fills in (and only generated ids typed by the user)', async () => {
    const failed: string[] = [];
    for (const step of story) {
      const page = step.page === 'admin' ? adminPage : janePage;
      const operation = page.operations.find((candidate) => candidate.operationId === step.operationId);
      assert.ok(operation, step.operationId);
      const run = await page.execute(operation, step.input?.());
      if (run.refused !== null || run.status === null || run.status >= 300) {
        failed.push(`${step.operationId}: ${run.refused ?? run.status} ${JSON.stringify(run.body)}`);
        continue;
      }
      step.note?.(run.body);
    }
    assert.deepEqual(failed, []);
  });

  test('bodies are the examples as they are: the user replaced nothing but the user-id and revision-id placeholders', () => {
    const bodies = Object.values(document.paths as Record<string, Record<string, Json>>)
      .flatMap((item) => Object.values(item))
      .map((operation) => operation.requestBody?.content['application/json']?.example)
      .filter((example) => example !== undefined);
    const placeholders = bodies.filter((example) => JSON.stringify(example).includes('<'));
    assert.deepEqual(placeholders, [
      { userId: USER_ID_PLACEHOLDER, role: 'editor' },
      { userId: USER_ID_PLACEHOLDER, role: 'editor' },
      { sourceRevisionId: REVISION_ID_PLACEHOLDER, strategy: 'FAIL' },
      { revisionId: REVISION_ID_PLACEHOLDER },
    ]);
  });
});
