import type { ReadName } from '../systemApi/operations/systemReads.ts';
import type { WriteName } from '../systemApi/operations/systemWrites.ts';

/** JSON Schema of one tool argument (the subset the tool input schemas use). */
export type ArgumentSchema = Readonly<Record<string, unknown>>;

/** What a tool does: a system read, a system write (same catalogue as REST/GraphQL), or an MCP-only action. */
export type ToolAction =
  | { readonly kind: 'read'; readonly name: ReadName }
  | { readonly kind: 'write'; readonly name: WriteName }
  | { readonly kind: 'login' | 'logout' | 'me' | 'graphqlSchema' | 'openApiSpec' };

export type ToolSpec = {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** R tools: readOnlyHint and idempotentHint (a readOnly API key may call them). */
  readonly readOnly: boolean;
  readonly destructive: boolean;
  readonly idempotent: boolean;
  /** Takes the target arguments of mcp.md §4 (revisionId, or organizationId + projectName + branchName [+ revision]). */
  readonly target: boolean;
  readonly required: readonly string[];
  readonly optional: readonly string[];
  readonly action: ToolAction;
  /** Per-tool schemas of arguments whose shape differs between tools (`rows`). */
  readonly overrides?: Readonly<Record<string, ArgumentSchema>>;
};

export const TARGET_ARGUMENTS = ['revisionId', 'organizationId', 'projectName', 'branchName', 'revision'] as const;

const text = (description: string): ArgumentSchema => ({ type: 'string', description });
const object = (description: string): ArgumentSchema => ({ type: 'object', description });
const array = (description: string): ArgumentSchema => ({ type: 'array', description });

/** Argument schemas by name (mcp.md §5 "Property types"). */
export const argumentSchemas: Readonly<Record<string, ArgumentSchema>> = {
  username: text('Username (exact).'),
  password: text('Password.'),
  organizationId: text('Organization id.'),
  projectName: text('Project name.'),
  branchName: text('Branch name; `$default` is the root branch.'),
  revisionId: text('Revision id.'),
  revision: text('With organizationId/projectName/branchName: "draft" (default), "head" or a revision id of that branch.'),
  tableId: text('Table id.'),
  nextTableId: text('New table id.'),
  rowId: text('Row id.'),
  nextRowId: text('New row id.'),
  endpointId: text('Endpoint id.'),
  comment: text('Commit comment (up to 1000 characters).'),
  after: text('Cursor of the last item of the previous page (pageInfo.endCursor).'),
  first: { type: 'integer', minimum: 0, maximum: 1000, description: 'Page size, 0-1000 (default 100).' },
  isPublic: { type: 'boolean', description: 'Public projects can be read by anyone.' },
  includeSchema: { type: 'boolean', description: 'Include each table schema (default false).' },
  schema: object('Table JSON Schema (object with properties, required, additionalProperties: false).'),
  data: object('Row data matching the table schema.'),
  where: object(
    'Row filter, e.g. {"OR": [{"data": {"path": "title", "string_contains": "x", "mode": "insensitive"}}, {"id": {"startsWith": "a"}}]}.',
  ),
  orderBy: array('Sort keys, e.g. [{"data": {"path": "views", "direction": "desc", "type": "float"}}, {"updatedAt": "desc"}].'),
  patches: array('JSON Patch operations, e.g. [{"op": "replace", "path": "/title", "value": "x"}].'),
  dryRun: {
    type: 'boolean',
    description:
      'true: validate and migrate without changing anything; answers the table as it would be plus `migration` (rowsChanged, rowsLossy, samples).',
  },
  rowIds: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 1000, description: 'Row ids (1-1000).' },
  type: { type: 'string', enum: ['GRAPHQL', 'REST_API'], description: 'Endpoint type.' },
  sourceRevisionId: text("The committed revision to merge into the branch (usually another branch's head)."),
  resolutions: {
    type: 'array',
    description:
      'Merge conflict resolutions: [{"conflictId": "...", "take": "OURS"|"THEIRS"|"VALUE"|"REMOVE", "value": ...}] (value: the leaf value or the row data for VALUE).',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['conflictId', 'take'],
      properties: { conflictId: { type: 'string' }, take: { type: 'string', enum: ['OURS', 'THEIRS', 'VALUE', 'REMOVE'] }, value: {} },
    },
  },
  strategy: { type: 'string', enum: ['FAIL', 'OURS', 'THEIRS'], description: 'How conflicts without a resolution are settled (default FAIL).' },
  compareWith: text('Base revision id (any branch of the same project); default: the previous revision (HEAD for a draft).'),
  changes: {
    type: 'array',
    items: { type: 'string', enum: ['ADDED', 'UPDATED', 'REMOVED', 'RENAMED'] },
    description: 'Row change kinds to list (default all).',
  },
};

