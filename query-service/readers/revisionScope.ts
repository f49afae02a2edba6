import { invariant, layersAt, revisionLayers } from '../../contracts/index.ts';
import type { RevisionRecord, SystemState, VersionLayer } from '../../contracts/index.ts';

/** Where a revision's content lives in the versioned views, and whether it is its branch's draft. */
export type RevisionScope = {
  readonly revisionId: string;
  readonly branchId: string;
  /** The revision's sequence: versions with fromSeq <= seq < toSeq are its content. */
  readonly seq: number;
  readonly isDraft: boolean;
  /** Sequence of the branch's HEAD (the draft is headSeq + 1). */
  readonly headSeq: number;
  /**
   * The layers its content is read through (docs/reference/versioned-storage.md §1): this branch at `seq`, then the
   * branch it was created from at the source sequence, ... down to the root branch.
   */
  readonly layers: readonly VersionLayer[];
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
    layers: revisionLayers(state, revision),
  };
}

/** The branch's HEAD as seen from `scope` (same layers below the branch). */
export function headScopeOf(scope: RevisionScope): RevisionScope {
  return Object.assign({}, scope, { seq: scope.headSeq, isDraft: false, layers: layersAt(scope.layers, scope.headSeq) });
}

/** Whether a version document was written in this revision's own draft (so it is not shared with HEAD). */
export function isDraftVersion(scope: RevisionScope, doc: { readonly branchId: unknown; readonly fromSeq: unknown }): boolean {
  return scope.isDraft && doc.branchId === scope.branchId && (doc.fromSeq as number) >= scope.seq;
}
