// The laws a merge keeps (issue 26 item 5), over random histories of a project on two branches (mergeHistory.ts):
// writes of rows (creates, nested fields, arrays, renames, deletions), tables (create, rename, delete) and, behind
// `schemaPatches`, schema patches (add, remove, rename a field); commits; merges in both directions applied with a
// strategy or resolutions, so later merges find newer and criss-cross bases in the revision graph. At every merge:
// the base and UP_TO_DATE agree with the graph; no changes on our side gives the source; no changes on theirs
// changes nothing; no acknowledged write of either side is lost (mergeWriteLaws.ts); OURS/THEIRS take their side on
// every conflicting leaf and schema; the conflicts of A→B and B→A mirror each other. Shared by the fast-tier test
// (threeWayMergeLaws.unit.test.ts, fixed seed) and the larger run (`npm run bench -- merge-laws`); fast-check prints
// the seed, the path and the shrunk history on failure.
import fc from 'fast-check';
import type { MergeConflict, MergeStrategy } from '../merge/mergeTypes.ts';
import { mergeBaseOf } from '../merge/revisionGraph.ts';
import type { RevisionRecord } from '../state/systemRecords.ts';
import { jsonDeepEqual } from '../tables/jsonValue.ts';
import { describeContent, sameContent } from './mergeContent.ts';
import { sideChanges } from './mergeDiff.ts';
import { BRANCH_IDS, commit, createHistory, draftOf, headOf, recordMerge, revisionOf, snapshotOf, writeDraft, type History } from './mergeHistory.ts';
import { historyOpArb, initialArb, writeOperations, type HistoryOp } from './mergeHistoryOps.ts';
import { applyMerge, decideMerge, mirrored, runMerge, withoutOurs, withoutTheirs, type MergeCase } from './mergeStep.ts';
import { checkWriteLaws, conflictRow, resultTableOf, type Applied, type Law } from './mergeWriteLaws.ts';

export type MergeLawOptions = {
  /** Generate schema patches (add, remove, rename a field) on either branch. */
  readonly schemaPatches: boolean;
  /** Let a table be created or renamed under an id another table had earlier in the history (on either branch). */
  readonly reuseTableIds: boolean;
};

export const historyArb = (options: MergeLawOptions) =>
  fc.record({ initial: initialArb, ops: fc.array(historyOpArb(options.schemaPatches), { minLength: 6, maxLength: 30, size: 'medium' }) });
export type HistoryCase = typeof historyArb extends (o: MergeLawOptions) => fc.Arbitrary<infer T> ? T : never;

/** What the histories exercised (the bench prints it, so a narrowed generator shows). */
export type MergeLawStats = {
  merges: number;
  upToDate: number;
  applied: number;
  conflicts: number;
  movedBase: number;
  /** Merges with several best common ancestors (criss-cross). */
  crissCross: number;
  tableChanges: number;
};
export const createMergeLawStats = (): MergeLawStats => ({
  merges: 0,
  upToDate: 0,
  applied: 0,
  conflicts: 0,
  movedBase: 0,
  crissCross: 0,
  tableChanges: 0,
});

/** Plays a history and checks every law at each merge; throws with the step and the first law broken. */
export function checkHistory(history: HistoryCase, options: MergeLawOptions, stats: MergeLawStats = createMergeLawStats()): void {
  const h = createHistory(history.initial);
  /** Table ids some revision had (only drafts change, so they are gathered from both drafts after every step). */
  const used = new Set(history.initial.keys());
  const usable = (tableId: string) => options.reuseTableIds || !used.has(tableId);
  history.ops.forEach((op, step) => {
    const law: Law = (ok, what) => {
      if (!ok) throw new Error(`merge law broken at step ${step} (${op.kind}): ${what}`);
    };
    if (op.kind === 'commit') commit(h, BRANCH_IDS[op.branch]);
    else if (op.kind === 'merge') mergeStep(h, op, law, stats);
    else {
      const branch = BRANCH_IDS[op.branch];
      writeDraft(h, branch, writeOperations(snapshotOf(h, draftOf(h, branch)).content, op, usable));
    }
    for (const branch of BRANCH_IDS) for (const tableId of snapshotOf(h, draftOf(h, branch)).content.keys()) used.add(tableId);
  });
}

/** Whether `id` is `revision` or one of its ancestors: its branch's earlier revisions, its fork point, merged sources. */
function contains(h: History, revision: RevisionRecord, id: string): boolean {
  const seen = new Set<string>();
  const stack = [revision];
  while (stack.length > 0) {
    const next = stack.pop() as RevisionRecord;
    if (next.id === id) return true;
    if (seen.has(next.id)) continue;
    seen.add(next.id);
    const branch = h.state.branches.get(next.branchId);
    const previous = next.seq > 0 ? branch?.revisionIds[next.seq - 1] : branch?.parent?.revisionId;
    for (const parent of [previous, ...next.mergedRevisionIds]) if (parent !== undefined) stack.push(revisionOf(h, parent));
  }
  return false;
}

