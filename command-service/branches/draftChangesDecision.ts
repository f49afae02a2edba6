import { AppError, isAppError, MAX_DRAFT_ROW_CHANGES } from '../../contracts/index.ts';
import type { DomainEvent, DraftOperation, DraftOperationResult, ReferencedRows } from '../../contracts/index.ts';
import { draftHasChanges, draftRow, draftTable, type BranchContent } from './branchContent.ts';
import type { BranchCommandData, BranchCommandMetadata, BranchDeciderTools } from './branchCommand.ts';
import { requireTable } from './draftRefs.ts';
import { decideRowWrites, emptyResult } from './draftRowWrites.ts';
import { evolveBranchContent, undoChanges, type UndoLog } from './evolveBranchContent.ts';
import { assertForeignKeysExist, assertRowsNotReferenced } from './foreignKeys.ts';
import { assertRowsExist } from './rowErrors.ts';
import { assertUniqueRows } from './uniqueFields.ts';
import { decideRenameRow, rowsDeletedEvents } from './rowRenameDeleteDecisions.ts';
import { decideCreateTable, decideDeleteTable, decideRenameTable } from './tableDecisions.ts';
import { decideUpdateTable } from './updateTableDecision.ts';
import { addMigratedRow, checkMigratedRows, renameMigratedRow, type MigratedRows } from './migratedRowChecks.ts';

/** What ApplyDraftChanges did besides its events (the caller's answer is built from it). */
export type DraftChangesReport = {
  readonly draftRevisionId: string;
  readonly hasChanges: boolean;
  readonly rowChanges: number;
  readonly operations: readonly DraftOperationResult[];
  /** How many events each operation decided (a staged bundle's chunk leaves out its prefix's). */
  readonly eventCounts: readonly number[];
  /** `onReferencedRow: 'report'`: the deletions still referenced on the final draft. */
  readonly referenced?: readonly ReferencedRows[];
};

export type DraftChangesDecision = { readonly events: DomainEvent[]; readonly report: DraftChangesReport };

/** tableKey -> row ids. */
type RowKeys = Map<string, Set<string>>;

/** One decision in progress: operations decided so far are folded into `state` (taken back at the end). */
type Work = {
  readonly state: BranchContent;
  readonly meta: BranchCommandMetadata;
  readonly tools: BranchDeciderTools;
  readonly undo: UndoLog;
  readonly events: DomainEvent[];
  /** Rows written by operations that fail on invalid rows: their foreign keys are checked on the final draft. */
  readonly written: RowKeys;
  /** Rows deleted: that nothing references them is checked on the final draft. */
  readonly removed: RowKeys;
  /** Created tables' keys: this seed (the command's fresh id, or a staged bundle's) and the operation's index. */
  readonly keySeed: string;
  /** Rows schema updates migrated into invalid data: checked on the final draft (merge.md §2.3 checks the result). */
  readonly migrated: MigratedRows;
  /** `onReferencedRow: 'report'` (else null): deletions still referenced on the final draft, answered, not refused. */
  readonly referenced: ReferencedRows[] | null;
  rowChanges: number;
};

function addKeys(keys: RowKeys, tableKey: string, rowIds: Iterable<string>): void {
  let set = keys.get(tableKey);
  if (set === undefined) keys.set(tableKey, (set = new Set()));
  for (const rowId of rowIds) set.add(rowId);
}

/** Row versions an event writes or removes (the unit of the MAX_DRAFT_ROW_CHANGES limit). */
function rowChangesOf(event: DomainEvent | undefined): number {
  switch (event?.type) {
    case 'RowsCreated':
    case 'RowsUpdated':
    case 'TableSchemaUpdated':
      return event.data.rows.length;
    case 'RowsDeleted':
      return event.data.rowIds.length;
    case 'RowRenamed':
      return 1;
    default:
      return 0;
  }
}

function assertRowChangeLimit(count: number): void {
  if (count > MAX_DRAFT_ROW_CHANGES) {
    throw new AppError('LIMIT_EXCEEDED', `A draft change can write at most ${MAX_DRAFT_ROW_CHANGES} row changes`);
  }
}

