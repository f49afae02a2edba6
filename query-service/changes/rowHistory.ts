import { jsonDeepEqual } from '../../contracts/index.ts';
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
 * were created from), following renames back through the `row_marks`. Each step reads at most two versions of one
 * id through the `rows` key, so a page costs what it lists, however long the history. Returns up to `limit` steps
 * and the state after each (`k === chain.length` once the row's creation was reached).
 */
export async function walkRowHistory(
  reader: ChangeReader,
  chain: readonly RevisionPoint[],
  tableKey: string,
  start: HistoryState,
  limit: number,
): Promise<{ steps: HistoryStep[]; after: HistoryState[] }> {
  const tables = new Map<string, ViewDoc[]>();
  /** The table's version in a revision of the branch (its id then); a deleted table: its last version before. */
  async function tableAt(branchId: string, seq: number): Promise<TableVersion> {
    let versions = tables.get(branchId);
    if (versions === undefined) {
      versions = await reader.tableVersions(branchId, tableKey);
      tables.set(branchId, versions);
    }
    const from = (doc: ViewDoc) => doc.fromSeq as number;
    const visible =
      versions.find((doc) => from(doc) <= seq && seq < (doc.toSeq as number)) ??
      versions.filter((doc) => from(doc) <= seq).sort((a, b) => from(b) - from(a))[0] ??
      versions[0];
    return tableVersion(visible as ViewDoc);
  }

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
    if (!state.deletionDone) {
      state = { ...state, deletionDone: true };
      if (toSeq <= point.seq && toSeq !== state.newerFromSeq) {
        const last = (await reader.marksOf(point.branchId, toSeq, tableKey, state.rowId)).at(-1);
        if (last?.kind === 'deleted') {
          const table = await tableAt(point.branchId, toSeq);
          steps.push({ branchId: point.branchId, seq: toSeq, change: 'DELETED', rowId: state.rowId, table, doc: null, actor: last.actor });
          continue;
        }
      }
    }
    // A version at sequence 0 of a branch is the content it was created with: the history goes on in the source.
    if (fromSeq === 0) {
      state = nextBranch();
      continue;
    }
    const step = { branchId: point.branchId, seq: fromSeq, rowId: state.rowId, doc: version, actor: (version.actor as string | null) ?? null };
    const olderVersions = { k: state.k, maxFromSeq: fromSeq - 1, newerFromSeq: fromSeq, deletionDone: false };
    if (older !== undefined && (older.toSeq as number) === fromSeq) {
      if (!jsonDeepEqual(older.data, version.data)) steps.push({ ...step, change: 'UPDATED', table: await tableAt(point.branchId, fromSeq) });
      state = { ...olderVersions, rowId: state.rowId };
      continue;
    }
    const renamed = (await reader.marksOf(point.branchId, fromSeq, tableKey, state.rowId)).filter((mark) => mark.kind === 'renamed').at(-1);
    const table = await tableAt(point.branchId, fromSeq);
    if (renamed?.previousRowId != null) {
      steps.push({ ...step, change: 'RENAMED', table });
      state = { ...olderVersions, rowId: renamed.previousRowId };
      continue;
    }
    steps.push({ ...step, change: 'CREATED', table });
    state = ended(chain, state.rowId);
  }
  return { steps, after };
}