function mergeStep(h: History, op: Extract<HistoryOp, { kind: 'merge' }>, law: Law, stats: MergeLawStats): void {
  const into = BRANCH_IDS[op.into];
  const from = BRANCH_IDS[1 - op.into] as (typeof BRANCH_IDS)[number];
  const source = headOf(h, from);
  const draft = draftOf(h, into);
  const { base, upToDate } = mergeBaseOf(h.state, source, draft);
  law(upToDate === contains(h, draft, source.id), `UP_TO_DATE (${upToDate}) exactly when the draft of ${into} contains ${source.id}`);
  law(mergeBaseOf(h.state, revisionOf(h, 'main0'), draftOf(h, 'feat')).upToDate, "merging feat's fork point into feat is UP_TO_DATE");
  stats.merges += 1;
  if (upToDate) stats.upToDate += 1;
  if (upToDate) return;
  if (base.id !== 'main0') stats.movedBase += 1;
  const common = [...h.state.revisions.values()].filter((r) => r.committedAt !== null && contains(h, draft, r.id) && contains(h, source, r.id));
  if (common.filter((r) => !common.some((other) => other.id !== r.id && contains(h, other, r.id))).length > 1) stats.crissCross += 1;
  law(
    common.some((r) => r.id === base.id) && !common.some((r) => r.id !== base.id && contains(h, r, base.id) && !contains(h, base, r.id)),
    `base ${base.id} of ${source.id} → ${into} is a common ancestor no other common ancestor descends from`,
  );
  const c: MergeCase = {
    ids: { source: source.id, base: base.id },
    base: snapshotOf(h, base).content,
    ours: snapshotOf(h, draft).content,
    theirs: snapshotOf(h, source).content,
    oursChanges: sideChanges(h, base, draft),
    theirsChanges: sideChanges(h, base, source),
  };
  const where = `merge of ${source.id} into ${draft.id} (base ${base.id}, ${op.strategy})`;
  const open = checkMergeLaws(c, op.strategy, op.picks, (ok, what) => law(ok, `${where}: ${what}`));
  if (c.theirsChanges.some((t) => t.tableId !== t.baseTableId)) stats.tableChanges += 1;
  if (open.conflicts > 0) stats.conflicts += 1;
  if (open.length > 0) return;
  stats.applied += 1;
  writeDraft(h, into, open.operations);
  recordMerge(h, into, source.id);
  law(mergeBaseOf(h.state, source, draftOf(h, into)).upToDate, `merging ${source.id} again into ${into} is UP_TO_DATE`);
  const sourceBranch = h.state.branches.get(source.branchId);
  const earlier = source.seq > 0 ? sourceBranch?.revisionIds[source.seq - 1] : undefined;
  if (earlier !== undefined)
    law(mergeBaseOf(h.state, revisionOf(h, earlier), draftOf(h, into)).upToDate, `merging ${earlier} (before ${source.id}) is UP_TO_DATE`);
}

const leafAt = (data: unknown, pointer: string): unknown =>
  pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], data);

