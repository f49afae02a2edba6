import type { RowWrite } from '../events/domainEvents.ts';
import type { RecordedEvent } from '../events/envelope.ts';
import { fieldsEqual } from '../ports/viewStore.ts';
import type { Filter, ViewChange, ViewDoc } from '../ports/viewStore.ts';
import { and, domainEventOf, inChunks, streamEntityId } from './projectionSupport.ts';
import { closeShared, removeFromDraft, restoreShared } from './versionChanges.ts';
import { OPEN_SEQ } from './viewSpecs.ts';

const ROWS = 'rows';
const MARKS = 'row_marks';

/**
 * The view changes of the `rows` projection (contracts/views/viewSpecs.ts `rowViews`) for `events` of the streams
 * `branch-*` and `organization-*` (branch deletion): row versions per branch, copy-on-write
 * (docs/reference/versioned-storage.md §1). A written row closes its shared version at the draft's sequence D and
 * gets a draft version (`fromSeq = D`) with the data, timestamps and principal the event carries; a restored row
 * shows its HEAD version again; a deleted row (and the old id of a renamed one) gets a tombstone at D. A new branch
 * copies nothing. Renames and deletions also leave a `row_marks` document (revision diffs and row history read them). Pure and deterministic: the projection worker
 * and the write side's decision store apply the same changes.
 */
export function rowsViewChanges(events: readonly RecordedEvent[]): ViewChange[] {
  const batch = createRowsBatch();
  for (const recorded of events) applyRowsEvent(recorded, batch);
  return batch.finish();
}

type TableRef = { readonly branchId: string; readonly tableKey: string; readonly draftSeq: number };

/** A row write with the principal of its event (`actor` of the row version). */
type ActedWrite = { readonly row: RowWrite; readonly actor: string };

/**
 * How a written row reaches the draft: `write` closes its shared version (a version or a tombstone) and upserts the
 * draft version, `restore` shows HEAD again.
 */
type WriteKind = 'write' | 'restore';

/**
 * The changes of one batch. Consecutive row writes of the same kind into the same draft table with distinct ids
 * form one group, across events too: one close/restore change per 500 ids and a run of upserts, instead of two
 * statements per row when a batch holds many single-row events. Moving a group's close before the upserts of
 * its earlier rows changes nothing: they touch different rows. Anything else first ends the group.
 */
type RowsBatch = {
  write(table: TableRef, rows: readonly RowWrite[], actor: string): void;
  push(...changes: ViewChange[]): void;
  finish(): ViewChange[];
};

function rowScopes(table: TableRef, rowIds: readonly string[]): Filter[] {
  const scope = fieldsEqual({ branchId: table.branchId, tableKey: table.tableKey });
  return inChunks('rowId', rowIds).map((ids) => and(scope, ids));
}

function sameTable(a: TableRef, b: TableRef): boolean {
  return a.branchId === b.branchId && a.tableKey === b.tableKey && a.draftSeq === b.draftSeq;
}

function createRowsBatch(): RowsBatch {
  const changes: ViewChange[] = [];
  let group: { table: TableRef; kind: WriteKind; rows: ActedWrite[]; ids: Set<string> } | null = null;

  function flush(): void {
    if (group === null) return;
    const { table, kind, rows } = group;
    group = null;
    const scopes = rowScopes(
      table,
      rows.map(({ row }) => row.rowId),
    );
    if (kind === 'restore') {
      for (const scope of scopes) changes.push(...restoreShared(ROWS, scope, table.draftSeq));
      return;
    }
    for (const scope of scopes) changes.push(closeShared(ROWS, scope, table.draftSeq));
    for (const { row, actor } of rows) {
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
          actor,
          tombstone: null,
        },
      });
    }
  }

  return {
    write(table, rows, actor) {
      for (const row of rows) {
        const kind: WriteKind = row.restored === true ? 'restore' : 'write';
        if (group === null || group.kind !== kind || !sameTable(group.table, table) || group.ids.has(row.rowId)) {
          flush();
          group = { table, kind, rows: [], ids: new Set() };
        }
        group.rows.push({ row, actor });
        group.ids.add(row.rowId);
      }
    },
    push(...more) {
      flush();
      changes.push(...more);
    },
    finish() {
      flush();
      return changes;
    },
  };
}

