// One merge of the merge-law model, computed like the merge service computes it (query-service's mergeService and
// mergeSides): the base from the revision graph (mergeBaseOf), both diffs since the base, the draft rows under the
// ids theirs adds or renames to, then threeWayMerge with a strategy or resolutions.
import type { DraftOperation } from '../commands/draftChanges.ts';
import type { MergeResolution, MergeStrategy, SideTableChange, ThreeWayMergeResult } from '../merge/mergeTypes.ts';
import { threeWayMerge } from '../merge/threeWayMerge.ts';
import { applyDraftOperations, type Content, type RowMark } from './mergeContent.ts';

/** A merge's three contents and two change sets (base → ours, base → theirs). */
export type MergeCase = {
  readonly ids: { readonly source: string; readonly base: string };
  readonly base: Content;
  readonly ours: Content;
  readonly theirs: Content;
  readonly oursChanges: readonly SideTableChange[];
  readonly theirsChanges: readonly SideTableChange[];
};

/** The sides swapped: the merge B → A of a merge A → B. */
export const mirrored = (c: MergeCase): MergeCase => ({
  ...c,
  ours: c.theirs,
  theirs: c.ours,
  oursChanges: c.theirsChanges,
  theirsChanges: c.oursChanges,
});

/** Nothing changed on one side since the base. */
export const withoutOurs = (c: MergeCase): MergeCase => ({ ...c, ours: c.base, oursChanges: [] });
export const withoutTheirs = (c: MergeCase): MergeCase => ({ ...c, theirs: c.base, theirsChanges: [] });

/** The draft rows the merge service reads (mergeSides' collisionRows): under ids theirs adds or renames to. */
function collisionRows(c: MergeCase): Map<string, Set<string>> {
  const oursIdOf = new Map(c.oursChanges.filter((t) => t.baseTableId !== null).map((t) => [t.baseTableId as string, t.tableId]));
  const out = new Map<string, Set<string>>();
  for (const table of c.theirsChanges) {
    const oursId = table.baseTableId === null ? table.tableId : oursIdOf.has(table.baseTableId) ? oursIdOf.get(table.baseTableId) : table.baseTableId;
    if (oursId === null || oursId === undefined || !c.ours.has(oursId)) continue;
    const ids = table.rows.filter((row) => row.rowId !== null && row.rowId !== row.baseRowId).map((row) => row.rowId as string);
    if (ids.length > 0) out.set(oursId, new Set(ids));
  }
  return out;
}

export function runMerge(c: MergeCase, strategy: MergeStrategy, resolutions: readonly MergeResolution[] = []): ThreeWayMergeResult {
  const readable = collisionRows(c);
  return threeWayMerge({
    sourceRevisionId: c.ids.source,
    baseRevisionId: c.ids.base,
    ours: c.oursChanges,
    theirs: c.theirsChanges,
    oursTableIds: new Set(c.ours.keys()),
    oursRow: (tableId, rowId) => (readable.get(tableId)?.has(rowId) === true ? (c.ours.get(tableId)?.rows.get(rowId) ?? null) : null),
    resolutions,
    strategy,
  });
}

/** A merge as the history applies it: a strategy, or (PICK) one resolution per conflict, OURS or THEIRS by `picks`. */
export function decideMerge(
  c: MergeCase,
  strategy: MergeStrategy | 'PICK',
  picks: readonly boolean[],
): {
  result: ThreeWayMergeResult;
  resolutions: MergeResolution[];
} {
  if (strategy !== 'PICK') return { result: runMerge(c, strategy), resolutions: [] };
  const open = runMerge(c, 'FAIL');
  const resolutions = open.conflicts.map((k, i): MergeResolution => ({
    conflictId: k.id,
    take: picks[i % picks.length] === true ? 'THEIRS' : 'OURS',
  }));
  return { result: runMerge(c, 'FAIL', resolutions), resolutions };
}

/** The draft after a merge's operations, and the row marks they leave (where each of our rows went). */
export function applyMerge(content: Content, operations: readonly DraftOperation[]): { after: Content; marks: RowMark[] } {
  const marks: RowMark[] = [];
  let created = 0;
  const after = applyDraftOperations(content, operations, { newTableKey: () => `merge-created-${++created}`, mark: (m) => marks.push(m) });
  return { after, marks };
}
