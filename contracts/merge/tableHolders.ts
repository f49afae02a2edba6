import type { SideTableChange } from './mergeTypes.ts';

/**
 * The tables of ours that the merge moves off their ids without a conflict (merge.md §2.1): ours left the table's id
 * as in the base, and theirs renamed it (or removed it while ours left it unchanged). Their ids are free for a
 * rename or an addition of theirs, so a swap or a cycle of table renames on their side is taken as it is, like a
 * swap of row renames (idHolders.ts). A holder whose own new id is held by a table that stays is not free (that
 * rename is itself a `TABLE_ID_TAKEN`): the set is the largest one in which every move lands on a free id, which
 * keeps whole cycles.
 */
export function tablesMovingAway(
  oursTableIds: ReadonlySet<string>,
  oursByBase: ReadonlyMap<string, SideTableChange>,
  theirsByBase: ReadonlyMap<string, SideTableChange>,
): ReadonlySet<string> {
  const moving = new Set<string>();
  for (const id of oursTableIds) {
    const ours = oursByBase.get(id);
    const theirs = theirsByBase.get(id);
    if (theirs === undefined || theirs.tableId === id || (ours !== undefined && ours.tableId !== id)) continue;
    if (theirs.tableId === null && ours !== undefined) continue;
    moving.add(id);
  }
  for (let changed = true; changed;) {
    changed = false;
    for (const id of moving) {
      const target = theirsByBase.get(id)?.tableId ?? null;
      if (target !== null && oursTableIds.has(target) && !moving.has(target)) {
        moving.delete(id);
        changed = true;
      }
    }
  }
  return moving;
}
