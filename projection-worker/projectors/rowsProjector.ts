import { OPEN_SEQ, fieldsEqual, rowViews } from '../../contracts/index.ts';
import type { Filter, RecordedEvent, RowWrite, ViewChange } from '../../contracts/index.ts';
import type { Projector } from '../runner/projector.ts';
import { and, domainEventOf, inChunks, streamEntityId } from './projectorSupport.ts';
import { closeShared, copyBranchVersions, removeFromDraft, restoreShared } from './versionChanges.ts';

const ROWS = 'rows';

/**
 * Row versions per branch (projection `rows`, streams `branch-*` and `organization-*` for branch creation and
 * deletion). A written row closes its shared version at the draft's sequence D and gets a draft version
 * (`fromSeq = D`) with the data and timestamps the event carries; a restored row shows its HEAD version again.
 */
export const rowsProjector: Projector = {
  spec: rowViews,
  categories: ['branch', 'organization'],
  apply(events: readonly RecordedEvent[]): ViewChange[] {
    const changes: ViewChange[] = [];
    for (const recorded of events) applyRowsEvent(recorded, changes);
    return changes;
  },
};

type TableRef = { readonly branchId: string; readonly tableKey: string; readonly draftSeq: number };

function rowScopes(table: TableRef, rowIds: readonly string[]): Filter[] {
  const scope = fieldsEqual({ branchId: table.branchId, tableKey: table.tableKey });
  return inChunks('rowId', rowIds).map((ids) => and(scope, ids));
}

function removeRows(table: TableRef, rowIds: readonly string[], changes: ViewChange[]): void {
  for (const scope of rowScopes(table, rowIds)) changes.push(...removeFromDraft(ROWS, scope, table.draftSeq));
}

/**
 * Writes rows in event order. Consecutive rows of the same kind (written or restored, distinct ids) share one
 * close/restore change; a kind switch or a repeated id starts a new group so order is kept.
 */
function writeRows(table: TableRef, rows: readonly RowWrite[], changes: ViewChange[]): void {
  let group: RowWrite[] = [];
  let ids = new Set<string>();
  const flush = (): void => {
    const first = group[0];
    if (first === undefined) return;
    const rowIds = group.map((row) => row.rowId);
    if (first.restored === true) {
      for (const scope of rowScopes(table, rowIds)) changes.push(...restoreShared(ROWS, scope, table.draftSeq));
    } else {
      for (const scope of rowScopes(table, rowIds)) changes.push(closeShared(ROWS, scope, table.draftSeq));
      for (const row of group) {
        if (row.restored === true) continue;
        changes.push({
          op: 'upsert',
          collection: ROWS,
          doc: {
            branchId: table.branchId,
            tableKey: table.tableKey,
            rowId: row.rowId,
            fromSeq: table.draftSeq,
            toSeq: OPEN_SEQ,
            data: row.data,
            createdAt: row.createdAt,
            updatedAt: row.updatedAt,
          },
        });
      }
    }
    group = [];
    ids = new Set();
  };
  for (const row of rows) {
    const first = group[0];
    if (first !== undefined && ((first.restored === true) !== (row.restored === true) || ids.has(row.rowId))) flush();
    group.push(row);
    ids.add(row.rowId);
  }
  flush();
}

function applyRowsEvent(recorded: RecordedEvent, changes: ViewChange[]): void {
  const event = domainEventOf(recorded);
  const branchId = streamEntityId(recorded.streamId);
  switch (event.type) {
    case 'RowsCreated':
    case 'RowsUpdated':
    case 'TableSchemaUpdated': {
      const d = event.data;
      writeRows({ branchId, tableKey: d.tableKey, draftSeq: d.draftSeq }, d.rows, changes);
      return;
    }
    case 'RowsDeleted': {
      const d = event.data;
      removeRows({ branchId, tableKey: d.tableKey, draftSeq: d.draftSeq }, d.rowIds, changes);
      return;
    }
    case 'RowRenamed': {
      const d = event.data;
      const table = { branchId, tableKey: d.tableKey, draftSeq: d.draftSeq };
      removeRows(table, [d.rowId], changes);
      writeRows(table, [d.row], changes);
      return;
    }
    case 'TableDeleted': {
      const d = event.data;
      changes.push(...removeFromDraft(ROWS, fieldsEqual({ branchId, tableKey: d.tableKey }), d.draftSeq));
      return;
    }
    case 'DraftReverted':
      changes.push(...restoreShared(ROWS, fieldsEqual({ branchId }), event.data.draftSeq));
      return;
    case 'BranchCreated': {
      const d = event.data;
      changes.push(copyBranchVersions(ROWS, d.sourceBranchId, d.sourceSeq, d.branchId));
      return;
    }
    case 'BranchDeleted':
      // A deleted branch's revisions can never be read or branched from again.
      changes.push({ op: 'delete', collection: ROWS, filter: fieldsEqual({ branchId: event.data.branchId }) });
      return;
    default:
      // TableCreated/TableRenamed touch no rows (rows are keyed by the stable tableKey); commits move no version.
      return;
  }
}
