/**
 * Examples of the system OpenAPI document (system-api.md §4.6). Swagger UI's "Try it out" fills every body with
 * its sample of the schema, and those fail here (a password "string" is too short, `ownerId: "string"` names no
 * user, `patches: [{}]` is no patch); with an `example` it sends the example as is.
 *
 * The examples tell one story, so that trying the operations out in a sensible order succeeds: organization `acme`,
 * user `jane`, project `blog` on branch `master`, table `posts` with row `hello`, then renames and deletions of what
 * the story created. Ids the server generates (revisions, users, endpoints, API keys, webhooks, deliveries, grants)
 * have no example: Swagger UI asks for them in the path, and USER_ID_PLACEHOLDER stands for one in a body.
 */
export const USER_ID_PLACEHOLDER = '<id of a user>';
/** Stands for a revision id in a body (merge and restore name revisions the server generated). */
export const REVISION_ID_PLACEHOLDER = '<id of a revision>';

const PASSWORD = 'correct-horse-battery-staple';

/** Path and query parameters by name; PARAMETER_OVERRIDES changes them for one operation. */
const PARAMETERS: Readonly<Record<string, unknown>> = {
  organizationId: 'acme',
  projectName: 'blog',
  branchName: 'master',
  tableId: 'posts',
  rowId: 'hello',
  search: 'ja',
  name: 'all',
  // Swagger UI fills an object (or array of objects) parameter without an example with a sample of its schema.
  where: {},
  orderBy: [{ id: 'asc' }],
};

/** Deletions act on what the story created for them (a branch, a renamed table, a renamed row). */
const PARAMETER_OVERRIDES: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  deleteBranch: { branchName: 'feature' },
  deleteTable: { tableId: 'articles' },
  deleteRow: { rowId: 'hello-world' },
};

/** The example of parameter `name` of `operationId`, if it has one (generated ids and optional filters have none). */
export function systemParameterExample(operationId: string, name: string): unknown {
  const override = PARAMETER_OVERRIDES[operationId];
  if (override !== undefined && Object.hasOwn(override, name)) return override[name];
  return Object.hasOwn(PARAMETERS, name) ? PARAMETERS[name] : undefined;
}

const postsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['title'],
  properties: { title: { type: 'string', default: '' } },
};

const replaceTitle = (value: string) => [{ op: 'replace', path: '/title', value }];

/** The request body of each operation that has one, by operationId. */
export const SYSTEM_BODY_EXAMPLES: Readonly<Record<string, unknown>> = {
  login: { username: 'jane', password: PASSWORD },
  updatePassword: { oldPassword: PASSWORD, newPassword: 'correct-horse-battery-staple-2' },
  createUser: { username: 'jane', password: PASSWORD },
  resetPassword: { newPassword: PASSWORD },
  setUserRole: { role: 'systemAdmin' },
  createOrganization: { organizationId: 'acme' },
  addUserToOrganization: { userId: USER_ID_PLACEHOLDER, role: 'editor' },
  createProject: { projectName: 'blog' },
  updateProject: { isPublic: false },
  addUserToProject: { userId: USER_ID_PLACEHOLDER, role: 'editor' },
  createRevision: { comment: 'First posts' },
  createBranch: { branchName: 'feature' },
  mergeRevision: { sourceRevisionId: REVISION_ID_PLACEHOLDER, strategy: 'FAIL' },
  restoreRevision: { revisionId: REVISION_ID_PLACEHOLDER },
  createEndpoint: { type: 'REST_API' },
  createTable: { tableId: 'posts', schema: postsSchema },
  updateTable: { patches: [{ op: 'add', path: '/properties/title/description', value: 'Headline' }] },
  renameTable: { nextTableId: 'articles' },
  createRow: { rowId: 'hello', data: { title: 'Hello, world' } },
  queryRows: { first: 100 },
  createRows: { rows: [{ rowId: 'second', data: { title: 'Second post' } }] },
  updateRows: { rows: [{ rowId: 'second', data: { title: 'Second post, edited' } }] },
  patchRows: { rows: [{ rowId: 'second', patches: replaceTitle('Second post, patched') }] },
  deleteRows: { rowIds: ['second'] },
  updateRow: { data: { title: 'Hello again' } },
  patchRow: { patches: replaceTitle('Hello, Strata') },
  renameRow: { nextRowId: 'hello-world' },
  createPersonalApiKey: { name: 'ci', organizationId: 'acme', readOnly: true },
  createServiceApiKey: { name: 'deploy-bot', permissions: { rules: [{ action: ['read'], subject: ['Row', 'Table'] }] } },
  createWebhook: { url: 'https://hooks.example.com/strata', types: ['revision.committed'] },
  updateWebhook: { description: 'Rebuild the website' },
};
