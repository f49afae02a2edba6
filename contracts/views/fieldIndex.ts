import type { SortIndex } from '../ports/viewStore.ts';

/**
 * The view index of an `x-index` / `x-unique` field at `dataPath` (domain.md §5.5,
 * docs/reference/versioned-storage.md §4): `(branchId, tableKey, <the value at the path, uncast>, rowId)`. Equality,
 * `in` and range filters on the path use it (SQLite: the same `json_extract` expression; MongoDB: the document path),
 * and so does an order on the field then the row id. One index per path serves every table and branch declaring a
 * field there. The readers ensure it on the query side's views, the write side on its decision state.
 */
export function fieldIndex(dataPath: readonly string[]): SortIndex {
  return {
    equal: ['branchId', 'tableKey'],
    sort: [
      { ref: { field: 'data', path: dataPath }, direction: 'asc' },
      { ref: { field: 'rowId' }, direction: 'asc' },
    ],
  };
}