/** Folds an operation's events into the draft (with undo) so the next operation is decided on top of them. */
function fold(work: Work, events: readonly DomainEvent[]): void {
  const { state, undo, meta } = work;
  for (const event of events) {
    work.rowChanges += rowChangesOf(event);
    assertRowChangeLimit(work.rowChanges);
    evolveBranchContent(state, event, { revision: (state.streamRevision ?? -1) + 1, time: meta.now, undo });
    work.events.push(event);
  }
}

function decideOperation(work: Work, op: DraftOperation, index: number): { events: DomainEvent[]; result: DraftOperationResult } {
  const { state, meta, tools } = work;
  switch (op.type) {
    case 'CreateTable': {
      // Each created table needs its own key: the command's fresh id, suffixed by the operation's index.
      const events = decideCreateTable(state, { tableId: op.tableId, schema: op.schema }, { ...meta, newId: `${work.keySeed}-${index}` });
      return { events, result: emptyResult(op.type, op.tableId) };
    }
    case 'UpdateTable': {
      const { tableKey } = requireTable(state, op.tableId);
      const onInvalid = (rowId: string) => addMigratedRow(work.migrated, tableKey, rowId, index);
      const events = decideUpdateTable(state, { tableId: op.tableId, patches: op.patches }, meta, tools, undefined, onInvalid);
      const migrated = events.reduce((sum, event) => sum + rowChangesOf(event), 0);
      return { events, result: { ...emptyResult(op.type, op.tableId), updated: migrated } };
    }
    case 'RenameTable':
      return {
        events: decideRenameTable(state, { tableId: op.tableId, nextTableId: op.nextTableId }, meta, tools),
        result: emptyResult(op.type, op.nextTableId),
      };
    case 'DeleteTable':
      return { events: decideDeleteTable(state, { tableId: op.tableId }, meta, tools), result: emptyResult(op.type, op.tableId) };
    case 'CreateRows':
    case 'UpdateRows':
    case 'UpsertRows':
    case 'PatchRows': {
      const { events, result, written } = decideRowWrites(state, op, meta, tools);
      assertRowChangeLimit(work.rowChanges + rowChangesOf(events[0]) + rowChangesOf(events[1]));
      if (written) addKeys(work.written, written.tableKey, written.rowIds);
      return { events, result };
    }
    case 'DeleteRows': {
      const table = requireTable(state, op.tableId);
      assertRowsExist(table, op.rowIds, true);
      // A staged bundle's rows left are all its own, whose references are checked instead (ReferenceChecks).
      if (op.referenceChecks === undefined) addKeys(work.removed, table.tableKey, op.rowIds);
      const events = op.rowIds.length > 0 ? rowsDeletedEvents(state, table, op.rowIds, meta) : [];
      return { events, result: { ...emptyResult(op.type, op.tableId), deleted: op.rowIds.length } };
    }
    case 'RenameRow': {
      renameMigratedRow(work.migrated, requireTable(state, op.tableId).tableKey, op.rowId, op.nextRowId);
      const events = decideRenameRow(state, { tableId: op.tableId, rowId: op.rowId, nextRowId: op.nextRowId }, meta, tools);
      return { events, result: { ...emptyResult(op.type, op.tableId), renamed: 1 } };
    }
    default: {
      const never: never = op;
      return never;
    }
  }
}

/**
 * Foreign keys and unique values are checked on the final draft, as a deferred constraint: rows may reference rows created by later
 * operations, and rows referencing each other may be deleted in any order. Deleted rows first: a deletion that
 * strands a written row is FOREIGN_KEY_IN_USE, as the single command would answer.
 */
