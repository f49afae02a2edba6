import { AppError, assertRowId, assertTableId } from '../../contracts/index.ts';
import type { CommandInput } from '../../contracts/index.ts';
import { assertPatchList } from '../domain/tables/patchOperations.ts';
import type { RowValidatorCache } from '../domain/tables/rowValidator.ts';
import type { TableModelCache } from './tableModelCache.ts';

/** Rows or ids per bulk request (operations.md §7). */
export const MAX_BULK_ROWS = 1000;
/** Tables per revision (operations.md §7). */
export const MAX_TABLES_PER_REVISION = 1000;
/** Revision comment length in characters (operations.md §7). */
export const MAX_COMMENT_LENGTH = 1000;

/** Time, fresh ids and the caller's key scope come in with the command: the decider stays pure. */
export type BranchCommandMetadata = {
  /** RFC 3339 time of the decision. */
  readonly now: string;
  /** A fresh id: the key of a created table, or the id of the draft a commit opens. */
  readonly newId: string;
  readonly projectId: string;
  /** Whether the caller's key scope admits a table id (always true without a table-scoped key). */
  readonly tableInScope: (tableId: string) => boolean;
};

type Cmd<TType extends string, TData> = {
  readonly type: TType;
  readonly data: TData;
  readonly metadata: BranchCommandMetadata;
};
type OnDraft<K extends keyof BranchCommandData> = Cmd<K, BranchCommandData[K]>;

/** Command data without the revision id (the decider works on the branch's draft). */
export type BranchCommandData = {
  CreateTable: Omit<CommandInput<'CreateTable'>, 'revisionId'>;
  UpdateTable: Omit<CommandInput<'UpdateTable'>, 'revisionId'>;
  RenameTable: Omit<CommandInput<'RenameTable'>, 'revisionId'>;
  DeleteTable: Omit<CommandInput<'DeleteTable'>, 'revisionId'>;
  CreateRows: Omit<CommandInput<'CreateRows'>, 'revisionId'>;
  UpdateRows: Omit<CommandInput<'UpdateRows'>, 'revisionId'>;
  PatchRows: Omit<CommandInput<'PatchRows'>, 'revisionId'>;
  RenameRow: Omit<CommandInput<'RenameRow'>, 'revisionId'>;
  DeleteRows: Omit<CommandInput<'DeleteRows'>, 'revisionId'>;
  CreateRevision: { readonly comment: string };
  RevertChanges: Record<string, never>;
};

export type BranchCommandType = keyof BranchCommandData;

export type BranchCommand = { [K in BranchCommandType]: OnDraft<K> }[BranchCommandType];

/** A command without its metadata (what input validation looks at). */
export type BranchCommandBody = {
  [K in BranchCommandType]: { readonly type: K; readonly data: BranchCommandData[K] };
}[BranchCommandType];

/** What the decider needs besides state: compiled schemas and row validators (caches, no I/O). */
export type BranchDeciderTools = {
  readonly rowValidators: RowValidatorCache;
  readonly models: TableModelCache;
};

function badInput(path: string, message: string): AppError {
  return new AppError('BAD_USER_INPUT', message, [{ path, message }]);
}

function assertBulkSize(length: number, path: string): void {
  if (length < 1 || length > MAX_BULK_ROWS) {
    throw badInput(path, `${path.slice(1)} must hold 1 to ${MAX_BULK_ROWS} items`);
  }
}

function assertUniqueIds(ids: readonly string[], path: (index: number) => string): void {
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    if (seen.has(id)) throw badInput(path(index), `Duplicate row id "${id}" in the request`);
    seen.add(id);
  });
}

function assertNewId(current: string, next: string, path: string): void {
  if (current === next) throw badInput(path, 'New ID must be different from current');
}

/**
 * Input checks that need no state (auth.md §10 step 9): id syntax of new ids, bulk sizes, duplicate ids, renames
 * to the same id, patch list sizes, comment length. Schema and row data are validated by the decision (they need the draft).
 */
export function validateBranchCommand(command: BranchCommandBody): void {
  switch (command.type) {
    case 'CreateTable':
      assertTableId(command.data.tableId);
      return;
    case 'RenameTable':
      assertTableId(command.data.nextTableId);
      assertNewId(command.data.tableId, command.data.nextTableId, '/nextTableId');
      return;
    case 'UpdateTable':
      assertPatchList(command.data.patches);
      return;
    case 'DeleteTable':
      return;
    case 'CreateRows':
    case 'UpdateRows':
    case 'PatchRows': {
      const { rows } = command.data;
      assertBulkSize(rows.length, '/rows');
      if (command.type === 'CreateRows') for (const row of rows) assertRowId(row.rowId);
      if (command.type === 'PatchRows') for (const row of command.data.rows) assertPatchList(row.patches);
      assertUniqueIds(
        rows.map((row) => row.rowId),
        (index) => `/rows/${index}/rowId`,
      );
      return;
    }
    case 'RenameRow':
      assertRowId(command.data.nextRowId);
      assertNewId(command.data.rowId, command.data.nextRowId, '/nextRowId');
      return;
    case 'DeleteRows':
      assertBulkSize(command.data.rowIds.length, '/rowIds');
      assertUniqueIds(command.data.rowIds, (index) => `/rowIds/${index}`);
      return;
    case 'CreateRevision':
      if ([...command.data.comment].length > MAX_COMMENT_LENGTH) {
        throw badInput('/comment', `comment must be at most ${MAX_COMMENT_LENGTH} characters`);
      }
      return;
    case 'RevertChanges':
      return;
    default: {
      const never: never = command;
      return never;
    }
  }
}
