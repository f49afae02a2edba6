import { jsonDeepEqual } from '../../contracts/index.ts';
import type { JsonObject, RowWrite, TableFacts } from '../../contracts/index.ts';
import { draftRow, type DraftTable, type RowRecord } from './branchContent.ts';

type Pending = {
  /** The draft row after the change, or null when deleted. */
  readonly after: RowRecord | null;
  /** Whether the overlay holds an entry for the row afterwards (a change against HEAD). */
  readonly inOverlay: boolean;
};

/**
 * Row changes to one draft table within one decision, not yet applied to the state: reads see them, and the
 * derived facts (RowWrite.restored, TableFacts) describe the table after all of them, exactly as evolve applies them.
 */
export type TableEdit = {
  readonly table: DraftTable;
  /** The row as the decision sees it so far, or null. */
  row(rowId: string): RowRecord | null;
  /** Writes a row; `restored` when it equals the HEAD row with the same id. */
  write(rowId: string, data: JsonObject, createdAt: string, updatedAt: string): RowWrite;
  remove(rowId: string): void;
  /** The table after the edit; `next` overrides the id or schema the event sets. */
  facts(next?: { readonly tableId?: string; readonly schema?: JsonObject }): TableFacts;
  /** Row ids changed so far, in first-change order. */
  changedRowIds(): string[];
};

export function sameSchema(a: JsonObject, b: JsonObject): boolean {
  return a === b || jsonDeepEqual(a, b);
}

export function createTableEdit(table: DraftTable): TableEdit {
  const pending = new Map<string, Pending>();

  function row(rowId: string): RowRecord | null {
    const changed = pending.get(rowId);
    return changed !== undefined ? changed.after : draftRow(table, rowId);
  }

  return {
    table,
    row,
    write(rowId, data, createdAt, updatedAt) {
      const headRow = table.head?.rows.get(rowId);
      if (headRow && jsonDeepEqual(headRow.data, data)) {
        pending.set(rowId, { after: headRow, inOverlay: false });
        return { rowId, restored: true };
      }
      pending.set(rowId, { after: { data, createdAt, updatedAt }, inOverlay: true });
      return { rowId, data, createdAt, updatedAt };
    },
    remove(rowId) {
      pending.set(rowId, { after: null, inOverlay: table.head?.rows.has(rowId) ?? false });
    },
    facts(next = {}) {
      let count = table.count;
      // Whether no change of this edit leaves an overlay entry (each then equals its HEAD row, or is gone from both).
      let noneInOverlay = true;
      for (const [rowId, change] of pending) {
        const existed = draftRow(table, rowId) !== null;
        count += (change.after !== null ? 1 : 0) - (existed ? 1 : 0);
        if (change.inOverlay) noneInOverlay = false;
      }
      const { head, overlay } = table;
      // The overlay is read last, and only when everything else says "equal": with rows gathered on demand
      // (factRows.ts) listing a draft's changes is the one costly fact here.
      const equalsHead =
        head !== null &&
        noneInOverlay &&
        (next.tableId ?? table.tableId) === head.tableId &&
        sameSchema(next.schema ?? table.schema, head.schema) &&
        (overlay === null || [...overlay.rows.keys()].every((rowId) => pending.has(rowId)));
      return { tableKey: table.tableKey, count, equalsHead };
    },
    changedRowIds() {
      return [...pending.keys()];
    },
  };
}
