// The laws a merge keeps (issue 26 item 5), over random histories of one table on two sides: creates, updates of
// nested fields and arrays, renames, deletions. Shared by the fast-tier test (threeWayMergeLaws.unit.test.ts, fixed
// seed) and the larger run (`npm run bench -- merge-laws`). fast-check prints the seed and the counterexample.
import fc from 'fast-check';
import type { DraftOperation } from '../commands/draftChanges.ts';
import { jsonDeepEqual } from '../tables/jsonValue.ts';
import { threeWayMerge } from '../merge/threeWayMerge.ts';
import type { MergeConflict, MergeStrategy, SideRowChange, ThreeWayMergeResult } from '../merge/mergeTypes.ts';

type Data = { a: number; b: { c: number; d: number }; tags: number[] };
type Table = Map<string, Data>;
/** A side's rows by base identity (null for rows it created) and current id. */
type Side = { rows: { identity: string | null; id: string; data: Data }[] };

type Op =
  | { kind: 'leaf'; pick: number; field: 'a' | 'c' | 'd' | 'tags'; value: number }
  | { kind: 'create'; id: string; value: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'rename'; pick: number; id: string };

const BASE_IDS = ['r0', 'r1', 'r2', 'r3', 'r4', 'r5'];
const NEW_IDS = ['n0', 'n1', 'n2', 'n3'];

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('leaf' as const),
      pick: fc.nat(20),
      field: fc.constantFrom('a' as const, 'c' as const, 'd' as const, 'tags' as const),
      value: fc.integer({ min: 0, max: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('create' as const), id: fc.constantFrom(...NEW_IDS), value: fc.integer({ min: 0, max: 3 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rename' as const), pick: fc.nat(20), id: fc.constantFrom(...NEW_IDS) }) },
);

const dataArb: fc.Arbitrary<Data> = fc.record({
  a: fc.integer({ min: 0, max: 3 }),
  b: fc.record({ c: fc.integer({ min: 0, max: 3 }), d: fc.integer({ min: 0, max: 3 }) }),
  tags: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 2 }),
});

export const mergeCaseArb = fc.record({
  base: fc.array(dataArb, { minLength: 1, maxLength: BASE_IDS.length }),
  ours: fc.array(opArb, { maxLength: 6 }),
  theirs: fc.array(opArb, { maxLength: 6 }),
  strategy: fc.constantFrom<MergeStrategy>('FAIL', 'OURS', 'THEIRS'),
});
export type MergeCase = typeof mergeCaseArb extends fc.Arbitrary<infer T> ? T : never;

const clone = (data: Data): Data => JSON.parse(JSON.stringify(data)) as Data;

function baseTable(c: MergeCase): Table {
  return new Map(c.base.map((data, i) => [BASE_IDS[i] as string, data]));
}

/** Applies a side's operations like the write API would (ids stay unique; a missing target is a no-op). */
function play(base: Table, ops: readonly Op[]): Side {
  const rows: Side['rows'] = [...base].map(([id, data]) => ({ identity: id, id, data: clone(data) }));
  const taken = (id: string) => rows.some((row) => row.id === id) || base.has(id);
  for (const op of ops) {
    const row = rows.length > 0 && op.kind !== 'create' ? rows[op.pick % rows.length] : undefined;
    if (op.kind === 'create' && !taken(op.id)) rows.push({ identity: null, id: op.id, data: { a: op.value, b: { c: 0, d: 0 }, tags: [] } });
    if (row === undefined) continue;
    if (op.kind === 'leaf') {
      if (op.field === 'a') row.data.a = op.value;
      else if (op.field === 'tags') row.data.tags = [...row.data.tags, op.value];
      else row.data.b[op.field] = op.value;
    } else if (op.kind === 'delete') rows.splice(rows.indexOf(row), 1);
    else if (op.kind === 'rename' && !taken(op.id)) row.id = op.id;
  }
  return { rows };
}

/** The side's change set since the base, as the diff machinery pairs it (changes.md §1.2). */
function changesOf(base: Table, side: Side): SideRowChange[] {
  const out: SideRowChange[] = [];
  for (const [id, data] of base) {
    const row = side.rows.find((r) => r.identity === id);
    if (row === undefined) out.push({ baseRowId: id, rowId: null, base: data, data: null });
    else if (row.id !== id || !jsonDeepEqual(row.data, data)) out.push({ baseRowId: id, rowId: row.id, base: data, data: row.data });
  }
  for (const row of side.rows) if (row.identity === null) out.push({ baseRowId: null, rowId: row.id, base: null, data: row.data });
  return out;
}

const contentOf = (side: Side): Table => new Map(side.rows.map((row) => [row.id, row.data]));

function merge(base: Table, ours: Side, theirs: Side, strategy: MergeStrategy): ThreeWayMergeResult {
  const oursTable = contentOf(ours);
  const schema = { type: 'object' };
  const table = (rows: SideRowChange[]) => ({ baseTableId: 't', tableId: 't', schemaChanged: false, baseSchema: schema, schema, rows });
  const oursChanges = changesOf(base, ours);
  const theirsChanges = changesOf(base, theirs);
  return threeWayMerge({
    sourceRevisionId: 'src',
    baseRevisionId: 'base',
    ours: oursChanges.length > 0 ? [table(oursChanges)] : [],
    theirs: theirsChanges.length > 0 ? [table(theirsChanges)] : [],
    oursTableIds: new Set(['t']),
    oursRow: (_tableId, rowId) => (oursTable.get(rowId) as Record<string, unknown> | undefined) ?? null,
    resolutions: [],
    strategy,
  });
}

/** The draft after the merge's operations (what ApplyDraftChanges would leave). */
export function applyOperations(content: Table, operations: readonly DraftOperation[]): Table {
  return applyTracked(content, operations).table;
}

/** As applyOperations, with each result row's id in `content` (`origins`; absent for rows the operations add). */
function applyTracked(content: Table, operations: readonly DraftOperation[]): { table: Table; origins: Map<string, string> } {
  const out = new Map([...content].map(([id, data]) => [id, clone(data)]));
  const origins = new Map([...content.keys()].map((id) => [id, id]));
  for (const op of operations) {
    if (op.type === 'DeleteRows') {
      for (const id of op.rowIds) {
        out.delete(id);
        origins.delete(id);
      }
    } else if (op.type === 'RenameRow') {
      const data = out.get(op.rowId);
      if (data === undefined || out.has(op.nextRowId)) throw new Error(`rename ${op.rowId} -> ${op.nextRowId} impossible`);
      out.delete(op.rowId);
      out.set(op.nextRowId, data);
      const origin = origins.get(op.rowId);
      origins.delete(op.rowId);
      if (origin !== undefined) origins.set(op.nextRowId, origin);
    } else if (op.type === 'UpsertRows') for (const row of op.rows) out.set(row.rowId, clone(row.data as Data));
    else throw new Error(`unexpected operation ${op.type}`);
  }
  return { table: out, origins };
}

const sorted = (table: Table) => [...table].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
const leafAt = (data: unknown, pointer: string): unknown =>
  pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], data);

