import { invariant } from '../../contracts/index.ts';
import type { DomainEvent, RowWrite, TableFacts } from '../../contracts/index.ts';
import { resetDraftIds, type BranchContent, type RowRecord, type TableOverlay } from './branchContent.ts';

/** Where an event sits: its stream revision and its time (`metadata.time`). */
export type EventPlace = { readonly revision: number; readonly time: string };

/** The draft overlay of a table, opened from HEAD on its first change. */
function overlayOf(state: BranchContent, tableKey: string): TableOverlay {
  const existing = state.draft.get(tableKey);
  if (existing) return existing;
  invariant(existing === undefined, `table ${tableKey} is deleted in the draft`);
  const head = state.head.get(tableKey);
  invariant(head, `table ${tableKey} is unknown`);
  const overlay: TableOverlay = {
    tableKey,
    tableId: head.tableId,
    schema: head.schema,
    createdAt: head.createdAt,
    updatedAt: head.updatedAt,
    rows: new Map(),
    count: head.rows.size,
  };
  state.draft.set(tableKey, overlay);
  return overlay;
}

function applyRowWrites(overlay: TableOverlay, rows: readonly RowWrite[]): void {
  for (const row of rows) {
    if (row.restored === true) overlay.rows.delete(row.rowId);
    else overlay.rows.set(row.rowId, { data: row.data, createdAt: row.createdAt, updatedAt: row.updatedAt });
  }
}

function removeRow(state: BranchContent, overlay: TableOverlay, rowId: string): void {
  if (state.head.get(overlay.tableKey)?.rows.has(rowId)) overlay.rows.set(rowId, null);
  else overlay.rows.delete(rowId);
}

/** Applies the facts the decider derived: count, and dropping an overlay equal to HEAD again. */
function applyFacts(state: BranchContent, overlay: TableOverlay, facts: TableFacts): void {
  overlay.count = facts.count;
  if (facts.equalsHead) state.draft.delete(overlay.tableKey);
}

/** Merges the draft overlay into HEAD in place: O(changed tables + changed rows). */
function mergeDraftIntoHead(state: BranchContent): void {
  for (const [tableKey, overlay] of state.draft) {
    if (overlay === null) {
      state.head.delete(tableKey);
      continue;
    }
    const head = state.head.get(tableKey);
    if (!head) {
      // A table created in the draft: its overlay holds exactly its rows.
      const rows = new Map<string, RowRecord>();
      for (const [rowId, row] of overlay.rows) if (row !== null) rows.set(rowId, row);
      state.head.set(tableKey, {
        tableKey,
        tableId: overlay.tableId,
        schema: overlay.schema,
        createdAt: overlay.createdAt,
        updatedAt: overlay.updatedAt,
        rows,
      });
      continue;
    }
    head.tableId = overlay.tableId;
    head.schema = overlay.schema;
    head.updatedAt = overlay.updatedAt;
    for (const [rowId, row] of overlay.rows) {
      if (row === null) head.rows.delete(rowId);
      else head.rows.set(rowId, row);
    }
  }
  state.draft.clear();
}

/**
 * Folds one `branch-{id}` event into the content state, in place. Events at or before `streamRevision` are
 * ignored (a local apply and a catch-up may both see an event). Unknown events only move the revision.
 */
export function evolveBranchContent(state: BranchContent, event: DomainEvent, place: EventPlace): BranchContent {
  if (state.streamRevision !== null && place.revision <= state.streamRevision) return state;
  state.streamRevision = place.revision;
  switch (event.type) {
    case 'TableCreated': {
      const d = event.data;
      state.draft.set(d.tableKey, {
        tableKey: d.tableKey,
        tableId: d.tableId,
        schema: d.schema,
        createdAt: place.time,
        updatedAt: place.time,
        rows: new Map(),
        count: d.table.count,
      });
      state.draftIds.set(d.tableId, d.tableKey);
      break;
    }
    case 'TableSchemaUpdated': {
      const d = event.data;
      const overlay = overlayOf(state, d.tableKey);
      overlay.schema = d.schema;
      overlay.updatedAt = place.time;
      applyRowWrites(overlay, d.rows);
      applyFacts(state, overlay, d.table);
      break;
    }
    case 'TableRenamed': {
      const d = event.data;
      const overlay = overlayOf(state, d.tableKey);
      state.draftIds.delete(overlay.tableId);
      state.draftIds.set(d.tableId, d.tableKey);
      overlay.tableId = d.tableId;
      overlay.updatedAt = place.time;
      applyFacts(state, overlay, d.table);
      for (const rewrite of d.schemaRewrites) {
        const other = overlayOf(state, rewrite.tableKey);
        other.schema = rewrite.schema;
        other.updatedAt = place.time;
        applyFacts(state, other, rewrite.table);
      }
      break;
    }
    case 'TableDeleted': {
      const d = event.data;
      state.draftIds.delete(d.tableId);
      if (state.head.has(d.tableKey)) state.draft.set(d.tableKey, null);
      else state.draft.delete(d.tableKey);
      break;
    }
    case 'RowsCreated':
    case 'RowsUpdated': {
      const d = event.data;
      const overlay = overlayOf(state, d.tableKey);
      applyRowWrites(overlay, d.rows);
      applyFacts(state, overlay, d.table);
      break;
    }
    case 'RowsDeleted': {
      const d = event.data;
      const overlay = overlayOf(state, d.tableKey);
      for (const rowId of d.rowIds) removeRow(state, overlay, rowId);
      applyFacts(state, overlay, d.table);
      break;
    }
    case 'RowRenamed': {
      const d = event.data;
      const overlay = overlayOf(state, d.tableKey);
      removeRow(state, overlay, d.rowId);
      applyRowWrites(overlay, [d.row]);
      applyFacts(state, overlay, d.table);
      break;
    }
    case 'RevisionCommitted': {
      const d = event.data;
      mergeDraftIntoHead(state);
      state.headSeq = d.seq;
      state.headRevisionId = d.revisionId;
      state.draftRevisionId = d.newDraftRevisionId;
      break;
    }
    case 'DraftReverted':
      state.draft.clear();
      resetDraftIds(state);
      break;
    default:
      break;
  }
  return state;
}
