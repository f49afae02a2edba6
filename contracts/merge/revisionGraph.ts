import { invariant } from '../errors/appError.ts';
import type { SystemState } from '../state/systemState.ts';
import type { RevisionRecord } from '../state/systemRecords.ts';

/**
 * The revision graph of merge.md §1: every revision's parents are the previous revision of its branch (for a start
 * revision, the revision its branch was created from) and the revisions merged into it (`mergedRevisionIds`; for a
 * draft, its pending merges).
 */
export function revisionParents(state: SystemState, revision: RevisionRecord): string[] {
  const parents: string[] = [];
  const branch = state.branches.get(revision.branchId);
  if (branch !== undefined) {
    const previous = revision.seq > 0 ? branch.revisionIds[revision.seq - 1] : branch.parent?.revisionId;
    if (previous !== undefined) parents.push(previous);
  }
  parents.push(...revision.mergedRevisionIds);
  return parents;
}

/** Every revision reachable from `revision` through both kinds of edge, itself included. */
export function ancestorIds(state: SystemState, revision: RevisionRecord): Set<string> {
  const seen = new Set<string>([revision.id]);
  const stack = [revision];
  while (stack.length > 0) {
    const next = stack.pop() as RevisionRecord;
    for (const id of revisionParents(state, next)) {
      if (seen.has(id)) continue;
      seen.add(id);
      const parent = state.revisions.get(id);
      if (parent !== undefined) stack.push(parent);
    }
  }
  return seen;
}

export type MergeBase = {
  /** The base revision (merge.md §1). */
  readonly base: RevisionRecord;
  /** The source is an ancestor of the target (pending merges included): the merge is UP_TO_DATE. */
  readonly upToDate: boolean;
};

/**
 * The base of a merge of `source` into `target` (merge.md §1): the common ancestors that are not an ancestor of
 * another common ancestor; of several (criss-cross merges) the one committed last (then the greater id, so the
 * answer never depends on map order). Cost: one walk of each side's ancestry.
 */
export function mergeBaseOf(state: SystemState, source: RevisionRecord, target: RevisionRecord): MergeBase {
  const ours = ancestorIds(state, target);
  if (ours.has(source.id)) return { base: source, upToDate: true };
  // Walk theirs' ancestry; the first common revision on each path is a candidate and is not expanded, because
  // everything behind a common revision is common too.
  const candidates = new Set<string>();
  const seen = new Set<string>([source.id]);
  const stack = [source];
  while (stack.length > 0) {
    const next = stack.pop() as RevisionRecord;
    for (const id of revisionParents(state, next)) {
      if (seen.has(id)) continue;
      seen.add(id);
      if (ours.has(id)) {
        candidates.add(id);
        continue;
      }
      const parent = state.revisions.get(id);
      if (parent !== undefined) stack.push(parent);
    }
  }
  // A candidate reachable from another candidate is not a best common ancestor.
  const dominated = new Set<string>();
  for (const id of candidates) {
    const record = state.revisions.get(id);
    if (record === undefined || dominated.has(id)) continue;
    for (const ancestor of ancestorIds(state, record)) if (ancestor !== id) dominated.add(ancestor);
  }
  const best = [...candidates]
    .filter((id) => !dominated.has(id))
    .map((id) => state.revisions.get(id))
    .filter((record): record is RevisionRecord => record !== undefined)
    .sort((a, b) => compareCommitted(b, a));
  const base = best[0];
  invariant(base !== undefined, 'revisions of one project share the root branch');
  return { base, upToDate: false };
}

function compareCommitted(a: RevisionRecord, b: RevisionRecord): number {
  const at = a.committedAt ?? '';
  const bt = b.committedAt ?? '';
  if (at !== bt) return at < bt ? -1 : 1;
  if (a.seq !== b.seq && a.branchId === b.branchId) return a.seq - b.seq;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
