import { useState, type FormEvent } from 'react';
import { CreateBranchDocument } from '../api/generated/operations.ts';
import type { RevisionSummary } from '../api/types.ts';
import { projectContentKeys, useInvalidate } from '../app/queries.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { Select, TextField } from '../components/Fields.tsx';
import { Async, ErrorBox } from '../components/Status.tsx';
import { useRevisionPicker } from './useRevisionPicker.ts';

function revisionLabel(revision: RevisionSummary): string {
  const when = revision.committedAt ? new Date(revision.committedAt).toLocaleString() : '';
  const what = revision.isHead ? 'HEAD' : revision.isStart ? 'start' : `#${revision.sequence}`;
  return [what, revision.comment, when].filter(Boolean).join(' · ');
}

type CreateBranchProps = { readonly org: string; readonly project: string; readonly onCreated: (branch: string) => void };

/** A new branch starts from a committed revision (a draft is refused by the server: REVISION_IS_DRAFT). */
export function CreateBranchForm({ org, project, onCreated }: CreateBranchProps) {
  const api = useApi();
  const invalidate = useInvalidate();
  const action = useAction();
  const [name, setName] = useState('');
  const picker = useRevisionPicker(org, project, { revisionsWanted: true, keep: (r) => !r.isDraft });
  const chosen = picker.revisionId;

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const branchName = name.trim();
    const done = await action.run(() => api.request(CreateBranchDocument, { data: { revisionId: chosen, branchName } }));
    if (done) {
      await invalidate(...projectContentKeys(org, project));
      onCreated(branchName);
    }
  };

  return (
    <form className="card form" onSubmit={(event) => void submit(event)} aria-labelledby="create-branch-title">
      <h3 id="create-branch-title">Create a branch</h3>
      <Async value={picker.branches} what="branches">
        {(list) => (
          <div className="form-row">
            <Select
              label="From branch"
              value={picker.branch?.name ?? ''}
              onChange={picker.chooseBranch}
              options={list.map((b) => ({ value: b.name, label: b.name }))}
            />
            <Async value={picker.revisions} what="revisions">
              {(list) => (
                <Select
                  label="Committed revision"
                  value={chosen}
                  onChange={picker.chooseRevision}
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
