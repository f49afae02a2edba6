import { useState } from 'react';
import { BranchesDocument, RevisionsDocument } from '../api/generated/operations.ts';
import type { RevisionSummary } from '../api/types.ts';
import { useOperation } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';

type PickerOptions = {
  /** Whether the chosen branch's revisions are loaded at all. */
  readonly revisionsWanted: boolean;
  /** Which of the branch's revisions can be chosen. */
  readonly keep: (revision: RevisionSummary) => boolean;
};

/**
 * A branch of the project and one of its revisions, as the create-branch and create-endpoint forms pick them: the
 * first branch and its newest eligible revision until the user chooses; choosing another branch resets the revision.
 */
export function useRevisionPicker(org: string, project: string, { revisionsWanted, keep }: PickerOptions) {
  const [branchName, setBranchName] = useState('');
  const [revisionId, setRevisionId] = useState('');
  const branches = useOperation(
    queryKeys.project(org, project),
    BranchesDocument,
    { data: { organizationId: org, projectName: project, first: 100 } },
    { select: (d) => d.branches.edges.map((e) => e.node) },
  );
  const branch = branches.status === 'success' ? (branches.data.find((b) => b.name === branchName) ?? branches.data[0]) : undefined;
  const revisions = useOperation(
    queryKeys.project(org, project),
    RevisionsDocument,
    { data: { organizationId: org, projectName: project, branchName: branch?.name ?? '', first: 100 } },
    { enabled: revisionsWanted && branch !== undefined, select: (d) => d.revisions.edges.map((e) => e.node).filter(keep) },
  );
  return {
    branches,
    branch,
    chooseBranch(name: string): void {
      setBranchName(name);
      setRevisionId('');
    },
    revisions,
    /** The chosen revision, else the first eligible one ('' while none). */
    revisionId: revisionId || (revisions.status === 'success' ? (revisions.data[0]?.id ?? '') : ''),
    chooseRevision: setRevisionId,
  };
}