/** Asserts every law on one case; throws with a description of the first law broken. */
export function checkMergeLaws(c: MergeCase): void {
  const base = baseTable(c);
  const ours = play(base, c.ours);
  const theirs = play(base, c.theirs);
  const law = (ok: boolean, what: string) => {
    if (!ok) throw new Error(`merge law broken: ${what}`);
  };
  const result = merge(base, ours, theirs, c.strategy);
  const { table: after, origins } = applyTracked(contentOf(ours), result.operations);
  /** The result row that was our row `rowId`, wherever the merge moved it. */
  const resultRowOf = (rowId: string): Data | undefined => {
    for (const [id, origin] of origins) if (origin === rowId) return after.get(id);
    return undefined;
  };

  // Nothing changed on our side: the result is the source's content, without conflicts.
  const untouched = { rows: [...base].map(([id, data]) => ({ identity: id, id, data: clone(data) })) };
  const fromBase = merge(base, untouched, theirs, 'FAIL');
  law(fromBase.conflicts.length === 0, 'no changes on our side gives no conflicts');
  law(jsonDeepEqual(sorted(applyOperations(base, fromBase.operations)), sorted(contentOf(theirs))), 'no changes on our side equals the source');
  // Nothing changed on their side: nothing changes.
  const noTheirs = merge(base, ours, { rows: untouched.rows }, 'FAIL');
  law(noTheirs.operations.length === 0 && noTheirs.conflicts.length === 0, 'no changes on their side changes nothing');

  // A merge never loses an acknowledged write: every row one side changed alone keeps that side's version, and with
  // no conflicts every change of either side is in the result.
  const conflictRows = new Set(result.conflicts.map((k) => k.rowId));
  const theirsChanges = changesOf(base, theirs);
  const oursChanges = changesOf(base, ours);
  const touchedByOurs = (change: SideRowChange) =>
    oursChanges.some((o) => (change.baseRowId !== null && o.baseRowId === change.baseRowId) || (change.rowId !== null && o.rowId === change.rowId));
  const touchedByTheirs = (change: SideRowChange) =>
    theirsChanges.some((t) => (change.baseRowId !== null && t.baseRowId === change.baseRowId) || (change.rowId !== null && t.rowId === change.rowId));
  const taken = new Set(ours.rows.map((row) => row.id));
  for (const change of theirsChanges) {
    if (
      touchedByOurs(change) ||
      conflictRows.has(change.rowId) ||
      (change.rowId !== null && change.rowId !== change.baseRowId && taken.has(change.rowId))
    )
      continue;
    if (change.rowId === null) law(!after.has(change.baseRowId as string), `their deletion of ${change.baseRowId} is kept`);
    else law(jsonDeepEqual(after.get(change.rowId), change.data), `their change of ${change.rowId} is kept`);
  }
  for (const change of oursChanges) {
    if (touchedByTheirs(change) || conflictRows.has(change.rowId)) continue;
    if (change.rowId === null) law(!after.has(change.baseRowId as string), `our deletion of ${change.baseRowId} is kept`);
    else law(jsonDeepEqual(after.get(change.rowId), change.data), `our change of ${change.rowId} is kept`);
  }

  // No row is lost: every base row neither side removed is in the result (wherever the merge moved it), whatever
  // the conflicts and the strategy.
  for (const row of ours.rows) {
    if (row.identity === null || !theirs.rows.some((r) => r.identity === row.identity)) continue;
    law(resultRowOf(row.id) !== undefined, `base row ${row.identity} (ours ${row.id}) kept by both sides is in the result`);
  }

  // Strategies: every conflicting leaf takes the source's (THEIRS) or the draft's (OURS) value.
  // (Rows also in a conflict about their id or existence may be replaced by that conflict's resolution.)
  const wholeRowConflicts = new Set(result.conflicts.filter((k) => k.kind !== 'ROW_UPDATE').map((k) => k.rowId));
  for (const conflict of result.conflicts.filter((k) => k.kind === 'ROW_UPDATE')) {
    if (c.strategy === 'FAIL' || wholeRowConflicts.has(conflict.rowId)) continue;
    const expected = c.strategy === 'THEIRS' ? conflict.theirs : conflict.ours;
    // The conflict names our row; the merge may have moved it (a rename of theirs, or back to the id theirs keeps it
    // under when theirs takes its id), and another row may now hold that id.
    const identity = ours.rows.find((r) => r.id === conflict.rowId)?.identity ?? null;
    const theirsId = theirs.rows.find((r) => identity !== null && r.identity === identity)?.id;
    if (theirsId !== undefined && wholeRowConflicts.has(theirsId)) continue;
    const row =
      resultRowOf(conflict.rowId as string) ?? after.get(conflict.rowId as string) ?? (theirsId === undefined ? undefined : after.get(theirsId));
    law(
      row !== undefined && jsonDeepEqual(leafAt(row, conflict.path as string) ?? null, expected),
      `${c.strategy} takes its side at ${conflict.rowId}${conflict.path}`,
    );
  }
  if (c.strategy === 'FAIL') law(result.open.length === result.conflicts.length, 'FAIL leaves every conflict open');
  else law(result.open.length === 0, 'a strategy resolves every conflict');

  // Conflicts of A→B and B→A mirror each other.
  // (Compared without resolutions: resolving one conflict can free an id and so remove another.)
  const unresolved = c.strategy === 'FAIL' ? result : merge(base, ours, theirs, 'FAIL');
  const mirrored = merge(base, theirs, ours, 'FAIL');
  law(jsonDeepEqual(mirrorKey(unresolved.conflicts, false), mirrorKey(mirrored.conflicts, true)), 'conflicts of A→B and B→A mirror each other');
}

/**
 * Leaf conflicts as (path, base, ours, theirs) with the sides swapped for the mirrored merge; the other kinds by kind
 * (their values name the rows of each side, which differ between the two directions).
 */
function mirrorKey(conflicts: readonly MergeConflict[], swap: boolean): string[] {
  return conflicts
    .map((k) => JSON.stringify(k.kind === 'ROW_UPDATE' ? [k.kind, k.path, k.base, swap ? [k.theirs, k.ours] : [k.ours, k.theirs]] : [k.kind]))
    .sort();
}

export const MERGE_LAWS_SEED = 20261128;

/** Runs the laws; fast-check reports the seed and the shrunk counterexample on failure. */
export function assertMergeLaws(numRuns: number, seed = MERGE_LAWS_SEED): void {
  fc.assert(
    fc.property(mergeCaseArb, (c) => {
      checkMergeLaws(c);
    }),
    { numRuns, seed },
  );
}
