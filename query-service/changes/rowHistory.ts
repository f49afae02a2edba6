import { invariant, jsonDeepEqual, resolveTableLayers } from '../../contracts/index.ts';
import type { ViewDoc } from '../../contracts/index.ts';
import type { ChangeReader } from './changeReader.ts';
import { tableVersion, type TableVersion } from '../readers/schemaReader.ts';
import type { RevisionPoint } from './revisionAncestry.ts';

export type RowVersionChange = 'CREATED' | 'UPDATED' | 'RENAMED' | 'DELETED';

/** One history entry before formatting: the revision (branch + sequence) and the row version or deletion. */
export type HistoryStep = {
  readonly branchId: string;
  readonly seq: number;
  readonly change: RowVersionChange;
  readonly rowId: string;
  readonly table: TableVersion;
  /** The version's document; null for a deletion. */
  readonly doc: ViewDoc | null;
  readonly actor: string | null;
};

/**
 * Where a history walk stands (encoded into page cursors): ancestry index `k`, the row's id `rowId` there, the
 * newest version still to visit starts at or before `maxFromSeq`, `newerFromSeq` is where the version visited
 * before it (same id) started, and `deletionDone` says the deletion step of the next version was taken.
 */
export type HistoryState = {
  readonly k: number;
  readonly rowId: string;
  readonly maxFromSeq: number;
  readonly newerFromSeq: number | null;
  readonly deletionDone: boolean;
};

export function initialHistoryState(chain: readonly RevisionPoint[], rowId: string): HistoryState {
  return { k: 0, rowId, maxFromSeq: (chain[0] as RevisionPoint).seq, newerFromSeq: null, deletionDone: false };
}

const ended = (chain: readonly RevisionPoint[], rowId: string): HistoryState => ({
  k: chain.length,
  rowId,
  maxFromSeq: -1,
  newerFromSeq: null,
  deletionDone: false,
});

/**
 * Walks one row's versions newest first (changes.md §2) along `chain` (the revision, then the revisions branches
 * were created from: the revision's layers), following renames back through the `row_marks`. A tombstone is a
 * deletion (or the old id of a rename, which is no step); a branch's first version of a row it inherits is an
 * update of the row as the branch below had it. Each step reads at most two versions of one id through the `rows`
 * key (and the row below the branch once), so a page costs what it lists, however long the history. Returns up to
 * `limit` steps and the state after each (`k === chain.length` once the row's creation was reached).
 */
