import { AppError } from '../../contracts/index.ts';
import type { DomainEvent } from '../../contracts/index.ts';
import { draftHasChanges, type BranchContent } from './branchContent.ts';
import type { BranchCommandData, BranchCommandMetadata } from './branchCommand.ts';

/** NO_CHANGES unless the draft differs from HEAD. */
function assertHasChanges(state: BranchContent): void {
  if (!draftHasChanges(state)) throw new AppError('NO_CHANGES', 'There are no changes');
}

/** A table-scoped key may only commit or revert a draft whose changes stay inside its tables (old and new ids). */
function assertChangesInScope(state: BranchContent, meta: BranchCommandMetadata): void {
  for (const [tableKey, overlay] of state.draft) {
    for (const tableId of [overlay?.tableId, state.head.get(tableKey)?.tableId]) {
      if (tableId !== undefined && !meta.tableInScope(tableId)) {
        throw new AppError('API_KEY_SCOPE', `API key scope does not allow access to table "${tableId}" changed in the draft`);
      }
    }
  }
}

/** Commit (domain.md §3.3): the draft becomes HEAD with the same id; a new draft (meta.newId) opens. */
export function decideCommit(state: BranchContent, data: BranchCommandData['CreateRevision'], meta: BranchCommandMetadata): DomainEvent[] {
  assertHasChanges(state);
  assertChangesInScope(state, meta);
  const seq = state.headSeq + 1;
  return [
    {
      type: 'RevisionCommitted',
      data: {
        projectId: meta.projectId,
        revisionId: state.draftRevisionId,
        seq,
        comment: data.comment,
        newDraftRevisionId: meta.newId,
        newDraftSeq: seq + 1,
      },
    },
  ];
}

/** Revert (domain.md §3.4): the draft's content becomes HEAD's again; the draft keeps its id. */
export function decideRevert(state: BranchContent, meta: BranchCommandMetadata): DomainEvent[] {
  assertHasChanges(state);
  assertChangesInScope(state, meta);
  return [
    {
      type: 'DraftReverted',
      data: { projectId: meta.projectId, draftRevisionId: state.draftRevisionId, draftSeq: state.headSeq + 1 },
    },
  ];
}
