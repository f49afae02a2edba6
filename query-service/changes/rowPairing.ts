import { jsonDeepEqual } from '../../contracts/index.ts';
import type { ViewDoc } from '../../contracts/index.ts';

export type RowChangeKind = 'ADDED' | 'UPDATED' | 'REMOVED' | 'RENAMED';

/** A rename or deletion of a row (a `row_marks` document, contracts/views/viewSpecs.ts). */
export type RowMark = {
  readonly seq: number;
  readonly position: string;
  readonly kind: 'renamed' | 'deleted';
  readonly rowId: string;
  readonly previousRowId: string | null;
};

/** One changed row: its version in the base and in the target (row version documents of the `rows` view). */
export type PairedRow = {
  readonly rowId: string;
  readonly previousRowId: string | null;
  readonly change: RowChangeKind;
  readonly before: ViewDoc | null;
  readonly after: ViewDoc | null;
};

/**
 * The changed rows of one table between base and target (changes.md §1.2), from the versions of the candidate ids
 * visible on each side. Rows are the same row when their ids are equal (domain.md §4: a row deleted and created
 * again with equal data is unchanged) or when the renames between the two revisions lead from the base id to the
 * target id: back along `toBase` (newest first) to the common ancestor, then forward along `toTarget` (oldest first).
 * A deletion on the way ends the trail.
 */
export function pairRows(
  base: ReadonlyMap<string, ViewDoc>,
  target: ReadonlyMap<string, ViewDoc>,
  marks: { readonly toBase: readonly RowMark[]; readonly toTarget: readonly RowMark[] },
): PairedRow[] {
  const out: PairedRow[] = [];
  const added = new Set<string>();
  for (const [rowId, after] of target) {
    const before = base.get(rowId);
    if (before === undefined) added.add(rowId);
    else if (!jsonDeepEqual(before.data, after.data)) out.push({ rowId, previousRowId: null, change: 'UPDATED', before, after });
  }
  for (const [rowId, before] of base) {
    if (target.has(rowId)) continue;
    const renamedTo = trail(rowId, marks.toBase, marks.toTarget);
    if (renamedTo !== null && added.has(renamedTo)) {
      added.delete(renamedTo);
      out.push({ rowId: renamedTo, previousRowId: rowId, change: 'RENAMED', before, after: target.get(renamedTo) ?? null });
    } else {
      out.push({ rowId, previousRowId: null, change: 'REMOVED', before, after: null });
    }
  }
  for (const rowId of added) out.push({ rowId, previousRowId: null, change: 'ADDED', before: null, after: target.get(rowId) ?? null });
  return out.sort((a, b) => (a.rowId < b.rowId ? -1 : a.rowId > b.rowId ? 1 : 0));
}

/** The id in the target of the base row `rowId`, following renames; null when it was created or deleted on the way. */
function trail(rowId: string, toBase: readonly RowMark[], toTarget: readonly RowMark[]): string | null {
  let current = rowId;
  for (const mark of toBase) {
    if (mark.rowId !== current) continue;
    if (mark.kind === 'deleted' || mark.previousRowId === null) return null;
    current = mark.previousRowId;
  }
  for (const mark of toTarget) {
    if (mark.kind === 'deleted') {
      if (mark.rowId === current) return null;
    } else if (mark.previousRowId === current) {
      current = mark.rowId;
    }
  }
  return current;
}

/** Marks in the order they were applied (sequence, then log position). */
export function chronological(marks: readonly RowMark[]): RowMark[] {
  return [...marks].sort((a, b) => a.seq - b.seq || (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
}
