import { useState, type FormEvent } from 'react';
import { BranchesDocument, RevisionsDocument } from '../../api/generated/operations.ts';
import type { ScreenProps } from '../../app/navigation.ts';
import { useOperation } from '../../app/queries.ts';
import { queryKeys } from '../../app/queryKeys.ts';
import { Link } from '../../app/router.tsx';
import { Select } from '../../components/Fields.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { Async, Empty } from '../../components/Status.tsx';
import { revisionOptionLabel } from '../RevisionPicker.tsx';
import { addressOf, revisionPath, useRevisionContext } from '../revisionContext.ts';
import { MergeWorkspace } from './MergeWorkspace.tsx';

/**
 * *Merge into this branch…* (merge.md §7): pick a source (another branch and one of its committed revisions, its
 * HEAD by default), then preview, resolve and apply in MergeWorkspace.
 */
export function MergePage({ params }: ScreenProps) {
  const address = { ...addressOf(params), rev: 'draft' };
  const context = useRevisionContext(address);
  const [source, setSource] = useState<string | null>(null);
  return (
    <>
      <PageTitle title={`Merge into ${address.branch}`}>
        <Link to={revisionPath(address)} className="button-link">
          Back to {address.branch}
        </Link>
      </PageTitle>
      <p className="meta">The source’s changes since its common ancestor with this branch become changes of the draft, to review and commit.</p>
      <Async value={context} what="the branch">
        {(ctx) => (
          <>
            <SourceForm org={address.org} project={address.project} target={address.branch} onPreview={setSource} />
            {source !== null && (
              <MergeWorkspace key={source} address={address} draftRevisionId={ctx.branch.draftRevisionId} sourceRevisionId={source} />
            )}
          </>
        )}
      </Async>
    </>
  );
}

type SourceFormProps = { readonly org: string; readonly project: string; readonly target: string; readonly onPreview: (revisionId: string) => void };

function SourceForm({ org, project, target, onPreview }: SourceFormProps) {
  const [branchName, setBranchName] = useState('');
  const [revisionId, setRevisionId] = useState('');
  const branches = useOperation(
    queryKeys.project(org, project),
    BranchesDocument,
    { data: { organizationId: org, projectName: project, first: 100 } },
    { select: (d) => d.branches.edges.map((e) => e.node).filter((b) => b.name !== target) },
  );
  const branch = branches.status === 'success' ? (branches.data.find((b) => b.name === branchName) ?? branches.data[0]) : undefined;
  const revisions = useOperation(
    queryKeys.project(org, project),
    RevisionsDocument,
    { data: { organizationId: org, projectName: project, branchName: branch?.name ?? '', first: 100 } },
    { enabled: branch !== undefined, select: (d) => d.revisions.edges.map((e) => e.node).filter((r) => !r.isDraft) },
  );
  const chosen = revisionId || (revisions.status === 'success' ? (revisions.data[0]?.id ?? '') : '');
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (chosen) onPreview(chosen);
  };
  return (
    <Async value={branches} what="branches">
      {(list) =>
        list.length === 0 ? (
          <Empty>This project has no other branch to merge from.</Empty>
        ) : (
          <form className="card form" onSubmit={submit} aria-labelledby="merge-source-title">
            <h2 id="merge-source-title">Source</h2>
            <div className="form-row">
              <Select
                label="Source branch"
                value={branch?.name ?? ''}
                onChange={(name) => {
                  setBranchName(name);
                  setRevisionId('');
                }}
                options={list.map((b) => ({ value: b.name, label: b.name }))}
              />
              <Select
                label="Source revision"
                value={chosen}
                onChange={setRevisionId}
                disabled={revisions.status !== 'success'}
                options={
                  revisions.status === 'success'
                    ? revisions.data.map((r) => ({ value: r.id, label: revisionOptionLabel(r) }))
                    : [{ value: '', label: 'Loading revisions…' }]
                }
              />
              <button type="submit" className="primary" disabled={!chosen}>
                Preview merge
              </button>
            </div>
          </form>
        )
      }
    </Async>
  );
}
