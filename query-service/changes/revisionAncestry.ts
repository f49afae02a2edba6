import { invariant, revisionLayers } from '../../contracts/index.ts';
import type { RevisionRecord, SystemState, VersionLayer } from '../../contracts/index.ts';

/** A revision as a place in the versioned views: sequence `seq` of branch `branchId` (a layer of its content). */
export type RevisionPoint = VersionLayer;

/**
 * Sequences `after < s <= upTo` of one branch: the versions that start or end in them (and the row marks of those
 * revisions) are the changes made there.
 */
export type Segment = { readonly branchId: string; readonly after: number; readonly upTo: number };

/** The revision, then the revision its branch was created from, and so on up to the project's root branch. */
export function ancestryOf(state: SystemState, revision: RevisionRecord): RevisionPoint[] {
  return revisionLayers(state, revision);
}

/**
 * Default base of changes.md §1: the previous revision of the branch (HEAD for a draft, the parent for a commit);
 * for a start revision the revision its branch was created from; null for the root branch's start revision.
 */
export function defaultBaseOf(state: SystemState, revision: RevisionRecord): RevisionRecord | null {
  const branch = state.branches.get(revision.branchId);
  invariant(branch, `branch ${revision.branchId} is known`);
  const id = revision.seq > 0 ? branch.revisionIds[revision.seq - 1] : branch.parent?.revisionId;
  if (id === undefined) return null;
  return state.revisions.get(id) ?? null;
}

/** Whether `candidate` is `revision` or one of its ancestors (parents, then the source of a branch creation). */
export function isAncestorOrSelf(state: SystemState, candidate: RevisionRecord, revision: RevisionRecord): boolean {
  return ancestryOf(state, revision).some((point) => point.branchId === candidate.branchId && candidate.seq <= point.seq);
}

/**
 * The segments changed between a common ancestor C of `base` and `target` and each of them: `toTarget` in the order
 * the changes happened (C first), `toBase` likewise. Changes outside them are shared by both revisions.
 */
export function diffPaths(
  state: SystemState,
  target: RevisionRecord,
  base: RevisionRecord,
): { readonly toTarget: Segment[]; readonly toBase: Segment[] } {
  const targetChain = ancestryOf(state, target);
  const baseChain = ancestryOf(state, base);
  for (let j = 0; j < baseChain.length; j++) {
    const shared = baseChain[j] as RevisionPoint;
    const i = targetChain.findIndex((point) => point.branchId === shared.branchId);
    if (i === -1) continue;
    const common = Math.min(shared.seq, (targetChain[i] as RevisionPoint).seq);
    return { toTarget: pathFrom(targetChain, i, common), toBase: pathFrom(baseChain, j, common) };
  }
  invariant(false, 'revisions of one project share the root branch');
}

/** Segments from sequence `common` of `chain[shared]`'s branch down to `chain[0]`, oldest first. */
function pathFrom(chain: readonly RevisionPoint[], shared: number, common: number): Segment[] {
  const segments: Segment[] = [];
  for (let k = shared; k >= 0; k--) {
    const point = chain[k] as RevisionPoint;
    // A branch's own changes start after its sequence 0 (the start revision holds the source's content).
    const after = k === shared ? common : 0;
    if (point.seq > after) segments.push({ branchId: point.branchId, after, upTo: point.seq });
  }
  return segments;
}