const rowsOf = (second: 'data' | 'patches'): ArgumentSchema => ({
  type: 'array',
  minItems: 1,
  maxItems: 1000,
  description: `Rows (1-1000): [{"rowId": "...", "${second}": ${second === 'data' ? '{...}' : '[...]'}}].`,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['rowId', second],
    properties: { rowId: { type: 'string' }, [second]: { type: second === 'data' ? 'object' : 'array' } },
  },
});

type Hints = 'R' | 'W' | 'W-idem' | 'W-destr';

function tool(
  name: string,
  hints: Hints,
  action: ToolAction,
  args: { readonly required?: readonly string[]; readonly optional?: readonly string[]; readonly target?: boolean },
  title: string,
  description: string,
  overrides?: Readonly<Record<string, ArgumentSchema>>,
): ToolSpec {
  return {
    name,
    title,
    description,
    readOnly: hints === 'R',
    destructive: hints === 'W-destr',
    idempotent: hints === 'R' || hints === 'W-idem',
    target: args.target ?? false,
    required: args.required ?? [],
    optional: args.optional ?? [],
    action,
    ...(overrides ? { overrides } : {}),
  };
}

const read = (name: ReadName): ToolAction => ({ kind: 'read', name });
const write = (name: WriteName): ToolAction => ({ kind: 'write', name });
const PAGE = ['first', 'after'];
const P = ['organizationId', 'projectName'];
const B = [...P, 'branchName'];
const T = { target: true } as const;