function assertFinalConstraints(work: Work): void {
  const { state, tools } = work;
  for (const [tableKey, rowIds] of work.removed) {
    const table = draftTable(state, tableKey);
    if (table === null) continue;
    const gone = new Set([...rowIds].filter((rowId) => draftRow(table, rowId) === null));
    if (gone.size === 0) continue;
    try {
      assertRowsNotReferenced(state, table, gone, tools.models);
    } catch (err) {
      if (work.referenced === null || !isAppError(err, 'FOREIGN_KEY_IN_USE')) throw err;
      work.referenced.push({ message: err.message, details: err.details ?? [] });
    }
  }
  for (const [tableKey, rowIds] of work.written) {
    const table = draftTable(state, tableKey);
    if (table === null) continue;
    const rows = [...rowIds].flatMap((rowId) => {
      const row = draftRow(table, rowId);
      return row ? [{ rowId, data: row.data }] : [];
    });
    assertForeignKeysExist(state, table, rows, tools.models, true);
    // Unique values too are a deferred constraint: a merge may swap two rows' values in two operations.
    assertUniqueRows(state, table, rows, tools);
  }
}

function assertExpectedRevision(state: BranchContent, expected: BranchCommandData['ApplyDraftChanges']['expectedStreamRevision']): void {
  if (expected === undefined || expected === null) return;
  const actual = state.streamRevision ?? 'no_stream';
  if (expected !== actual) {
    throw new AppError(
      'CONCURRENT_MODIFICATION',
      `The draft was modified concurrently (stream revision ${String(actual)}, expected ${String(expected)}); retry the request`,
    );
  }
}

/**
 * ApplyDraftChanges (docs/reference/versioned-storage.md §3): the operations are decided in order, each on the
 * draft as the previous ones left it (their events are folded with an undo record and taken back at the end, so
 * `state` is unchanged); foreign keys are checked on the result; a merge record closes the events. Any refusal
 * refuses the whole command.
 */
export function decideDraftChanges(
  state: BranchContent,
  data: BranchCommandData['ApplyDraftChanges'],
  meta: BranchCommandMetadata,
  tools: BranchDeciderTools,
): DraftChangesDecision {
  assertExpectedRevision(state, data.expectedStreamRevision);
  const reports = new Set(data.operations.flatMap((op, index) => (op.type === 'UpdateTable' && op.onInvalidRow === 'report' ? [index] : [])));
  if (reports.size > 0 && data.dryRun !== true) {
    const message = "onInvalidRow 'report' on UpdateTable needs a dry run";
    throw new AppError('BAD_USER_INPUT', message, [{ path: '/operations', message }]);
  }
  const reportReferenced = data.onReferencedRow === 'report';
  if (reportReferenced && data.dryRun !== true) {
    const message = "onReferencedRow 'report' needs a dry run";
    throw new AppError('BAD_USER_INPUT', message, [{ path: '/onReferencedRow', message }]);
  }
  const keySeed = data.tableKeySeed ?? meta.newId;
  const work: Work = {
    state,
    meta,
    tools,
    undo: [],
    events: [],
    written: new Map(),
    removed: new Map(),
    keySeed,
    migrated: new Map(),
    referenced: reportReferenced ? [] : null,
    rowChanges: 0,
  };
  const eventCounts: number[] = [];
  try {
    const operations = data.operations.map((op, index) => {
      const { events, result } = decideOperation(work, op, index);
      fold(work, events);
      eventCounts.push(events.length);
      return result;
    });
    checkMigratedRows(state, work.migrated, operations, reports, tools);
    assertFinalConstraints(work);
    const hasChanges = draftHasChanges(state);
    const { merge } = data;
    if (merge) {
      work.events.push({
        type: 'MergeRecorded',
        data: {
          projectId: meta.projectId,
          draftRevisionId: state.draftRevisionId,
          draftSeq: state.headSeq + 1,
          draftHasChanges: hasChanges,
          sourceRevisionId: merge.sourceRevisionId,
          baseRevisionId: merge.baseRevisionId,
          totalRowChanges: merge.totalRowChanges,
        },
      });
    }
    const referenced = work.referenced === null ? {} : { referenced: work.referenced };
    const report = { draftRevisionId: state.draftRevisionId, hasChanges, rowChanges: work.rowChanges, operations, eventCounts, ...referenced };
    return { events: work.events, report };
  } finally {
    undoChanges(work.undo);
  }
}
