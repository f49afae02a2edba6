import { useState } from 'react';
import { BRANCH_FIELDS, REVISION_FIELDS } from '../api/fragments.ts';
import type { Branch, Connection, RevisionSummary } from '../api/types.ts';
import { useApi } from '../app/session.tsx';
import { useLoad } from '../app/useLoad.ts';

const BRANCHES = `query PickerBranches($data: GetBranchesInput!) { branches(data: $data) { edges { node { ${BRANCH_FIELDS} } } } }`;
const REVISIONS = `query PickerRevisions($data: GetRevisionsInput!) { revisions(data: $data) { edges { node { ${REVISION_FIELDS} } } } }`;

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
  const api = useApi();
  const [branchName, setBranchName] = useState('');
  const [revisionId, setRevisionId] = useState('');
  const [branches] = useLoad(
    () =>
      api
        .graphql<{ branches: Connection<Branch> }>(BRANCHES, { data: { organizationId: org, projectName: project, first: 100 } })
        .then((d) => d.branches.edges.map((e) => e.node)),
    [org, project],
  );
  const branch = branches.status === 'ready' ? (branches.data.find((b) => b.name === branchName) ?? branches.data[0]) : undefined;
  const [revisions] = useLoad(
    () =>
      !revisionsWanted || !branch
        ? Promise.resolve([])
        : api
            .graphql<{ revisions: Connection<RevisionSummary> }>(REVISIONS, {
              data: { organizationId: org, projectName: project, branchName: branch.name, first: 100 },
            })
            .then((d) => d.revisions.edges.map((e) => e.node).filter(keep)),
    [org, project, branch?.name, revisionsWanted],
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
    revisionId: revisionId || (revisions.status === 'ready' ? (revisions.data[0]?.id ?? '') : ''),
    chooseRevision: setRevisionId,
  };
}
