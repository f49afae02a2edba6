import { isAppError, jsonDeepEqual } from '../../contracts/index.ts';
import type { AppError, DomainEvent, DraftOperation, DraftOperationResult, InvalidDraftRow, JsonObject } from '../../contracts/index.ts';
import type { BranchContent, DraftTable, RowRecord } from './branchContent.ts';
import type { BranchCommandMetadata, BranchDeciderTools } from './branchCommand.ts';
import { createDraftRefs, requireTable } from './draftRefs.ts';
import { collectMissingForeignKeys, draftRowExists, foreignKeyError, type ForeignKeyFailures } from './foreignKeys.ts';
import { rowsAlreadyExist, rowsNotFound } from './rowErrors.ts';
import { checkedData, patchedData } from './rowWriteDecisions.ts';
import { createTableEdit } from './tableEdit.ts';
import { deferredUniqueValues, uniqueClashesOf } from './uniqueFields.ts';
import { deferredReferencesOf } from './deferredReferences.ts';
import { uniqueViolation } from '../domain/rows/uniqueClashes.ts';

type RowWriteOp = Extract<DraftOperation, { type: 'CreateRows' | 'UpdateRows' | 'UpsertRows' | 'PatchRows' }>;

/** An operation's result before counting anything. */
export const emptyResult = (type: DraftOperation['type'], tableId: string): DraftOperationResult => ({
  type,
  tableId,
  created: 0,
  updated: 0,
  unchanged: 0,
  deleted: 0,
  renamed: 0,
  invalid: [],
});

