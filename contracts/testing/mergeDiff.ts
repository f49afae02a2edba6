// The diff base → target of the merge-law model, paired the way the diff machinery pairs it (changes.md §1, the
// query side's revisionDiff and rowPairing): tables by stable key, else by equal id; rows by equal id, else by the
// rename marks leading from the base id back to the common ancestor in the branch tree and forward to the target.
import type { SideRowChange, SideTableChange } from '../merge/mergeTypes.ts';
import type { RevisionRecord } from '../state/systemRecords.ts';
import { jsonDeepEqual } from '../tables/jsonValue.ts';
import { revisionLayers } from '../views/revisionLayers.ts';
import type { VersionLayer } from '../ports/viewStore.ts';
import type { Data, RowMark, TableContent } from './mergeContent.ts';
import { snapshotOf, type History } from './mergeHistory.ts';

type Segment = { readonly branchId: string; readonly after: number; readonly upTo: number };

/** The segments between the tree's common ancestor of `base` and `target` and each of them, oldest first. */
function diffPaths(h: History, target: RevisionRecord, base: RevisionRecord): { toTarget: Segment[]; toBase: Segment[] } {
  const targetChain = revisionLayers(h.state, target);
  const baseChain = revisionLayers(h.state, base);
  for (let j = 0; j < baseChain.length; j++) {
    const shared = baseChain[j] as VersionLayer;
    const i = targetChain.findIndex((point) => point.branchId === shared.branchId);
    if (i === -1) continue;
    const common = Math.min(shared.seq, (targetChain[i] as VersionLayer).seq);
    return { toTarget: pathFrom(targetChain, i, common), toBase: pathFrom(baseChain, j, common) };
  }
  throw new Error('revisions of one project share the root branch');
}

function pathFrom(chain: readonly VersionLayer[], shared: number, common: number): Segment[] {
  const segments: Segment[] = [];
  for (let k = shared; k >= 0; k--) {
    const point = chain[k] as VersionLayer;
    const after = k === shared ? common : 0;
    if (point.seq > after) segments.push({ branchId: point.branchId, after, upTo: point.seq });
  }
  return segments;
}

function marksOf(h: History, segments: readonly Segment[]): RowMark[] {
  const out: RowMark[] = [];
  for (const segment of segments) {
    const ids = h.state.branches.get(segment.branchId)?.revisionIds ?? [];
    for (let seq = segment.after + 1; seq <= segment.upTo; seq++) {
      const record = h.state.revisions.get(ids[seq] ?? '');
      if (record !== undefined) out.push(...snapshotOf(h, record).marks);
    }
  }
  return out;
}

type Pair = {
  readonly baseId: string | null;
  readonly base: TableContent | null;
  readonly targetId: string | null;
  readonly target: TableContent | null;
};

function pairTables(base: ReadonlyMap<string, TableContent>, target: ReadonlyMap<string, TableContent>): Pair[] {
  const baseByKey = new Map([...base].map(([id, t]) => [t.key, [id, t] as const]));
  const pairs: Pair[] = [];
  const unpaired: [string, TableContent][] = [];
  for (const [id, t] of target) {
    const b = baseByKey.get(t.key);
    if (b === undefined) unpaired.push([id, t]);
    else {
      baseByKey.delete(t.key);
      pairs.push({ baseId: b[0], base: b[1], targetId: id, target: t });
    }
  }
  const baseById = new Map([...baseByKey.values()]);
  for (const [id, t] of unpaired) {
    const b = baseById.get(id) ?? null;
    baseById.delete(id);
    pairs.push({ baseId: b === null ? null : id, base: b, targetId: id, target: t });
  }
  for (const [id, b] of baseById) pairs.push({ baseId: id, base: b, targetId: null, target: null });
  return pairs;
}

/** The base id's id in the target following renames; null when created or deleted on the way. */
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
    } else if (mark.previousRowId === current) current = mark.rowId;
  }
  return current;
}

function pairRows(base: ReadonlyMap<string, Data>, target: ReadonlyMap<string, Data>, toBase: RowMark[], toTarget: RowMark[]): SideRowChange[] {
  const out: (SideRowChange & { sortId: string })[] = [];
  const added = new Set<string>();
  for (const [rowId, after] of target) {
    const before = base.get(rowId);
    if (before === undefined) added.add(rowId);
    else if (!jsonDeepEqual(before, after)) out.push({ sortId: rowId, baseRowId: rowId, rowId, base: before, data: after });
  }
  for (const [rowId, before] of base) {
    if (target.has(rowId)) continue;
    const renamedTo = trail(rowId, toBase, toTarget);
    if (renamedTo !== null && added.has(renamedTo)) {
      added.delete(renamedTo);
      out.push({ sortId: renamedTo, baseRowId: rowId, rowId: renamedTo, base: before, data: target.get(renamedTo) ?? null });
    } else out.push({ sortId: rowId, baseRowId: rowId, rowId: null, base: before, data: null });
  }
  for (const rowId of added) out.push({ sortId: rowId, baseRowId: null, rowId, base: null, data: target.get(rowId) ?? null });
  return out.sort((a, b) => (a.sortId < b.sortId ? -1 : a.sortId > b.sortId ? 1 : 0)).map(({ sortId: _, ...row }) => row);
}

/** The change set base → target (merge.md §2): changed tables by id, each with its changed rows. */
export function sideChanges(h: History, base: RevisionRecord, target: RevisionRecord): SideTableChange[] {
  const paths = diffPaths(h, target, base);
  const toTarget = marksOf(h, paths.toTarget);
  const toBase = marksOf(h, paths.toBase).reverse();
  const out: SideTableChange[] = [];
  for (const pair of pairTables(snapshotOf(h, base).content, snapshotOf(h, target).content)) {
    const keys = [pair.base?.key, pair.target?.key];
    const ofTable = (marks: RowMark[]) => marks.filter((mark) => keys.includes(mark.tableKey));
    const rows = pairRows(pair.base?.rows ?? new Map(), pair.target?.rows ?? new Map(), ofTable(toBase), ofTable(toTarget));
    const schemaChanged = pair.base !== null && pair.target !== null && !jsonDeepEqual(pair.base.schema, pair.target.schema);
    if (pair.base !== null && pair.target !== null && pair.baseId === pair.targetId && !schemaChanged && rows.length === 0) continue;
    out.push({
      baseTableId: pair.baseId,
      tableId: pair.targetId,
      schemaChanged,
      baseSchema: pair.base?.schema ?? null,
      schema: pair.target?.schema ?? null,
      rows,
    });
  }
  const idOf = (t: SideTableChange) => (t.tableId ?? t.baseTableId) as string;
  return out.sort((a, b) => (idOf(a) < idOf(b) ? -1 : idOf(a) > idOf(b) ? 1 : 0));
}
