import { invariant } from '../../contracts/index.ts';
import type { DomainEvent, RowWrite, TableFacts } from '../../contracts/index.ts';
import type { BranchContent, RowRecord, TableOverlay } from './branchContent.ts';

/**
 * Where an event sits: its stream revision and its time (`metadata.time`). With `undo`, every in-place change is
 * recorded there as a function taking it back (run them last first): a speculative fold of events that were then
 * not appended is undone in O(changes) instead of folding the branch again.
 */
export type EventPlace = { readonly revision: number; readonly time: string; readonly undo?: UndoLog };

/** Functions taking back in-place changes, in the order the changes were made. */
export type UndoLog = (() => void)[];

/** Takes back every change recorded in `undo`, last first, and empties it. */
export function undoChanges(undo: UndoLog): void {
  for (let i = undo.length - 1; i >= 0; i--) undo[i]?.();
  undo.length = 0;
}

function mapSet<K, V>(undo: UndoLog | undefined, map: Map<K, V>, key: K, value: V): void {
  if (undo) {
    const had = map.has(key);
    const previous = map.get(key);
    undo.push(had ? () => void map.set(key, previous as V) : () => void map.delete(key));
  }
  map.set(key, value);
}

function mapDelete<K, V>(undo: UndoLog | undefined, map: Map<K, V>, key: K): void {
  if (undo && map.has(key)) {
    const previous = map.get(key) as V;
    undo.push(() => void map.set(key, previous));
  }
  map.delete(key);
}

function mapClear<K, V>(undo: UndoLog | undefined, map: Map<K, V>): void {
  if (undo && map.size > 0) {
    const entries = [...map];
    undo.push(() => {
      map.clear();
      for (const [key, value] of entries) map.set(key, value);
    });
  }
  map.clear();
}

function assign<T extends object, K extends keyof T>(undo: UndoLog | undefined, target: T, key: K, value: T[K]): void {
  if (undo) {
    const previous = target[key];
    undo.push(() => {
      target[key] = previous;
    });
  }
  target[key] = value;
}

/** The draft overlay of a table, opened from HEAD on its first change. */
function overlayOf(state: BranchContent, tableKey: string, undo: UndoLog | undefined): TableOverlay {
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
  mapSet(undo, state.draft, tableKey, overlay);
  return overlay;
}

function applyRowWrites(overlay: TableOverlay, rows: readonly RowWrite[], undo: UndoLog | undefined): void {
  for (const row of rows) {
    if (row.restored === true) mapDelete(undo, overlay.rows, row.rowId);
    else mapSet(undo, overlay.rows, row.rowId, { data: row.data, createdAt: row.createdAt, updatedAt: row.updatedAt });
  }
}

function removeRow(state: BranchContent, overlay: TableOverlay, rowId: string, undo: UndoLog | undefined): void {
  if (state.head.get(overlay.tableKey)?.rows.has(rowId)) mapSet(undo, overlay.rows, rowId, null);
  else mapDelete(undo, overlay.rows, rowId);
}

/** Applies the facts the decider derived: count, and dropping an overlay equal to HEAD again. */
function applyFacts(state: BranchContent, overlay: TableOverlay, facts: TableFacts, undo: UndoLog | undefined): void {
  assign(undo, overlay, 'count', facts.count);
  if (facts.equalsHead) mapDelete(undo, state.draft, overlay.tableKey);
}

/** Rebuilds the table id index from HEAD (after a revert or on creation). */
export function resetDraftIds(state: BranchContent, undo?: UndoLog): void {
  mapClear(undo, state.draftIds);
  // The clear's undo restores the whole index: the sets below need no record of their own.
  for (const table of state.head.values()) state.draftIds.set(table.tableId, table.tableKey);
}

