import { useState, type FormEvent } from 'react';
import { REVISION_FIELDS } from '../api/fragments.ts';
import type { Connection, RevisionSummary } from '../api/types.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { useLoad } from '../app/useLoad.ts';
import { Select, TextField } from '../components/Fields.tsx';
import { Async, ErrorBox } from '../components/Status.tsx';

const BRANCH_NAMES = `query BranchNames($data: GetBranchesInput!) { branches(data: $data) { edges { node { name isRoot } } } }`;
const REVISIONS = `query CommittedRevisions($data: GetRevisionsInput!) { revisions(data: $data) { edges { node { ${REVISION_FIELDS} } } } }`;
const CREATE_BRANCH = `mutation CreateBranch($data: CreateBranchInput!) { createBranch(data: $data) { id name } }`;

function revisionLabel(revision: RevisionSummary): string {
  const when = revision.committedAt ? new Date(revision.committedAt).toLocaleString() : '';
  const what = revision.isHead ? 'HEAD' : revision.isStart ? 'start' : `#${revision.sequence}`;
  return [what, revision.comment, when].filter(Boolean).join(' · ');
}

type CreateBranchProps = { readonly org: string; readonly project: string; readonly onCreated: (branch: string) => void };

/** A new branch starts from a committed revision (a draft is refused by the server: REVISION_IS_DRAFT). */
export function CreateBranchForm({ org, project, onCreated }: CreateBranchProps) {
  const api = useApi();
  const action = useAction();
  const [source, setSource] = useState('');
  const [revisionId, setRevisionId] = useState('');
  const [name, setName] = useState('');
  const [branches] = useLoad(
    () =>
      api
        .graphql<{ branches: Connection<{ name: string; isRoot: boolean }> }>(BRANCH_NAMES, { data: { organizationId: org, projectName: project, first: 100 } })
        .then((d) => d.branches.edges.map((e) => e.node.name)),
    [org, project],
  );
  const sourceBranch = source || (branches.status === 'ready' ? (branches.data[0] ?? '') : '');
  const [revisions] = useLoad(
    () =>
      sourceBranch === ''
        ? Promise.resolve([])
        : api
            .graphql<{ revisions: Connection<RevisionSummary> }>(REVISIONS, {
              data: { organizationId: org, projectName: project, branchName: sourceBranch, first: 50 },
            })
            .then((d) => d.revisions.edges.map((e) => e.node).filter((r) => !r.isDraft)),
    [org, project, sourceBranch],
  );
  const chosen = revisionId || (revisions.status === 'ready' ? (revisions.data[0]?.id ?? '') : '');

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const branchName = name.trim();
    const done = await action.run(() => api.graphql(CREATE_BRANCH, { data: { revisionId: chosen, branchName } }));
    if (done) onCreated(branchName);
  };

  return (
    <form className="card form" onSubmit={(event) => void submit(event)} aria-labelledby="create-branch-title">
      <h3 id="create-branch-title">Create a branch</h3>
      <Async value={branches} what="branches">
        {(names) => (
          <div className="form-row">
            <Select
              label="From branch"
              value={sourceBranch}
              onChange={(value) => {
                setSource(value);
                setRevisionId('');
              }}
              options={names.map((n) => ({ value: n, label: n }))}
            />
            <Async value={revisions} what="revisions">
              {(list) => (
                <Select
                  label="Committed revision"
                  value={chosen}
                  onChange={setRevisionId}
                  options={list.map((r) => ({ value: r.id, label: revisionLabel(r) }))}
                />
              )}
            </Async>
            <TextField label="New branch name" value={name} onChange={setName} required maxLength={64} />
          </div>
        )}
      </Async>
      {action.error !== null && <ErrorBox error={action.error} />}
      <button type="submit" disabled={action.busy || name.trim() === '' || chosen === ''}>
        Create branch
      </button>
    </form>
  );
}
