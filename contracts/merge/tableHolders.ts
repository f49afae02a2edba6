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

/**
 * A `TABLE_ID_TAKEN` resolved THEIRS: `id` goes to theirs' table. `incoming` is our id of the table theirs renames
 * onto it, null when theirs' table is created there (theirs added it, or ours removed it and theirs brings it back).
 */
export type TableClaim = { readonly id: string; readonly incoming: string | null };

/**
 * What becomes of our table holding a claimed id (merge.md §2.4: THEIRS takes the table as on that side), as for a
 * row holding a claimed row id (idHolders.ts):
 * - `FREE`: the holder's own merge moves it away (or nothing holds the id any more);
 * - `REPLACE`: the holder leaves the result (theirs removed it, or only ours has it);
 * - `{ back }`: ours renamed the holder onto the id and theirs keeps it under its base id: it goes back there;
 * - `STAYS`: as `back`, but that id is taken in the result (or theirs moved the holder and its own merge did not
 *   follow): the holder keeps the id and theirs' table stays under our id, so no table is lost. A table theirs
 *   creates there (added, or brought back after our removal) has no id of ours: it stays out of the result, rather
 *   than the holder, a table both sides kept, being dropped with its rows.
 */
export type ClaimOutcome = 'FREE' | 'REPLACE' | 'STAYS' | { readonly back: string };

export type TableNames = {
  readonly oursTableIds: ReadonlySet<string>;
  readonly oursByBase: ReadonlyMap<string, SideTableChange>;
  readonly oursAddedById: ReadonlyMap<string, SideTableChange>;
  readonly theirsByBase: ReadonlyMap<string, SideTableChange>;
  /** Our table id → its id in the result, for the tables the merge names; a claim that stays resets its incoming. */
  readonly finalIds: Map<string, string>;
  /** Our table ids the merge drops. */
  readonly deleted: ReadonlySet<string>;
  /** Ids where theirs' tables are created without a claim. */
  readonly created: ReadonlySet<string>;
};

/** The outcome of every claim, by claimed id. A claim that stays can keep another from freeing its id: to a fixpoint. */
export function settleClaims(claims: readonly TableClaim[], names: TableNames): Map<string, ClaimOutcome> {
  const { oursTableIds, oursByBase, oursAddedById, theirsByBase, finalIds, deleted, created } = names;
  const claimed = new Set(claims.map((claim) => claim.id));
  const baseOf = new Map([...oursByBase].filter(([, t]) => t.tableId !== null).map(([base, t]) => [t.tableId as string, base]));
  const finalOf = (id: string) => finalIds.get(id) ?? id;
  const occupied = (id: string, holder: string) =>
    claimed.has(id) ||
    created.has(id) ||
    [...finalIds].some(([ours, final]) => final === id && ours !== holder) ||
    (oursTableIds.has(id) && !deleted.has(id) && finalOf(id) === id);
  const fate = ({ id }: TableClaim): ClaimOutcome => {
    if (deleted.has(id)) return 'REPLACE';
    if (!oursTableIds.has(id) || finalOf(id) !== id) return 'FREE';
    // The holder's base id: a table ours renamed or changed, one ours left alone, or null for one ours added.
    const base = baseOf.get(id) ?? (oursAddedById.has(id) ? null : id);
    const theirs = base === null ? undefined : theirsByBase.get(base);
    const back = theirs === undefined ? base : theirs.tableId;
    if (base === null || back === null || back === id) return 'REPLACE';
    return back === base && !occupied(back, id) ? { back } : 'STAYS';
  };
  const outcomes = new Map<string, ClaimOutcome>();
  for (let changed = true; changed;) {
    changed = false;
    for (const claim of claims) {
      if (outcomes.get(claim.id) === 'STAYS') continue;
      const outcome = fate(claim);
      outcomes.set(claim.id, outcome);
      if (outcome === 'STAYS' && claim.incoming !== null) {
        finalIds.set(claim.incoming, claim.incoming);
        changed = true;
      }
    }
  }
  return outcomes;
}
