import type { CommandInput, CommandResult, CommandType, MergePreviewView, RowView, TableUpdatePreviewView } from '../../../contracts/index.ts';

/** A checked input (GraphQL `data` argument, or REST path ids + body) by field name. */
export type InputRecord = Readonly<Record<string, unknown>>;

/**
 * How a command result is answered: `result` as is; `first` the only row of a single-row write; `success`
 * GraphQL `true` / REST `{success: true}`; `rowList` GraphQL `[Row]` / REST `{rows: [Row]}`.
 */
export type WriteOutput = 'result' | 'first' | 'success' | 'rowList';

export type WriteSpec<K extends CommandType = CommandType> = {
  readonly command: K;
  /** The command input from the checked input (its fields are the input type's, so the cast is safe). */
  readonly toCommand: (input: InputRecord) => CommandInput<K>;
  readonly output: WriteOutput;
  /** The caller's session cookies are cleared after success (own password change, auth.md §12). */
  readonly clearsSessionCookies?: boolean;
  /** The command REST `?dryRun=true` runs instead: it decides the same input and appends nothing. */
  readonly dryRun?: 'PreviewUpdateTable' | 'PreviewMerge';
};

function write<K extends CommandType>(
  command: K,
  output: WriteOutput = 'result',
  toCommand: (input: InputRecord) => CommandInput<K> = (input) => input as CommandInput<K>,
): WriteSpec<K> {
  return { command, toCommand, output };
}

type TableInput = { revisionId: string; tableId: string };
const tableOf = (input: InputRecord): TableInput => ({ revisionId: input.revisionId as string, tableId: input.tableId as string });
const oneRow = (input: InputRecord) => ({ ...tableOf(input), rows: [{ rowId: input.rowId as string, data: input.data }], bulk: false });

/**
 * Every write of the system API by GraphQL mutation name (system-api.md §3.3); REST routes name the same entries.
 * Single-row writes are the bulk commands with one row and `bulk: false` (errors then carry no `index`).
 */
export const systemWrites = {
  updatePassword: { ...write('UpdatePassword', 'success'), clearsSessionCookies: true },
  createUser: write('CreateUser'),
  deactivateUser: write('DeactivateUser'),
  reactivateUser: write('ReactivateUser'),
  setUserRole: write('SetUserRole'),
  resetPassword: write('ResetPassword', 'success'),
  createOrganization: write('CreateOrganization'),
  addUserToOrganization: write('AddUserToOrganization', 'success'),
  removeUserFromOrganization: write('RemoveUserFromOrganization', 'success'),
  createProject: write('CreateProject'),
  updateProject: write('UpdateProject'),
  deleteProject: write('DeleteProject', 'success'),
  addUserToProject: write('AddUserToProject', 'success'),
  removeUserFromProject: write('RemoveUserFromProject', 'success'),
  createBranch: write('CreateBranch'),
  deleteBranch: write('DeleteBranch', 'success'),
  createRevision: write('CreateRevision'),
  revertChanges: write('RevertChanges'),
  // Merge and restore (merge.md §3-§4) are answered by the query side's merge service behind the gateway.
  previewMerge: write('PreviewMerge'),
  mergeRevision: { ...write('MergeRevision'), dryRun: 'PreviewMerge' },
  restoreRevision: write('RestoreRevision'),
  createTable: write('CreateTable'),
  updateTable: { ...write('UpdateTable'), dryRun: 'PreviewUpdateTable' },
  renameTable: write('RenameTable'),
  deleteTable: write('DeleteTable', 'success'),
  createRow: write('CreateRows', 'first', oneRow),
  createRows: write('CreateRows', 'rowList', (input) => ({ ...tableOf(input), rows: input.rows as RowInputs, bulk: true })),
  updateRow: write('UpdateRows', 'first', oneRow),
  updateRows: write('UpdateRows', 'rowList', (input) => ({ ...tableOf(input), rows: input.rows as RowInputs, bulk: true })),
  patchRow: write('PatchRows', 'first', (input) => ({
    ...tableOf(input),
    rows: [{ rowId: input.rowId as string, patches: input.patches }],
    bulk: false,
  })),
  patchRows: write('PatchRows', 'rowList', (input) => ({ ...tableOf(input), rows: input.rows as PatchInputs, bulk: true })),
  renameRow: write('RenameRow'),
  deleteRow: write('DeleteRows', 'success', (input) => ({ ...tableOf(input), rowIds: [input.rowId as string], bulk: false })),
  deleteRows: write('DeleteRows', 'result', (input) => ({ ...tableOf(input), rowIds: input.rowIds as string[], bulk: true })),
  createEndpoint: write('CreateEndpoint'),
  deleteEndpoint: write('DeleteEndpoint', 'success'),
  createPersonalApiKey: write('CreatePersonalApiKey'),
  createServiceApiKey: write('CreateServiceApiKey'),
  revokeApiKey: write('RevokeApiKey'),
  rotateApiKey: write('RotateApiKey'),
  createWebhook: write('CreateWebhook'),
  updateWebhook: write('UpdateWebhook'),
  rotateWebhookSecret: write('RotateWebhookSecret'),
  deleteWebhook: write('DeleteWebhook', 'success'),
  pingWebhook: write('PingWebhook'),
  redeliverWebhook: write('RedeliverWebhook'),
} as const satisfies Readonly<Record<string, WriteSpec>>;

type RowInputs = CommandInput<'CreateRows'>['rows'];
type PatchInputs = CommandInput<'PatchRows'>['rows'];

export type WriteName = keyof typeof systemWrites;

export function isWriteName(name: string): name is WriteName {
  return Object.prototype.hasOwnProperty.call(systemWrites, name);
}

/** The GraphQL value of a write's result. */
export function graphqlWriteValue(output: WriteOutput, result: CommandResult<CommandType>): unknown {
  switch (output) {
    case 'result':
    case 'rowList':
      return result;
    case 'first':
      return (result as readonly RowView[])[0];
    case 'success':
      return true;
  }
}

/** The REST body of a write's result. */
export function restWriteBody(output: WriteOutput, result: CommandResult<CommandType>): unknown {
  switch (output) {
    case 'result':
      return result;
    case 'first':
      return (result as readonly RowView[])[0];
    case 'rowList':
      return { rows: result };
    case 'success':
      return { success: true };
  }
}

/** REST and MCP answer a dry run with the table as it would be plus its `migration` (domain.md §6 rule 6). */
export function dryRunBody(preview: TableUpdatePreviewView | MergePreviewView): unknown {
  if (!('table' in preview)) return preview;
  return { ...preview.table, migration: preview.migration };
}