/** Merges the draft overlay into HEAD in place: O(changed tables + changed rows). */
function mergeDraftIntoHead(state: BranchContent, undo: UndoLog | undefined): void {
  for (const [tableKey, overlay] of state.draft) {
    if (overlay === null) {
      mapDelete(undo, state.head, tableKey);
      continue;
    }
    const head = state.head.get(tableKey);
    if (!head) {
      // A table created in the draft: its overlay holds exactly its rows.
      const rows = new Map<string, RowRecord>();
      for (const [rowId, row] of overlay.rows) if (row !== null) rows.set(rowId, row);
      mapSet(undo, state.head, tableKey, {
        tableKey,
        tableId: overlay.tableId,
        schema: overlay.schema,
        createdAt: overlay.createdAt,
        updatedAt: overlay.updatedAt,
        rows,
      });
      continue;
    }
    assign(undo, head, 'tableId', overlay.tableId);
    assign(undo, head, 'schema', overlay.schema);
    assign(undo, head, 'updatedAt', overlay.updatedAt);
    for (const [rowId, row] of overlay.rows) {
      if (row === null) mapDelete(undo, head.rows, rowId);
      else mapSet(undo, head.rows, rowId, row);
    }
  }
  mapClear(undo, state.draft);
}

/**
 * Folds one `branch-{id}` event into the content state, in place. Events at or before `streamRevision` are
 * ignored (a local apply and a catch-up may both see an event). Unknown events only move the revision.
 */
export function evolveBranchContent(state: BranchContent, event: DomainEvent, place: EventPlace): BranchContent {
  if (state.streamRevision !== null && place.revision <= state.streamRevision) return state;
  const { undo } = place;
  assign(undo, state, 'streamRevision', place.revision);
  switch (event.type) {
    case 'TableCreated': {
      const d = event.data;
      mapSet(undo, state.draft, d.tableKey, {
        tableKey: d.tableKey,
        tableId: d.tableId,
        schema: d.schema,
        createdAt: place.time,
        updatedAt: place.time,
        rows: new Map(),
        count: d.table.count,
      });
      mapSet(undo, state.draftIds, d.tableId, d.tableKey);
      break;
    }
    case 'TableSchemaUpdated': {
      const d = event.data;
      const overlay = overlayOf(state, d.tableKey, undo);
      assign(undo, overlay, 'schema', d.schema);
      assign(undo, overlay, 'updatedAt', place.time);
      applyRowWrites(overlay, d.rows, undo);
      applyFacts(state, overlay, d.table, undo);
      break;
    }
    case 'TableRenamed': {
      const d = event.data;
      const overlay = overlayOf(state, d.tableKey, undo);
      mapDelete(undo, state.draftIds, overlay.tableId);
      mapSet(undo, state.draftIds, d.tableId, d.tableKey);
      assign(undo, overlay, 'tableId', d.tableId);
      assign(undo, overlay, 'updatedAt', place.time);
      applyFacts(state, overlay, d.table, undo);
      for (const rewrite of d.schemaRewrites) {
        const other = overlayOf(state, rewrite.tableKey, undo);
        assign(undo, other, 'schema', rewrite.schema);
        assign(undo, other, 'updatedAt', place.time);
        applyFacts(state, other, rewrite.table, undo);
      }
      break;
    }
    case 'TableDeleted': {
      const d = event.data;
      mapDelete(undo, state.draftIds, d.tableId);
      if (state.head.has(d.tableKey)) mapSet(undo, state.draft, d.tableKey, null);
      else mapDelete(undo, state.draft, d.tableKey);
      break;
    }
    case 'RowsCreated':
    case 'RowsUpdated': {
      const d = event.data;
      const overlay = overlayOf(state, d.tableKey, undo);
      applyRowWrites(overlay, d.rows, undo);
      applyFacts(state, overlay, d.table, undo);
      break;
    }
    case 'RowsDeleted': {
      const d = event.data;
      const overlay = overlayOf(state, d.tableKey, undo);
      for (const rowId of d.rowIds) removeRow(state, overlay, rowId, undo);
      applyFacts(state, overlay, d.table, undo);
      break;
    }
    case 'RowRenamed': {
      const d = event.data;
      const overlay = overlayOf(state, d.tableKey, undo);
      removeRow(state, overlay, d.rowId, undo);
      applyRowWrites(overlay, [d.row], undo);
      applyFacts(state, overlay, d.table, undo);
      break;
    }
    case 'RevisionCommitted': {
      const d = event.data;
      mergeDraftIntoHead(state, undo);
      assign(undo, state, 'headSeq', d.seq);
      assign(undo, state, 'headRevisionId', d.revisionId);
      assign(undo, state, 'draftRevisionId', d.newDraftRevisionId);
      break;
    }
    case 'DraftReverted':
      mapClear(undo, state.draft);
      resetDraftIds(state, undo);
      break;
    default:
      break;
  }
  return state;
}
