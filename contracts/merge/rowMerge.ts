import { jsonDeepEqual } from '../tables/jsonValue.ts';
import { hasLeaf } from './conflictIds.ts';
import { mergeData, type LeafConflict } from './dataMerge.ts';
import { holderFate, type HolderFate } from './idHolders.ts';
import type { MergeConflictKind, SideRowChange } from './mergeTypes.ts';
import type { TableWriter } from './mergeWriters.ts';
import { applyRowChoice, type Choice } from './wholeTables.ts';

type Data = Record<string, unknown>;
type Waiting = { readonly oursId: string; readonly theirsId: string; readonly finish: (fate: HolderFate) => void };

/** Records a conflict and answers how it is resolved (null: left open, ours kept). */
export type ConflictFn = (
  kind: MergeConflictKind,
  tableId: string,
  rowId: string | null,
  path: string | null,
  values: { base: unknown; ours: unknown; theirs: unknown },
) => Choice;

/**
 * The row rules of merge.md §2.2 for one table: identities paired across renames, ids taken, removals against
 * changes, and the leaf-level data merge. `oursRow` reads a row of the target draft by its table's id there; the
 * rows and `replayOurs` bring every version of a row to the result's schema.
 */
export function createRowMerger(conflict: ConflictFn, oursRow: (tableId: string, rowId: string) => Data | null) {
  function mergeRows(
    writer: TableWriter,
    oursTableId: string,
    schema: Data,
    oursRows: readonly SideRowChange[],
    theirsRows: readonly SideRowChange[],
    replayOurs: (data: Data) => Data = (data) => data,
  ): void {
    const oursByBaseRow = new Map<string, SideRowChange>();
    const oursAdded = new Map<string, SideRowChange>();
    /** Ids our changed rows now have, and base ids our changes moved away from. */
    const oursPresent = new Map<string, SideRowChange>();
    const oursGone = new Set<string>();
    for (const oc of oursRows) {
      if (oc.baseRowId === null) oursAdded.set(oc.rowId as string, oc);
      else {
        oursByBaseRow.set(oc.baseRowId, oc);
        if (oc.rowId !== oc.baseRowId) oursGone.add(oc.baseRowId);
      }
      if (oc.rowId !== null) oursPresent.set(oc.rowId, oc);
    }
    /** Rows of theirs taking an id whose holder theirs moves elsewhere. */
    const waiting: Waiting[] = [];
    const theirsByBaseRow = new Map(theirsRows.filter((row) => row.baseRowId !== null).map((row) => [row.baseRowId as string, row]));
    // Conflicts name our table (merge.md §2.4), also when theirs renamed it and the rows go to the new id.
    const tableId = oursTableId;
    const oursRowAt = (rowId: string): Data | null => {
      // Ids this merge already moved a row away from are free; ids it moved a row onto are taken.
      if (writer.state.renames.some(([from]) => from === rowId) || writer.state.deletes.has(rowId)) return null;
      if (writer.state.renames.some(([, to]) => to === rowId)) return {};
      const changed = oursPresent.get(rowId);
      if (changed !== undefined) return changed.data;
      if (oursGone.has(rowId)) return null;
      // A row of the draft no side changed, in the result's shape like the changed ones (merge.md §2.1).
      const row = oursRow(oursTableId, rowId);
      return row === null ? null : replayOurs(row);
    };

    for (const tc of theirsRows) {
      if (tc.baseRowId === null) {
        const rowId = tc.rowId as string;
        const theirs = tc.data as Data;
        const oc = oursAdded.get(rowId);
        if (oc !== undefined) {
          if (jsonDeepEqual(oc.data, theirs)) continue;
          mergeRowData(writer, tableId, rowId, undefined, oc.data as Data, theirs, schema);
          continue;
        }
        const existing = oursRowAt(rowId);
        if (existing !== null) {
          const choice = conflict('ROW_ID_TAKEN', tableId, rowId, null, { base: null, ours: existing, theirs });
          applyRowChoice(writer, choice, rowId, theirs, 'updated');
          continue;
        }
        writer.upsert(rowId, theirs, 'added');
        continue;
      }
      const baseRowId = tc.baseRowId;
      const oc = oursByBaseRow.get(baseRowId) ?? null;
      if (tc.rowId === null) {
        if (oc === null) writer.remove(baseRowId);
        else if (oc.rowId !== null) {
          const choice = conflict('ROW_REMOVED_CHANGED', tableId, oc.rowId, null, { base: tc.base, ours: oc.data, theirs: null });
          applyRowChoice(writer, choice, oc.rowId, null, 'updated');
        }
        continue;
      }
      const theirsId = tc.rowId;
      const theirs = tc.data as Data;
      if (oc !== null && oc.rowId === null) {
        const choice = conflict('ROW_REMOVED_CHANGED', tableId, theirsId, null, { base: tc.base, ours: null, theirs });
        if (takenFor(tableId, theirsId, tc.base, theirs, theirsId !== baseRowId ? oursRowAt(theirsId) : null))
          applyRowChoice(writer, choice, theirsId, theirs, 'added');
        continue;
      }
      const oursId = oc?.rowId ?? baseRowId;
      const ours = oc?.data ?? (tc.base as Data);
      const theirsRenamed = theirsId !== baseRowId;
      const oursRenamed = oursId !== baseRowId;
      // The id (§2.2): a rename on one side is taken; two renames or a taken id conflict about the id only, and
      // the data is merged leaf by leaf under whichever id the row keeps.
      let choice: Choice = null;
      let free = true;
      if (theirsRenamed && oursRenamed && theirsId !== oursId) {
        choice = conflict('ROW_RENAME', tableId, oursId, null, { base: baseRowId, ours: oursId, theirs: theirsId });
        free = takenFor(tableId, theirsId, tc.base, theirs, oursRowAt(theirsId));
      } else if (theirsRenamed && !oursRenamed) {
        const other = oursRowAt(theirsId);
        if (other === null) choice = { take: 'THEIRS', value: undefined };
        else choice = conflict('ROW_ID_TAKEN', tableId, oursId, null, { base: tc.base, ours, theirs });
      }
      if (choice?.take === 'REMOVE') {
        writer.remove(oursId);
        continue;
      }
      if (choice?.take === 'VALUE') {
        writer.upsert(oursId, choice.value as Data, 'updated');
        continue;
      }
      const finish = (fate: HolderFate | null): void => {
        let finalId = writer.state.moved.get(oursId) ?? oursId;
        if (fate !== null) {
          // The row of ours holding the id goes where theirs has it (idHolders.ts); theirs' row takes the id.
          if (fate === 'REMOVE') writer.remove(theirsId);
          if (typeof fate === 'object') writer.moveRow(theirsId, fate.back);
          if (fate !== 'STAYS') writer.renameRow(oursId, theirsId);
          if (fate !== 'STAYS') finalId = theirsId;
        }
        if (oc === null) {
          if (!jsonDeepEqual(ours, theirs)) writer.upsert(finalId, theirs, 'updated');
        } else mergeRowData(writer, tableId, finalId, tc.base as Data, ours, theirs, schema, oursId);
      };
      if (choice?.take !== 'THEIRS' || !free) {
        finish(null);
        continue;
      }
      const fate = holderFate(theirsId, oursPresent, oursGone, theirsByBaseRow, oursRowAt);
      // Theirs moves the holder away itself: that row's own merge decides whether it goes (a resolution OURS keeps it).
      if (fate !== 'NONE' || oursRowAt(theirsId) === null) finish(fate);
      else waiting.push({ oursId, theirsId, finish });
    }
    // Rows waiting for the holder of their new id, which theirs moves elsewhere: they take the id when the holder's
    // own merge moved it, or moves it now (it waits too; a cycle of them all move), and otherwise stay.
    const waitingAt = new Map(waiting.map((w) => [w.oursId, w]));
    const moves = new Map<Waiting, boolean>();
    const movesOn = (w: Waiting, path: Set<Waiting>): boolean => {
      const known = moves.get(w);
      if (known !== undefined) return known;
      const holder = waitingAt.get(w.theirsId);
      path.add(w);
      const result = oursRowAt(w.theirsId) === null || (holder !== undefined && (path.has(holder) || movesOn(holder, path)));
      moves.set(w, result);
      return result;
    };
    for (const w of waiting) movesOn(w, new Set());
    for (const w of waiting) w.finish(moves.get(w) === true ? 'NONE' : 'STAYS');
  }

  /**
   * Theirs moves a row onto `rowId`, which another row of ours holds (`other`): that is a ROW_ID_TAKEN conflict
   * too, and theirs' row may be written only when it is resolved for theirs.
   */
  function takenFor(tableId: string, rowId: string, base: Data | null, theirs: Data, other: Data | null): boolean {
    if (other === null) return true;
    const choice = conflict('ROW_ID_TAKEN', tableId, rowId, null, { base, ours: other, theirs });
    return choice !== null && choice.take !== 'OURS';
  }

  function mergeRowData(
    writer: TableWriter,
    oursTableId: string,
    rowId: string,
    base: Data | undefined,
    ours: Data,
    theirs: Data,
    schema: Data,
    conflictRowId = rowId,
  ): void {
    const merged = mergeData(
      base,
      ours,
      theirs,
      (leaf: LeafConflict) => {
        const choice = conflict('ROW_UPDATE', oursTableId, conflictRowId, leaf.path, { base: leaf.base, ours: leaf.ours, theirs: leaf.theirs });
        if (choice === null) return null;
        if (choice.take === 'OURS') return { value: leaf.ours === null && !hasLeaf(ours, leaf.path) ? undefined : leaf.ours };
        if (choice.take === 'THEIRS') return { value: leaf.theirs === null && !hasLeaf(theirs, leaf.path) ? undefined : leaf.theirs };
        return { value: choice.value };
      },
      schema,
    );
    if (!jsonDeepEqual(merged.data, ours)) writer.upsert(rowId, merged.data, 'updated');
  }

  return { mergeRows };
}
