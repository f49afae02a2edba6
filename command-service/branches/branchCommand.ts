import { AppError, MAX_DRAFT_ROW_CHANGES, assertPatchList, assertRowId, assertTableId } from '../../contracts/index.ts';
import type { CommandInput, DraftOperation } from '../../contracts/index.ts';
import type { RowValidatorCache } from '../domain/tables/rowValidator.ts';
import type { HeadValueIndexes } from './headValueIndexes.ts';
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
  ApplyDraftChanges: Omit<CommandInput<'ApplyDraftChanges'>, 'revisionId'>;
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
  /** Value indexes of HEAD rows for unique fields (uniqueFields.ts); without it each decision builds its own. */
  readonly headValues?: HeadValueIndexes;
};

function badInput(path: string, message: string): AppError {
  return new AppError('BAD_USER_INPUT', message, [{ path, message }]);
}

function assertBulkSize(length: number, path: string, max = MAX_BULK_ROWS, min = 1): void {
  if (length < min || length > max) {
    throw badInput(path, `${path.slice(path.lastIndexOf('/') + 1)} must hold ${min} to ${max} items`);
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

/** Row lists of one command: size, ids (syntax for new rows, no duplicates), patch lists. */
function assertRowList(
  rows: readonly { readonly rowId: string; readonly patches?: unknown }[],
  at: string,
  kind: 'create' | 'patch' | 'replace',
  max: number,
  min: number,
): void {
  assertBulkSize(rows.length, `${at}/rows`, max, min);
  if (kind === 'create') for (const row of rows) assertRowId(row.rowId);
  if (kind === 'patch') for (const row of rows) assertPatchList(row.patches);
  assertUniqueIds(
    rows.map((row) => row.rowId),
    (index) => `${at}/rows/${index}/rowId`,
  );
}

/** One operation of ApplyDraftChanges, at `/operations/{index}`: the checks of its single command, any list size. */
function validateDraftOperation(op: DraftOperation, at: string, max: number): void {
  switch (op.type) {
    case 'CreateTable':
      assertTableId(op.tableId);
      return;
    case 'RenameTable':
      assertTableId(op.nextTableId);
      assertNewId(op.tableId, op.nextTableId, `${at}/nextTableId`);
      return;
    case 'UpdateTable':
      assertPatchList(op.patches);
      return;
    case 'DeleteTable':
      return;
    case 'CreateRows':
    case 'UpsertRows':
      assertRowList(op.rows, at, 'create', max, 0);
      return;
    case 'UpdateRows':
      assertRowList(op.rows, at, 'replace', max, 0);
      return;
    case 'PatchRows':
      assertRowList(op.rows, at, 'patch', max, 0);
      return;
    case 'DeleteRows':
      assertBulkSize(op.rowIds.length, `${at}/rowIds`, max, 0);
      assertUniqueIds(op.rowIds, (index) => `${at}/rowIds/${index}`);
      return;
    case 'RenameRow':
      assertRowId(op.nextRowId);
      assertNewId(op.rowId, op.nextRowId, `${at}/nextRowId`);
      return;
    default: {
      const unknown: never = op;
      throw badInput(`${at}/type`, `Unknown draft operation ${JSON.stringify((unknown as { type?: unknown }).type)}`);
    }
  }
}

function validateDraftChanges(data: BranchCommandData['ApplyDraftChanges']): void {
  data.operations.forEach((op, index) => validateDraftOperation(op, `/operations/${index}`, MAX_DRAFT_ROW_CHANGES));
  const expected = data.expectedStreamRevision;
  if (expected !== undefined && expected !== null && expected !== 'no_stream' && !(Number.isInteger(expected) && expected >= 0)) {
    throw badInput('/expectedStreamRevision', 'expectedStreamRevision must be a stream revision (an integer >= 0) or "no_stream"');
  }
  const merge = data.merge;
  if (merge !== undefined && merge !== null) {
    if (!Number.isInteger(merge.totalRowChanges) || merge.totalRowChanges < 0) {
      throw badInput('/merge/totalRowChanges', 'totalRowChanges must be an integer >= 0');
    }
    for (const field of ['sourceRevisionId', 'baseRevisionId'] as const) {
      if (merge[field] === '') throw badInput(`/merge/${field}`, `${field} must not be empty`);
    }
  }
}

/**
 * Input checks that need no state (auth.md §10 step 9): id syntax of new ids, bulk sizes, duplicate ids, renames
 * to the same id, patch list sizes, comment length. Schema and row data are validated by the decision (they need the draft).
 */
export function validateBranchCommand(command: BranchCommandBody): void {
  switch (command.type) {
    case 'CreateTable':
    case 'RenameTable':
    case 'UpdateTable':
    case 'DeleteTable':
    case 'RenameRow':
      validateDraftOperation({ type: command.type, ...command.data } as DraftOperation, '', MAX_BULK_ROWS);
      return;
    case 'CreateRows':
      assertRowList(command.data.rows, '', 'create', MAX_BULK_ROWS, 1);
      return;
    case 'UpdateRows':
      assertRowList(command.data.rows, '', 'replace', MAX_BULK_ROWS, 1);
      return;
    case 'PatchRows':
      assertRowList(command.data.rows, '', 'patch', MAX_BULK_ROWS, 1);
      return;
    case 'DeleteRows':
      assertBulkSize(command.data.rowIds.length, '/rowIds');
      assertUniqueIds(command.data.rowIds, (index) => `/rowIds/${index}`);
      return;
    case 'ApplyDraftChanges':
      validateDraftChanges(command.data);
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