/** Checks the laws of one merge; answers the merge as decided (its operations, and `length` = open conflicts). */
export function checkMergeLaws(c: MergeCase, strategy: MergeStrategy | 'PICK', picks: readonly boolean[], law: Law) {
  const { result, resolutions } = decideMerge(c, strategy, picks);
  let applied: Applied;
  try {
    applied = { result, ...applyMerge(c.ours, result.operations) };
  } catch (err) {
    law(false, `the merge's operations apply to the draft (${(err as Error).message})`);
    throw err;
  }

  // The result is valid (merge.md §2.1, §2.3): a side's schema patches reach the other side's rows, so every row has
  // exactly its table's fields (the model's writes keep every row so; a mismatch would be an INVALID_DATA conflict).
  for (const [tableId, table] of applied.after) {
    const fields = Object.keys((table.schema.properties ?? {}) as Record<string, unknown>).sort();
    for (const [rowId, data] of table.rows)
      law(jsonDeepEqual(Object.keys(data).sort(), fields), `result row ${tableId}/${rowId} has its table's fields ${fields.join()}`);
  }

  const fromBase = runMerge(withoutOurs(c), 'FAIL');
  law(fromBase.conflicts.length === 0, `no changes on our side gives no conflicts (${fromBase.conflicts.map((k) => k.kind).join()})`);
  const theirsOnBase = applyMerge(c.base, fromBase.operations).after;
  law(
    sameContent(theirsOnBase, c.theirs),
    `no changes on our side equals the source: ${describeContent(theirsOnBase)} ≠ ${describeContent(c.theirs)}`,
  );
  const noTheirs = runMerge(withoutTheirs(c), 'FAIL');
  law(noTheirs.operations.length === 0 && noTheirs.conflicts.length === 0, 'no changes on their side changes nothing');

  checkWriteLaws(c, applied, law);

  const picked = new Map(resolutions.map((r) => [r.conflictId, r.take]));
  const take = (k: MergeConflict) => (strategy === 'PICK' ? (picked.get(k.id) ?? null) : strategy === 'FAIL' ? null : strategy);
  if (strategy === 'FAIL') law(result.open.length === result.conflicts.length, 'FAIL leaves every conflict open');
  else if (strategy === 'PICK')
    law(
      result.open.every((k) => !picked.has(k.id)),
      'a resolution settles its conflict',
    );
  else law(result.open.length === 0, 'a strategy resolves every conflict');
  // Tables in a conflict about their id or existence may be replaced whole by its resolution.
  const tableLevel = result.conflicts.filter((k) => k.kind.startsWith('TABLE_')).flatMap((k) => [k.tableId, k.ours, k.theirs]);
  const idMoves = new Set([
    ...result.conflicts.filter((k) => k.kind === 'ROW_ID_TAKEN' || k.kind === 'ROW_RENAME').map((k) => k.tableId),
    ...tableLevel.filter((id): id is string => typeof id === 'string'),
  ]);
  const wholeRows = new Set(result.conflicts.filter((k) => k.kind !== 'ROW_UPDATE').map((k) => `${k.tableId}/${k.rowId}`));
  for (const k of result.conflicts) {
    const side = take(k);
    if (side !== 'OURS' && side !== 'THEIRS') continue;
    const expected = side === 'THEIRS' ? k.theirs : k.ours;
    if (k.kind === 'TABLE_SCHEMA') {
      const oursTable = c.ours.get(k.tableId);
      const table = (oursTable === undefined ? undefined : resultTableOf(applied.after, oursTable)?.[1]) ?? applied.after.get(k.tableId);
      law(table !== undefined && jsonDeepEqual(table.schema, expected), `${side} takes its schema of table ${k.tableId}`);
    }
    // Rows also in a conflict about their id or existence are settled by that conflict's resolution.
    if (k.kind !== 'ROW_UPDATE' || idMoves.has(k.tableId) || wholeRows.has(`${k.tableId}/${k.rowId}`)) continue;
    const row = conflictRow(applied, c, k);
    law(
      row !== undefined && jsonDeepEqual(leafAt(row, k.path as string) ?? null, expected),
      `${side} takes its side at ${k.tableId}/${k.rowId}${k.path}`,
    );
  }

  // Conflicts of A→B and B→A mirror each other (compared unresolved: resolving one can free an id and remove another).
  const unresolved = strategy === 'FAIL' ? result : runMerge(c, 'FAIL');
  const mirror = runMerge(mirrored(c), 'FAIL');
  const keys = [mirrorKey(unresolved.conflicts, false), mirrorKey(mirror.conflicts, true)];
  law(jsonDeepEqual(keys[0], keys[1]), `conflicts of A→B and B→A mirror each other: ${keys.map((k) => k.join()).join(' vs ')}`);
  return Object.assign(result.open, { operations: result.operations, conflicts: result.conflicts.length });
}

/**
 * Leaf conflicts as (path, base, ours, theirs) with the sides swapped for the mirrored merge; schema conflicts with
 * their schemas swapped; the other kinds by kind (their values name the rows of each side, which differ between the
 * two directions). Table conflicts count once per kind: a chain of table renames blocked by one conflict raises a
 * TABLE_ID_TAKEN for each later link (tableHolders.ts), and the two directions see different chains.
 */
function mirrorKey(conflicts: readonly MergeConflict[], swap: boolean): string[] {
  const sides = (k: MergeConflict) => (swap ? [k.theirs, k.ours] : [k.ours, k.theirs]);
  const keys = conflicts.map((k) =>
    JSON.stringify(k.kind === 'ROW_UPDATE' ? [k.kind, k.path, k.base, sides(k)] : k.kind === 'TABLE_SCHEMA' ? [k.kind, k.base, sides(k)] : [k.kind]),
  );
  return [...keys.filter((key) => !key.includes('"TABLE_')), ...new Set(keys.filter((key) => key.includes('"TABLE_')))].sort();
}

export const MERGE_LAWS_SEED = 20261128;

/** Runs the laws; fast-check reports the seed, the path and the shrunk history on failure. */
export function assertMergeLaws(
  numRuns: number,
  seed = MERGE_LAWS_SEED,
  options: MergeLawOptions = { schemaPatches: true, reuseTableIds: true },
  stats: MergeLawStats = createMergeLawStats(),
): MergeLawStats {
  fc.assert(
    fc.property(historyArb(options), (history) => {
      checkHistory(history, options, stats);
    }),
    { numRuns, seed },
  );
  return stats;
}
