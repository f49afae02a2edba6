import { invariant } from '../errors/appError.ts';
import type { VersionLayer } from '../ports/viewStore.ts';
import type { RevisionRecord } from '../state/systemRecords.ts';
import type { SystemState } from '../state/systemState.ts';

/**
 * The layers a revision's content is read through (docs/reference/versioned-storage.md §1): the revision's own
 * branch at its sequence, then the branch it was created from at the source revision's sequence, and so on up to
 * the project's root branch. The branch tree never changes after creation, so neither do a revision's layers.
 */
export function revisionLayers(
  state: Pick<SystemState, 'branches' | 'revisions'>,
  revision: Pick<RevisionRecord, 'branchId' | 'seq'>,
): VersionLayer[] {
  const chain: VersionLayer[] = [{ branchId: revision.branchId, seq: revision.seq }];
  for (;;) {
    const last = chain[chain.length - 1] as VersionLayer;
    const parent = state.branches.get(last.branchId)?.parent ?? null;
    if (parent === null) return chain;
    const source = state.revisions.get(parent.revisionId);
    invariant(source, `source revision ${parent.revisionId} is known`);
    chain.push({ branchId: source.branchId, seq: source.seq });
  }
}

/** The same layers read at another sequence of the top branch (the branch's HEAD, a later revision). */
export function layersAt(layers: readonly VersionLayer[], seq: number): VersionLayer[] {
  const [top, ...below] = layers;
  invariant(top, 'a revision has at least one layer');
  return [{ branchId: top.branchId, seq }, ...below];
}
