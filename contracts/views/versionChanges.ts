import { fieldsEqual } from '../ports/viewStore.ts';
import type { Filter, ViewChange } from '../ports/viewStore.ts';
import { and, compare } from './projectionSupport.ts';
import { OPEN_SEQ } from './viewSpecs.ts';

/**
 * View changes on versioned documents (table and row versions, contracts/views/viewSpecs.ts): a version is visible
 * in sequence `s` of its branch iff `fromSeq <= s < toSeq`. `scope` selects the versions of one entity (or of
 * several, with an `in` filter); `draftSeq` is the draft's sequence D. None of them reads the view.
 */
export function closeShared(collection: string, scope: Filter, draftSeq: number): ViewChange {
  return {
    op: 'update',
    collection,
    filter: and(scope, compare('fromSeq', 'lt', draftSeq), fieldsEqual({ toSeq: OPEN_SEQ })),
    set: { toSeq: draftSeq },
  };
}

/** Copies the shared version still open in the draft to a draft version (`fromSeq = D`), then closes it at D. */
export function forkShared(collection: string, scope: Filter, draftSeq: number): ViewChange[] {
  return [
    {
      op: 'copy',
      collection,
      filter: and(scope, compare('fromSeq', 'lt', draftSeq), fieldsEqual({ toSeq: OPEN_SEQ })),
      set: { fromSeq: draftSeq },
    },
    closeShared(collection, scope, draftSeq),
  ];
}

export function deleteDraftVersions(collection: string, scope: Filter, draftSeq: number): ViewChange {
  return { op: 'delete', collection, filter: and(scope, fieldsEqual({ fromSeq: draftSeq })) };
}

/** Makes versions closed by the draft visible again in the draft (and later revisions). */
export function reopenClosed(collection: string, scope: Filter, draftSeq: number): ViewChange {
  return { op: 'update', collection, filter: and(scope, fieldsEqual({ toSeq: draftSeq })), set: { toSeq: OPEN_SEQ } };
}

/** The draft shows the HEAD versions again: drop the draft versions, reopen the closed shared ones. */
export function restoreShared(collection: string, scope: Filter, draftSeq: number): ViewChange[] {
  return [deleteDraftVersions(collection, scope, draftSeq), reopenClosed(collection, scope, draftSeq)];
}

/** The entity disappears from the draft: drop its draft versions, close its shared version at D. */
export function removeFromDraft(collection: string, scope: Filter, draftSeq: number): ViewChange[] {
  return [deleteDraftVersions(collection, scope, draftSeq), closeShared(collection, scope, draftSeq)];
}
