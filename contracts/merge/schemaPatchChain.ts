import type { DomainEvent } from '../events/domainEvents.ts';
import { branchStreamId } from '../events/streamIds.ts';
import type { SystemState } from '../state/systemState.ts';
import type { RevisionRecord } from '../state/systemRecords.ts';
import { applySchemaPatch } from '../tables/applySchemaPatch.ts';
import { jsonDeepEqual } from '../tables/jsonValue.ts';
import type { SchemaPatch } from './schemaPatches.ts';

/**
 * A stretch of one branch stream holding the draft events of sequences `afterSeq + 1 … toSeq`: read from stream
 * revision `fromRevision` (inclusive) up to `toRevision` (exclusive; null = up to the end of the stream).
 */
export type PatchSegment = {
  readonly streamId: string;
  readonly afterSeq: number;
  readonly toSeq: number;
  readonly fromRevision: number;
  readonly toRevision: number | null;
};

/**
 * The branch stream stretches that took the content of `base` to `side`, oldest first, when `base` lies on the
 * first-parent line of `side` (the previous revision of its branch, then the revision its branch was created from):
 * a merge commit on that line is fine, its changes are events of the stream like any other. Null when `base` is
 * reached only through a merged revision (or a revision's stream position is unknown): the caller then recomputes
 * patches from the schemas. `draftEnd` bounds a draft side: the branch stream revision the merge read it at.
 * Cost: one step per branch between the two.
 */
export function patchSegments(
  state: SystemState,
  base: RevisionRecord,
  side: RevisionRecord,
  draftEnd: number | 'no_stream' | null,
): PatchSegment[] | null {
  const segments: PatchSegment[] = [];
  let current: RevisionRecord | undefined = side;
  const visited = new Set<string>();
  while (current !== undefined && !visited.has(current.branchId)) {
    visited.add(current.branchId);
    const branch = state.branches.get(current.branchId);
    if (branch === undefined) return null;
    const reachesBase = current.branchId === base.branchId && current.seq >= base.seq;
    const afterSeq = reachesBase ? base.seq : 0;
    if (current.seq > afterSeq) {
      const segment = segmentOf(state, branch.revisionIds, current, afterSeq, draftEnd);
      if (segment === null) return null;
      if (segment !== 'empty') segments.push(segment);
    }
    if (reachesBase) return segments.reverse();
    if (branch.parent === null) return null;
    current = state.revisions.get(branch.parent.revisionId);
  }
  return null;
}

function segmentOf(
  state: SystemState,
  revisionIds: readonly string[],
  to: RevisionRecord,
  afterSeq: number,
  draftEnd: number | 'no_stream' | null,
): PatchSegment | 'empty' | null {
  const after = afterSeq === 0 ? -1 : state.revisions.get(revisionIds[afterSeq] ?? '')?.commitStreamRevision;
  if (after === undefined) return null;
  let toRevision: number | null;
  if (to.committedAt !== null) {
    if (to.commitStreamRevision === undefined) return null;
    toRevision = to.commitStreamRevision;
  } else {
    if (draftEnd === 'no_stream') return 'empty';
    toRevision = draftEnd === null ? null : draftEnd + 1;
  }
  return { streamId: branchStreamId(to.branchId), afterSeq, toSeq: to.seq, fromRevision: after + 1, toRevision };
}

/**
 * What a patch chain needs of one branch event: the patches of a TableSchemaUpdated (with its table key), or a
 * DraftReverted (`tableKey` and `patches` null). The `schemas` projection keeps these by branch stream revision
 * (its `schema_patches` collection), so a merge reads them from the views.
 */
export type PatchEntry = {
  readonly draftSeq: number;
  readonly tableKey: string | null;
  readonly patches: readonly SchemaPatch[] | null;
};

/** The patch entry of `event`, or null for events that no chain reads. */
export function patchEntryOf(event: DomainEvent): PatchEntry | null {
  if (event.type === 'TableSchemaUpdated') {
    return { draftSeq: event.data.draftSeq, tableKey: event.data.tableKey, patches: event.data.patches as readonly SchemaPatch[] };
  }
  if (event.type === 'DraftReverted') return { draftSeq: event.data.draftSeq, tableKey: null, patches: null };
  return null;
}

/**
 * Folds the entries of the segments, in log order, into each table's patch chain by table key: the patches of every
 * TableSchemaUpdated of the segment's drafts, concatenated in order; a DraftReverted drops what its draft had
 * applied (the draft went back to HEAD).
 */
export function createPatchChains() {
  const chains = new Map<string, { seq: number; patches: readonly SchemaPatch[] }[]>();
  return {
    add(segment: PatchSegment, entry: PatchEntry): void {
      const seq = entry.draftSeq;
      if (seq <= segment.afterSeq || seq > segment.toSeq) return;
      if (entry.tableKey === null || entry.patches === null) {
        for (const [key, chain] of chains)
          chains.set(
            key,
            chain.filter((link) => link.seq !== seq),
          );
        return;
      }
      const chain = chains.get(entry.tableKey) ?? [];
      chain.push({ seq, patches: entry.patches });
      chains.set(entry.tableKey, chain);
    },
    /** The table's chain, when it turns `from` into `to` exactly (else null: something changed it beyond its patches). */
    chainOf(tableKey: string, from: Record<string, unknown>, to: Record<string, unknown>): SchemaPatch[] | null {
      const patches = (chains.get(tableKey) ?? []).flatMap((link) => link.patches);
      return verifiedChain(patches, from, to);
    },
  };
}

/**
 * `patches` when applying them to `from` gives `to` (the chain from the log explains the whole schema change),
 * else null: a table rename rewrote a foreign key of this table, a merge took a schema the log holds no patches
 * for, or the chain is longer than one updateTable accepts.
 */
export function verifiedChain(patches: SchemaPatch[], from: Record<string, unknown>, to: Record<string, unknown>): SchemaPatch[] | null {
  if (patches.length === 0) return null;
  try {
    return jsonDeepEqual(applySchemaPatch(from, patches).schema, to) ? patches : null;
  } catch {
    return null;
  }
}