export async function walkRowHistory(
  reader: ChangeReader,
  chain: readonly RevisionPoint[],
  tableKey: string,
  start: HistoryState,
  limit: number,
): Promise<{ steps: HistoryStep[]; after: HistoryState[] }> {
  const tableAt = tableResolver(reader, chain, tableKey);
  const steps: HistoryStep[] = [];
  /** The state after each step (the cursor of its entry). */
  const after: HistoryState[] = [];
  let state = start;
  for (;;) {
    while (after.length < steps.length) after.push(state);
    if (steps.length >= limit || state.k >= chain.length) break;
    const point = chain[state.k] as RevisionPoint;
    const [version, older] = await reader.rowVersions(point.branchId, tableKey, state.rowId, state.maxFromSeq, 2);
    const nextBranch = (): HistoryState => {
      const parent = chain[state.k + 1];
      if (parent === undefined) return ended(chain, state.rowId);
      return { k: state.k + 1, rowId: state.rowId, maxFromSeq: parent.seq, newerFromSeq: null, deletionDone: false };
    };
    if (version === undefined) {
      state = nextBranch();
      continue;
    }
    const fromSeq = version.fromSeq as number;
    const toSeq = version.toSeq as number;
    const olderVersions = { k: state.k, rowId: state.rowId, maxFromSeq: fromSeq - 1, newerFromSeq: fromSeq, deletionDone: false };
    if (version.tombstone === true) {
      // A deletion; the tombstone under the old id of a rename is none (the rename is the new id's step).
      const last = (await reader.marksOf(point.branchId, fromSeq, tableKey, state.rowId)).at(-1);
      state = olderVersions;
      if (last?.kind === 'deleted') {
        const table = await tableAt(state.k, fromSeq);
        steps.push({ branchId: point.branchId, seq: fromSeq, change: 'DELETED', rowId: state.rowId, table, doc: null, actor: last.actor });
      }
      continue;
    }
    if (!state.deletionDone) {
      state = { ...state, deletionDone: true };
      if (toSeq <= point.seq && toSeq !== state.newerFromSeq) {
        const last = (await reader.marksOf(point.branchId, toSeq, tableKey, state.rowId)).at(-1);
        if (last?.kind === 'deleted') {
          const table = await tableAt(state.k, toSeq);
          steps.push({ branchId: point.branchId, seq: toSeq, change: 'DELETED', rowId: state.rowId, table, doc: null, actor: last.actor });
          continue;
        }
      }
    }
    const step = { branchId: point.branchId, seq: fromSeq, rowId: state.rowId, doc: version, actor: (version.actor as string | null) ?? null };
    if (older !== undefined && older.tombstone !== true && (older.toSeq as number) === fromSeq) {
      if (!jsonDeepEqual(older.data, version.data)) steps.push({ ...step, change: 'UPDATED', table: await tableAt(state.k, fromSeq) });
      state = olderVersions;
      continue;
    }
    const renamed = (await reader.marksOf(point.branchId, fromSeq, tableKey, state.rowId)).filter((mark) => mark.kind === 'renamed').at(-1);
    const table = await tableAt(state.k, fromSeq);
    if (renamed?.previousRowId != null) {
      steps.push({ ...step, change: 'RENAMED', table });
      state = { ...olderVersions, rowId: renamed.previousRowId };
      continue;
    }
    if (older === undefined && state.k + 1 < chain.length) {
      // The branch's first version of this id: an update when the branch below had the row at the fork.
      const below = (await reader.visibleRows({ layers: chain.slice(state.k + 1) }, tableKey, [state.rowId])).get(state.rowId);
      if (below !== undefined) {
        if (!jsonDeepEqual(below.data, version.data)) steps.push({ ...step, change: 'UPDATED', table });
        state = nextBranch();
        continue;
      }
    }
    steps.push({ ...step, change: 'CREATED', table });
    state = ended(chain, state.rowId);
  }
  return { steps, after };
}

/**
 * The table's version in a revision of `chain[k]`'s branch (its id then), resolved through the layers below it; a
 * deleted table: its last version before. Each branch's versions of the table are read once.
 */
function tableResolver(reader: ChangeReader, chain: readonly RevisionPoint[], tableKey: string): (k: number, seq: number) => Promise<TableVersion> {
  const versions = new Map<string, Promise<ViewDoc[]>>();
  const versionsOf = (branchId: string): Promise<ViewDoc[]> => {
    let pending = versions.get(branchId);
    if (pending === undefined) versions.set(branchId, (pending = reader.tableVersions(branchId, tableKey)));
    return pending;
  };
  const validAt = (docs: readonly ViewDoc[], seq: number) => docs.filter((doc) => (doc.fromSeq as number) <= seq && seq < (doc.toSeq as number));
  async function resolveAt(k: number, seq: number): Promise<ViewDoc | undefined> {
    const layers = chain.slice(k).map((point, i) => (i === 0 ? { branchId: point.branchId, seq } : point));
    const perLayer = await Promise.all(layers.map(async (layer) => validAt(await versionsOf(layer.branchId), layer.seq)));
    return resolveTableLayers(perLayer)[0];
  }
  return async function tableAt(k, seq) {
    const visible = await resolveAt(k, seq);
    if (visible !== undefined) return tableVersion(visible);
    const point = chain[k] as RevisionPoint;
    const earlier = (await versionsOf(point.branchId))
      .filter((doc) => doc.tombstone !== true && (doc.fromSeq as number) <= seq)
      .sort((a, b) => (b.fromSeq as number) - (a.fromSeq as number))[0];
    const before = earlier === undefined ? undefined : await resolveAt(k, earlier.fromSeq as number);
    if (before !== undefined) return tableVersion(before);
    invariant(k + 1 < chain.length, `table ${tableKey} has a version in the revision's ancestry`);
    return tableAt(k + 1, (chain[k + 1] as RevisionPoint).seq);
  };
}
