import { useState, type FormEvent } from 'react';
import { CreateEndpointDocument } from '../api/generated/operations.ts';
import type { EndpointType } from '../api/types.ts';
import { projectContentKeys, useInvalidate } from '../app/queries.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { Select } from '../components/Fields.tsx';
import { Async, ErrorBox, Notice } from '../components/Status.tsx';
import { useRevisionPicker } from './useRevisionPicker.ts';

type Mode = 'head' | 'draft' | 'pinned';

/**
 * createEndpoint takes a revision and derives the mode from it (domain.md §1): the branch's HEAD → head, its draft
 * → draft, any other committed revision → pinned.
 */
export function CreateEndpointForm({ org, project }: { readonly org: string; readonly project: string }) {
  const api = useApi();
  const invalidate = useInvalidate();
  const action = useAction();
  const [type, setType] = useState<EndpointType>('GRAPHQL');
  const [mode, setMode] = useState<Mode>('head');
  const [created, setCreated] = useState<string | null>(null);
  const picker = useRevisionPicker(org, project, { revisionsWanted: mode === 'pinned', keep: (r) => !r.isDraft && !r.isHead });
  const { branch } = picker;
  const revisionId = !branch ? '' : mode === 'head' ? branch.headRevisionId : mode === 'draft' ? branch.draftRevisionId : picker.revisionId;

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setCreated(null);
    const done = await action.run(() => api.request(CreateEndpointDocument, { data: { revisionId, type } }));
    if (done) {
      await invalidate(...projectContentKeys(org, project));
      setCreated(done.createEndpoint.path);
    }
  };

  return (
    <form className="card form" onSubmit={(event) => void submit(event)} aria-labelledby="create-endpoint-title">
      <h2 id="create-endpoint-title">Create an endpoint</h2>
      <Async value={picker.branches} what="branches">
        {(list) => (
          <div className="form-row">
            <Select
              label="Branch"
              value={branch?.name ?? ''}
              onChange={picker.chooseBranch}
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
              <Async value={picker.revisions} what="revisions">
                {(list) =>
                  list.length === 0 ? (
                    <p className="hint">This branch has no older committed revision to pin (HEAD is served by a head endpoint).</p>
                  ) : (
                    <Select
                      label="Revision"
                      value={picker.revisionId}
                      onChange={picker.chooseRevision}
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
