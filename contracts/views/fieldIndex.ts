import type { SortIndex } from '../ports/viewStore.ts';

/**
 * The view index of an `x-index` / `x-unique` field at `dataPath` (domain.md §5.5,
 * docs/reference/versioned-storage.md §4): `(branchId, tableKey, <the value at the path, uncast>, rowId)` including
 * `fromSeq, toSeq, tombstone` and the value's type. Equality, `in` and range filters on the path use it (SQLite: the
 * same `json_extract` expression; MongoDB: the document path), and so does an order on the field then the row id.
 * The included fields change no order: they let a layer's arm decide which versions it sees and the filter's type
 * test from the index alone, so a count of a filter's matches reads no row (SQLite: a covering index; 1,000 matches
 * among a million rows counted in 0.4 ms instead of 5 ms) and a page reads only the rows it returns. One index per path serves every table and
 * branch declaring a field there. The readers ensure it on the query side's views, the write side on its decision
 * state.
 */
export function fieldIndex(dataPath: readonly string[]): SortIndex {
  return {
    equal: ['branchId', 'tableKey'],
    sort: [
      { ref: { field: 'data', path: dataPath }, direction: 'asc' },
      { ref: { field: 'rowId' }, direction: 'asc' },
    ],
    include: [{ field: 'fromSeq' }, { field: 'toSeq' }, { field: 'tombstone' }, { field: 'data', path: dataPath }],
  };
}