/** The tools of mcp.md §5, in its order: a table, one tool per line (prettier leaves it as written). */
// prettier-ignore
export const mcpTools: readonly ToolSpec[] = [
  tool('login', 'W-idem', { kind: 'login' }, { required: ['username', 'password'] }, 'Log in', 'Binds this session to a user by password (no token is returned). Prefer Authorization/X-Api-Key headers.'),
  tool('logout', 'W-idem', { kind: 'logout' }, {}, 'Log out', 'Ends this session after answering.'),
  tool('me', 'R', { kind: 'me' }, {}, 'Current user', 'The calling user, or {"authenticated": false}.'),
  tool('get_organization', 'R', read('organization'), { required: ['organizationId'] }, 'Get organization', 'An organization.'),
  tool('get_projects', 'R', read('projects'), { required: ['organizationId'], optional: PAGE }, 'List projects', 'Projects of an organization the caller can read.'),
  tool('get_project', 'R', read('project'), { required: P }, 'Get project', 'A project.'),
  tool('create_project', 'W', write('createProject'), { required: P, optional: ['branchName', 'isPublic'] }, 'Create project', 'Creates a project with its root branch (branchName, default "master").'),
  tool('update_project', 'W-idem', write('updateProject'), { required: [...P, 'isPublic'] }, 'Update project', "Changes a project's visibility."),
  tool('delete_project', 'W-destr', write('deleteProject'), { required: P }, 'Delete project', 'Deletes a project and all its branches.'),
  tool('get_branches', 'R', read('branches'), { required: P, optional: PAGE }, 'List branches', 'Branches of a project (root first).'),
  tool('get_branch', 'R', read('branch'), { required: B }, 'Get branch', 'A branch with its head and draft revision ids.'),
  tool('create_branch', 'W', write('createBranch'), { required: ['revisionId', 'branchName'] }, 'Create branch', 'Creates a branch from a committed revision.'),
  tool('delete_branch', 'W-destr', write('deleteBranch'), { required: B }, 'Delete branch', 'Deletes a branch (not the root branch).'),
  tool('get_revisions', 'R', read('revisions'), { required: B, optional: PAGE }, 'List revisions', 'Revisions of a branch, newest first.'),
  tool('get_revision', 'R', read('revision'), T, 'Get revision', 'A revision.'),
  tool('create_revision', 'W', write('createRevision'), { required: B, optional: ['comment'] }, 'Commit', "Commits the branch's draft as a new head revision."),
  tool('revert_changes', 'W-destr', write('revertChanges'), { required: B }, 'Revert draft', "Discards the draft's uncommitted changes."),
  tool('preview_merge', 'R', write('previewMerge'), { required: [...B, 'sourceRevisionId'], optional: ['resolutions', 'strategy'] }, 'Preview merge', 'What merging a revision into the branch draft would change, and its conflicts (nothing is changed).'),
  tool('merge_revision', 'W', write('mergeRevision'), { required: [...B, 'sourceRevisionId'], optional: ['resolutions', 'strategy'] }, 'Merge revision', 'Merges a committed revision into the branch draft as draft changes (409 MERGE_CONFLICT while conflicts are unresolved).'),
  tool('restore_revision', 'W-destr', write('restoreRevision'), { required: [...B, 'revisionId'] }, 'Restore revision', "Makes the branch draft equal to a committed revision's content, as draft changes."),
  tool('get_tables', 'R', read('tables'), { ...T, optional: [...PAGE, 'includeSchema'] }, 'List tables', 'Tables of a revision.'),
  tool('get_table', 'R', read('table'), { ...T, required: ['tableId'] }, 'Get table', 'A table with its schema and row count.'),
  tool('get_table_schema', 'R', read('tableSchema'), { ...T, required: ['tableId'] }, 'Get table schema', "A table's JSON Schema."),
  tool('create_table', 'W', write('createTable'), { ...T, required: ['tableId', 'schema'] }, 'Create table', 'Creates a table in a draft.'),
  tool('update_table', 'W-destr', write('updateTable'), { ...T, required: ['tableId', 'patches'], optional: ['dryRun'] }, 'Update table', "Changes a table's schema with JSON Patch (rows are migrated)."),
  tool('rename_table', 'W', write('renameTable'), { ...T, required: ['tableId', 'nextTableId'] }, 'Rename table', 'Renames a table (foreign keys follow).'),
  tool('delete_table', 'W-destr', write('deleteTable'), { ...T, required: ['tableId'] }, 'Delete table', 'Deletes a table and its rows.'),
  tool('get_rows', 'R', read('rows'), { ...T, required: ['tableId'], optional: [...PAGE, 'where', 'orderBy'] }, 'List rows', 'Rows of a table, filtered and sorted.'),
  tool('get_row', 'R', read('row'), { ...T, required: ['tableId', 'rowId'] }, 'Get row', 'A row.'),
  tool('create_row', 'W', write('createRow'), { ...T, required: ['tableId', 'rowId', 'data'] }, 'Create row', 'Creates a row.'),
  tool('create_rows', 'W', write('createRows'), { ...T, required: ['tableId', 'rows'] }, 'Create rows', 'Creates rows (all or none).', { rows: rowsOf('data') }),
  tool('update_row', 'W-idem', write('updateRow'), { ...T, required: ['tableId', 'rowId', 'data'] }, 'Update row', "Replaces a row's data."),
  tool('update_rows', 'W-idem', write('updateRows'), { ...T, required: ['tableId', 'rows'] }, 'Update rows', "Replaces rows' data (all or none).", { rows: rowsOf('data') }),
  tool('patch_row', 'W-idem', write('patchRow'), { ...T, required: ['tableId', 'rowId', 'patches'] }, 'Patch row', 'Changes a row with JSON Patch.'),
  tool('patch_rows', 'W-idem', write('patchRows'), { ...T, required: ['tableId', 'rows'] }, 'Patch rows', 'Changes rows with JSON Patch (all or none).', { rows: rowsOf('patches') }),
  tool('rename_row', 'W', write('renameRow'), { ...T, required: ['tableId', 'rowId', 'nextRowId'] }, 'Rename row', 'Renames a row (foreign keys follow).'),
  tool('delete_row', 'W-destr', write('deleteRow'), { ...T, required: ['tableId', 'rowId'] }, 'Delete row', 'Deletes a row.'),
  tool('delete_rows', 'W-destr', write('deleteRows'), { ...T, required: ['tableId', 'rowIds'] }, 'Delete rows', 'Deletes rows (all or none).'),
  tool('get_revision_changes', 'R', read('revisionChanges'), { ...T, optional: ['compareWith'] }, 'Revision changes', 'Tables changed between a revision and a base (default: the previous revision; for a draft, HEAD) with row change counts.'),
  tool('get_row_changes', 'R', read('rowChanges'), { ...T, required: ['tableId'], optional: ['compareWith', 'changes', ...PAGE] }, 'Row changes', "Rows of a table changed between a revision and a base, by row id, with before/after data and field-level changes."),
  tool('get_row_history', 'R', read('rowHistory'), { ...T, required: ['tableId', 'rowId'], optional: PAGE }, 'Row history', "A row's versions along the revision's ancestry (across branch creations and renames), newest first, with who wrote each."),
  tool('get_project_endpoints', 'R', read('projectEndpoints'), { required: P, optional: ['branchName', 'type', ...PAGE] }, 'List endpoints', "A project's generated API endpoints."),
  tool('create_endpoint', 'W', write('createEndpoint'), { ...T, required: ['type'] }, 'Create endpoint', 'Creates a generated GraphQL or REST endpoint for the revision.'),
  tool('delete_endpoint', 'W-destr', write('deleteEndpoint'), { required: ['endpointId'] }, 'Delete endpoint', 'Deletes an endpoint.'),
  tool('get_graphql_schema', 'R', { kind: 'graphqlSchema' }, { required: ['endpointId'] }, 'Get GraphQL schema', 'The SDL of a GraphQL endpoint: {"sdl": "..."}.'),
  tool('get_openapi_spec', 'R', { kind: 'openApiSpec' }, { required: ['endpointId'] }, 'Get OpenAPI document', 'The OpenAPI document of a REST endpoint.'),
];