function invalidRow(index: number, rowId: string, error: AppError): InvalidDraftRow {
  return { index, rowId, code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
}

type Candidate = {
  readonly index: number;
  readonly rowId: string;
  readonly input: RowWriteOp['rows'][number];
  /** The draft row before the operation, or null. */
  readonly current: RowRecord | null;
  data?: JsonObject;
};

/**
 * One check stage of a row write: returns the rows that pass. Failing rows refuse the command (the error a bulk
 * write of the same rows gets: the first data error, or every missing/existing id in one error) or, with
 * `onInvalidRow: 'skip'`, are reported and left out.
 */
function stage(
  candidates: readonly Candidate[],
  invalid: InvalidDraftRow[],
  skip: boolean,
  check: (row: Candidate) => AppError | null,
  together?: (rows: readonly Candidate[]) => AppError,
): Candidate[] {
  const passed: Candidate[] = [];
  const failed: { row: Candidate; error: AppError }[] = [];
  for (const row of candidates) {
    const error = check(row);
    if (error === null) passed.push(row);
    else failed.push({ row, error });
  }
  const [first] = failed;
  if (first !== undefined && !skip) throw together ? together(failed.map((f) => f.row)) : first.error;
  for (const { row, error } of failed) invalid.push(invalidRow(row.index, row.rowId, error));
  return passed;
}

function dataCheck(table: DraftTable, op: RowWriteOp, tools: BranchDeciderTools): (row: Candidate) => AppError | null {
  return (row) => {
    try {
      const input =
        op.type === 'PatchRows'
          ? patchedData(row.current?.data, row.rowId, (row.input as { patches: unknown }).patches, true)
          : (row.input as { data: unknown }).data;
      row.data = checkedData(table, tools, row.rowId, input, row.index, true).data;
      return null;
    } catch (err) {
      if (isAppError(err)) return err;
      throw err;
    }
  };
}

/**
 * `onInvalidRow: 'skip'`: rows whose foreign keys name no row of the draft are left out (a table never references
 * itself); with `deferring` (a staged bundle's chunk) only `""` values, the others being deferred references.
 */
function skipMissingForeignKeys(
  state: BranchContent,
  tools: BranchDeciderTools,
  table: DraftTable,
  rows: readonly Candidate[],
  invalid: InvalidDraftRow[],
  deferring: boolean,
): Candidate[] {
  const fields = tools.models(table.schema).foreignKeys;
  if (fields.length === 0) return [...rows];
  const exists = deferring ? () => true : draftRowExists(state);
  return rows.filter((row) => {
    const failures: ForeignKeyFailures = { details: [], first: null };
    const data = row.data as JsonObject;
    if (!collectMissingForeignKeys(failures, { rowId: row.rowId, data, index: row.index }, fields, exists, true)) return true;
    invalid.push(invalidRow(row.index, row.rowId, foreignKeyError(table.tableId, failures) as AppError));
    return false;
  });
}

/** `onInvalidRow: 'skip'`: rows repeating a unique value of the draft or of an accepted row before them are left out. */
function skipUniqueClashes(
  state: BranchContent,
  tools: BranchDeciderTools,
  table: DraftTable,
  rows: readonly Candidate[],
  invalid: InvalidDraftRow[],
): Candidate[] {
  const clashes = uniqueClashesOf(
    state,
    table,
    rows.map((row) => ({ rowId: row.rowId, data: row.data, index: row.index })),
    tools,
  );
  if (clashes.length === 0) return [...rows];
  const clashing = new Set(clashes.map((clash) => clash.rowId));
  return rows.filter((row) => {
    if (!clashing.has(row.rowId)) return true;
    invalid.push(
      invalidRow(
        row.index,
        row.rowId,
        uniqueViolation(
          table.tableId,
          clashes.filter((clash) => clash.rowId === row.rowId),
        ),
      ),
    );
    return false;
  });
}

/**
 * Create, update, patch or upsert rows of ApplyDraftChanges: each row checked on its own, then one RowsCreated and
 * one RowsUpdated. `written` (rows of a failing operation) are the rows whose foreign keys and unique values the
 * caller checks on the final draft; a skipping operation checks them here, against the draft plus its own accepted
 * rows.
 */
export function decideRowWrites(
  state: BranchContent,
  op: RowWriteOp,
  meta: BranchCommandMetadata,
  tools: BranchDeciderTools,
): { events: DomainEvent[]; result: DraftOperationResult; written: { tableKey: string; rowIds: string[] } | null } {
  const table = requireTable(state, op.tableId);
  const skip = op.onInvalidRow === 'skip';
  const edit = createTableEdit(table);
  const invalid: InvalidDraftRow[] = [];
  let rows: Candidate[] = op.rows.map((input, index) => ({ index, rowId: input.rowId, input, current: edit.row(input.rowId) }));

  const data = dataCheck(table, op, tools);
  const mustExist = op.type === 'UpdateRows' || op.type === 'PatchRows';
  const existence = (row: Candidate): AppError | null => {
    if (mustExist && row.current === null) return rowsNotFound(table, [row.rowId], true);
    if (op.type === 'CreateRows' && row.current !== null) return rowsAlreadyExist([row.rowId]);
    return null;
  };
  const allExistence = (failed: readonly Candidate[]): AppError =>
    mustExist
      ? rowsNotFound(
          table,
          failed.map((row) => row.rowId),
          true,
        )
      : rowsAlreadyExist(failed.map((row) => row.rowId));
  // The order of the single commands: patches need the row first; created and replaced data is checked first.
  if (op.type === 'PatchRows') {
    rows = stage(rows, invalid, skip, existence, allExistence);
    rows = stage(rows, invalid, skip, data);
  } else {
    rows = stage(rows, invalid, skip, data);
    rows = stage(rows, invalid, skip, existence, allExistence);
  }
  // A staged bundle's chunk: the references of every row it keeps, unchanged ones too (a replaced target may go).
  const checks = skip ? op.referenceChecks : undefined;
  const deferredReferences = checks !== undefined ? deferredReferencesOf(state, tools, table, rows, checks) : undefined;
  const changed = (row: Candidate): boolean => row.current === null || !jsonDeepEqual(row.current.data, row.data);
  const unchanged = rows.filter((row) => !changed(row)).length;
  rows = rows.filter(changed);
  // A staged import's chunk leaves its unique values to the staging's check across the whole file.
  const deferred = skip && op.uniqueChecks === 'defer';
  if (skip) rows = skipMissingForeignKeys(state, tools, table, rows, invalid, checks !== undefined);
  if (skip && !deferred) rows = skipUniqueClashes(state, tools, table, rows, invalid);
  invalid.sort((a, b) => a.index - b.index);
  const deferredUnique = deferred
    ? deferredUniqueValues(
        state,
        table,
        rows.map((row) => ({ rowId: row.rowId, data: row.data, index: row.index, created: row.current === null })),
        tools,
      )
    : undefined;

  const creations = rows.filter((row) => row.current === null);
  const replacements = rows.filter((row) => row.current !== null);
  const refs = createDraftRefs(state, meta.projectId);
  const events: DomainEvent[] = [];
  if (creations.length > 0) {
    const writes = creations.map((row) => edit.write(row.rowId, row.data as JsonObject, meta.now, meta.now));
    const facts = edit.facts();
    events.push({ type: 'RowsCreated', data: { ...refs.afterTables([facts]), tableKey: table.tableKey, rows: writes, table: facts } });
  }
  if (replacements.length > 0) {
    const writes = replacements.map((row) => edit.write(row.rowId, row.data as JsonObject, row.current?.createdAt ?? meta.now, meta.now));
    const facts = edit.facts();
    events.push({ type: 'RowsUpdated', data: { ...refs.afterTables([facts]), tableKey: table.tableKey, rows: writes, table: facts } });
  }
  const result = {
    ...emptyResult(op.type, table.tableId),
    created: creations.length,
    updated: replacements.length,
    unchanged,
    invalid,
    ...(deferredUnique !== undefined ? { deferredUnique } : {}),
    ...(deferredReferences !== undefined ? { deferredReferences } : {}),
  };
  return { events, result, written: skip ? null : { tableKey: table.tableKey, rowIds: edit.changedRowIds() } };
}
