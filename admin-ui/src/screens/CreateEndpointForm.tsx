import { useState, type FormEvent } from 'react';
import { BRANCH_FIELDS, REVISION_FIELDS } from '../api/fragments.ts';
import type { Branch, Connection, EndpointType, RevisionSummary } from '../api/types.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { useLoad } from '../app/useLoad.ts';
import { Select } from '../components/Fields.tsx';
import { Async, ErrorBox, Notice } from '../components/Status.tsx';

const BRANCHES = `query EndpointBranches($data: GetBranchesInput!) { branches(data: $data) { edges { node { ${BRANCH_FIELDS} } } } }`;
const REVISIONS = `query PinnableRevisions($data: GetRevisionsInput!) { revisions(data: $data) { edges { node { ${REVISION_FIELDS} } } } }`;
const CREATE_ENDPOINT = `mutation CreateEndpoint($data: CreateEndpointInput!) { createEndpoint(data: $data) { id path } }`;

type Mode = 'head' | 'draft' | 'pinned';

/**
 * createEndpoint takes a revision and derives the mode from it (domain.md §1): the branch's HEAD → head, its draft
 * → draft, any other committed revision → pinned.
 */
export function CreateEndpointForm({ org, project, onCreated }: { readonly org: string; readonly project: string; readonly onCreated: () => void }) {
  const api = useApi();
  const action = useAction();
  const [branchName, setBranchName] = useState('');
  const [type, setType] = useState<EndpointType>('GRAPHQL');
  const [mode, setMode] = useState<Mode>('head');
  const [pinned, setPinned] = useState('');
  const [created, setCreated] = useState<string | null>(null);
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
      mode !== 'pinned' || !branch
        ? Promise.resolve([])
        : api
            .graphql<{ revisions: Connection<RevisionSummary> }>(REVISIONS, {
              data: { organizationId: org, projectName: project, branchName: branch.name, first: 100 },
            })
            .then((d) => d.revisions.edges.map((e) => e.node).filter((r) => !r.isDraft && !r.isHead)),
    [org, project, branch?.name, mode],
  );
  const pinnedId = pinned || (revisions.status === 'ready' ? (revisions.data[0]?.id ?? '') : '');
  const revisionId = !branch ? '' : mode === 'head' ? branch.headRevisionId : mode === 'draft' ? branch.draftRevisionId : pinnedId;

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setCreated(null);
    const done = await action.run(() => api.graphql<{ createEndpoint: { path: string } }>(CREATE_ENDPOINT, { data: { revisionId, type } }));
    if (done) {
      setCreated(done.createEndpoint.path);
      onCreated();
    }
  };

  return (
    <form className="card form" onSubmit={(event) => void submit(event)} aria-labelledby="create-endpoint-title">
      <h2 id="create-endpoint-title">Create an endpoint</h2>
      <Async value={branches} what="branches">
        {(list) => (
          <div className="form-row">
            <Select
              label="Branch"
              value={branch?.name ?? ''}
              onChange={(value) => {
                setBranchName(value);
                setPinned('');
              }}
              options={list.map((b) => ({ value: b.name, label: b.name }))}
            />
            <Select
              label="API type"
              value={type}
              onChange={(value) => setType(value as EndpointType)}
              options={[
                { value: 'GRAPHQL', label: 'GraphQL' },
                { value: 'REST_API', label: 'REST + OpenAPI' },
              ]}
            />
            <Select
              label="Serves"
              value={mode}
              onChange={(value) => setMode(value as Mode)}
              options={[
                { value: 'head', label: 'HEAD (read-only, follows commits)' },
                { value: 'draft', label: 'Draft (read and write)' },
                { value: 'pinned', label: 'A pinned revision (read-only)' },
              ]}
            />
            {mode === 'pinned' && (
              <Async value={revisions} what="revisions">
                {(list) =>
                  list.length === 0 ? (
                    <p className="hint">This branch has no older committed revision to pin (HEAD is served by a head endpoint).</p>
                  ) : (
                    <Select
                      label="Revision"
                      value={pinnedId}
                      onChange={setPinned}
                      options={list.map((r) => ({ value: r.id, label: `#${r.sequence}${r.comment ? ` · ${r.comment}` : ''}` }))}
                    />
                  )
                }
              </Async>
            )}
          </div>
        )}
      </Async>
      {action.error !== null && <ErrorBox error={action.error} />}
      {created && (
        <Notice kind="success">
          Endpoint created at <code>{created}</code>.
        </Notice>
      )}
      <button type="submit" className="primary" disabled={action.busy || revisionId === ''}>
        Create endpoint
      </button>
    </form>
  );
}
