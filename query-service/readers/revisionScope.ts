import { invariant } from '../../contracts/index.ts';
import type { RevisionRecord, SystemState } from '../../contracts/index.ts';

/** Where a revision's content lives in the versioned views, and whether it is its branch's draft. */
export type RevisionScope = {
  readonly revisionId: string;
  readonly branchId: string;
  /** The revision's sequence: versions with fromSeq <= seq < toSeq are its content. */
  readonly seq: number;
  readonly isDraft: boolean;
  /** Sequence of the branch's HEAD (the draft is headSeq + 1). */
  readonly headSeq: number;
};

export function revisionScopeOf(state: SystemState, revision: RevisionRecord): RevisionScope {
  const branch = state.branches.get(revision.branchId);
  invariant(branch, `revision ${revision.id} belongs to a known branch`);
  return {
    revisionId: revision.id,
    branchId: branch.id,
    seq: revision.seq,
    isDraft: branch.draftRevisionId === revision.id,
    headSeq: branch.headSeq,
  };
}
