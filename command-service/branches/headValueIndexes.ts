import { uniqueValueAt, uniqueValueKey } from '../domain/rows/uniqueClashes.ts';
import type { RowRecord, TableRecord } from './branchContent.ts';
import { FactRows } from './factRows.ts';

/** The key of a value in a ValueIndex (uniqueClashes.ts). */
export const valueKey = uniqueValueKey;

/** Values of one field -> the rows holding them. */
export type ValueIndex = Map<string, string[]>;

export function indexRows(rows: Iterable<readonly [string, RowRecord | null]>, dataPath: readonly string[]): ValueIndex {
  const values: ValueIndex = new Map();
  for (const [rowId, row] of rows) {
    if (row === null) continue;
    const held = uniqueValueAt(row.data, dataPath);
    if (held === null) continue;
    const key = valueKey(held);
    const ids = values.get(key);
    if (ids === undefined) values.set(key, [rowId]);
    else ids.push(rowId);
  }
  return values;
}

/**
 * Value indexes of HEAD tables, per field path (BranchDeciderTools.headValues, one per command service). HEAD changes
 * only when a commit merges the draft into it, and every commit has a new revision id, so an index built under one
 * HEAD revision id stays true while the state shows it (also when a folded commit is taken back: the id and the rows
 * go back together).
 */
export type HeadValueIndexes = {
  /** The index of `dataPath` over the rows of `head`, as of HEAD revision `headRevisionId`. */
  of(head: TableRecord, headRevisionId: string, dataPath: readonly string[]): ValueIndex;
};

export function createHeadValueIndexes(): HeadValueIndexes {
  const byTable = new WeakMap<TableRecord, { revisionId: string; byPath: Map<string, ValueIndex> }>();
  return {
    of(head, headRevisionId, dataPath) {
      let entry = byTable.get(head);
      if (entry === undefined || entry.revisionId !== headRevisionId) {
        entry = { revisionId: headRevisionId, byPath: new Map() };
        byTable.set(head, entry);
      }
      // HEAD rows not gathered whole yet (a decision on the durable state): the index of what is known serves this
      // round only; iterating recorded the miss, and the next round, on the whole table, builds the one kept.
      if (head.rows instanceof FactRows && !head.rows.complete) return indexRows(head.rows, dataPath);
      const pathKey = JSON.stringify(dataPath);
      let values = entry.byPath.get(pathKey);
      if (values === undefined) {
        values = indexRows(head.rows, dataPath);
        entry.byPath.set(pathKey, values);
      }
      return values;
    },
  };
}