/**
 * Rows leave the draft: their draft versions go, their shared versions close at D, and a tombstone at D hides them in
 * the layers below (a branch's rows inherited from the branch it was created from) and shows the deletion to row
 * history; on a branch without lower layers it hides nothing (one rule everywhere).
 */
function removeRows(table: TableRef, rowIds: readonly string[], actor: string, batch: RowsBatch): void {
  for (const scope of rowScopes(table, rowIds)) batch.push(...removeFromDraft(ROWS, scope, table.draftSeq));
  batch.push(...rowIds.map((rowId): ViewChange => ({ op: 'upsert', collection: ROWS, doc: rowTombstone(table, rowId, actor) })));
}

function rowTombstone(table: TableRef, rowId: string, actor: string): ViewDoc {
  const { branchId, tableKey, draftSeq } = table;
  return { branchId, tableKey, rowId, fromSeq: draftSeq, toSeq: OPEN_SEQ, data: null, createdAt: null, updatedAt: null, actor, tombstone: true };
}

/** A `row_marks` document (contracts/views/viewSpecs.ts): a rename or deletion the row versions cannot show. */
function mark(recorded: RecordedEvent, table: TableRef, rowId: string, kind: 'renamed' | 'deleted', previousRowId: string | null): ViewChange {
  const doc = {
    branchId: table.branchId,
    seq: table.draftSeq,
    tableKey: table.tableKey,
    rowId,
    position: recorded.position,
    kind,
    previousRowId,
    actor: recorded.metadata.principal,
  };
  return { op: 'upsert', collection: MARKS, doc };
}

function applyRowsEvent(recorded: RecordedEvent, batch: RowsBatch): void {
  const event = domainEventOf(recorded);
  const branchId = streamEntityId(recorded.streamId);
  const actor = recorded.metadata.principal;
  switch (event.type) {
    case 'RowsCreated':
    case 'RowsUpdated':
    case 'TableSchemaUpdated': {
      // A created row is absent from the draft, but its id may hold an open tombstone of an earlier revision: it is
      // closed like a shared version (one lookup per row through the key).
      const d = event.data;
      batch.write({ branchId, tableKey: d.tableKey, draftSeq: d.draftSeq }, d.rows, actor);
      return;
    }
    case 'RowsDeleted': {
      const d = event.data;
      const table = { branchId, tableKey: d.tableKey, draftSeq: d.draftSeq };
      removeRows(table, d.rowIds, actor, batch);
      batch.push(...d.rowIds.map((rowId) => mark(recorded, table, rowId, 'deleted', null)));
      return;
    }
    case 'RowRenamed': {
      const d = event.data;
      const table = { branchId, tableKey: d.tableKey, draftSeq: d.draftSeq };
      removeRows(table, [d.rowId], actor, batch);
      batch.write(table, [d.row], actor);
      batch.push(mark(recorded, table, d.row.rowId, 'renamed', d.rowId));
      return;
    }
    case 'TableDeleted': {
      // The branch's own rows of the table leave the draft; rows it inherits stay where they are: the table's
      // tombstone (schemas projection) hides the table, and rows of an invisible table are never read.
      const d = event.data;
      batch.push(...removeFromDraft(ROWS, fieldsEqual({ branchId, tableKey: d.tableKey }), d.draftSeq));
      return;
    }
    case 'DraftReverted':
      batch.push(...restoreShared(ROWS, fieldsEqual({ branchId }), event.data.draftSeq));
      batch.push({ op: 'delete', collection: MARKS, filter: fieldsEqual({ branchId, seq: event.data.draftSeq }) });
      return;
    case 'BranchDeleted':
      // A deleted branch's revisions can never be read or branched from again; it has no child branches
      // (domain.md §3.6), so its own versions and marks are all it frees.
      batch.push({ op: 'delete', collection: ROWS, filter: fieldsEqual({ branchId: event.data.branchId }) });
      batch.push({ op: 'delete', collection: MARKS, filter: fieldsEqual({ branchId: event.data.branchId }) });
      return;
    default:
      // TableCreated/TableRenamed touch no rows (rows are keyed by the stable tableKey); commits move no version;
      // BranchCreated writes nothing: a branch reads its source's versions through its layers.
      return;
  }
}
