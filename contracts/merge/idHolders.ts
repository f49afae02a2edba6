import type { SideRowChange } from './mergeTypes.ts';

/**
 * What becomes of the row of ours holding `rowId` when a resolution THEIRS gives that id to a row of theirs
 * (merge.md §2.4: THEIRS takes the rows as on that side):
 * - `NONE`: no row of ours holds it, or theirs moves the holder elsewhere itself (that row's own merge moves it; the
 *   merge of rows waits for it, and the row claiming the id stays under our id when the holder keeps it);
 * - `REMOVE`: the holder leaves the result (theirs removed it, or only ours has it);
 * - `{ back }`: ours renamed the holder onto the id and theirs keeps it under its old id: it goes back there;
 * - `STAYS`: as `back`, but ours has another row under that old id: the holder keeps the id and theirs' row stays
 *   under our id, so no row is lost.
 */
export type HolderFate = 'NONE' | 'REMOVE' | 'STAYS' | { readonly back: string };

export function holderFate(
  rowId: string,
  oursPresent: ReadonlyMap<string, SideRowChange>,
  oursGone: ReadonlySet<string>,
  theirsByBaseRow: ReadonlyMap<string, SideRowChange>,
  oursRowAt: (rowId: string) => unknown,
): HolderFate {
  if (oursRowAt(rowId) === null) return 'NONE';
  // The holder's base id (a row ours changed or left alone), or null for a row ours added.
  const holder = oursPresent.has(rowId) ? (oursPresent.get(rowId)?.baseRowId ?? null) : oursGone.has(rowId) ? null : rowId;
  if (holder === null) return 'REMOVE';
  const moved = theirsByBaseRow.get(holder)?.rowId;
  if (moved === null) return 'REMOVE';
  if (moved !== undefined && moved !== holder && moved !== rowId) return 'NONE';
  if (holder === rowId) return 'REMOVE';
  return oursRowAt(holder) === null ? { back: holder } : 'STAYS';
}