/** `<action> on <Subject>` of each write tool (mcp.md §5 "Permission"), for the API_KEY_READ_ONLY message. */
export const writePermissions: Readonly<Record<string, string>> = {
  create_project: 'create on Project',
  update_project: 'update on Project',
  delete_project: 'delete on Project',
  create_branch: 'create on Branch',
  delete_branch: 'delete on Branch',
  create_revision: 'create on Revision',
  revert_changes: 'revert on Revision',
  merge_revision: 'update on Row',
  restore_revision: 'update on Row',
  create_table: 'create on Table',
  update_table: 'update on Table',
  rename_table: 'update on Table',
  delete_table: 'delete on Table',
  create_row: 'create on Row',
  create_rows: 'create on Row',
  update_row: 'update on Row',
  update_rows: 'update on Row',
  patch_row: 'update on Row',
  patch_rows: 'update on Row',
  rename_row: 'update on Row',
  delete_row: 'delete on Row',
  delete_rows: 'delete on Row',
  create_endpoint: 'create on Endpoint',
  delete_endpoint: 'delete on Endpoint',
};

/** Every argument a tool accepts (target arguments included when it takes a target). */
export function argumentsOf(spec: ToolSpec): readonly string[] {
  return [...spec.required, ...spec.optional, ...(spec.target ? TARGET_ARGUMENTS.filter((name) => !spec.required.includes(name)) : [])];
}

/** The tool's input JSON Schema: an object with exactly its arguments (target arguments optional). */
export function inputSchemaOf(spec: ToolSpec): {
  type: 'object';
  properties: Record<string, ArgumentSchema>;
  required?: string[];
  additionalProperties: false;
} {
  const properties: Record<string, ArgumentSchema> = {};
  for (const name of argumentsOf(spec)) {
    const schema = spec.overrides?.[name] ?? argumentSchemas[name];
    if (schema === undefined) throw new Error(`invariant violated: no schema for argument ${name}`);
    properties[name] = schema;
  }
  return { type: 'object', properties, ...(spec.required.length > 0 ? { required: [...spec.required] } : {}), additionalProperties: false };
}

/** The `tools/list` entry of a tool. */
export function toolListing(spec: ToolSpec) {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: inputSchemaOf(spec),
    annotations: {
      title: spec.title,
      readOnlyHint: spec.readOnly,
      destructiveHint: spec.destructive,
      idempotentHint: spec.idempotent,
      openWorldHint: false,
    },
  };
}

/** The `instructions` of `initialize` (mcp.md §1): the hierarchy and the target arguments of §4. */
export const MCP_INSTRUCTIONS = [
  'Strata stores versioned, schema-validated JSON rows. Hierarchy: organization > project > branch > revision > table > row.',
  'Each branch has a committed head revision and one writable draft revision; writes go to the draft and create_revision commits it.',
  'Tools that work inside a revision take EITHER revisionId OR organizationId + projectName + branchName (branchName "$default" is the root branch)',
  'with optional revision = "draft" (default), "head" or a revision id of that branch. Give exactly one of the two forms.',
  'Authenticate with an Authorization: Bearer <token or svc_ key> or X-Api-Key header on every request, or call login once.',
  'Lists are pages: pass pageInfo.endCursor as after. Failures come back as tool results with isError and {code, message, details}.',
].join(' ');
