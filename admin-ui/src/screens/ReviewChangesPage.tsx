import { useState, type FormEvent } from 'react';
import type { RevisionChanges } from '../api/changeTypes.ts';
import { CommitDocument } from '../api/generated/operations.ts';
import type { ScreenProps } from '../app/navigation.ts';
import { projectContentKeys, useInvalidate } from '../app/queries.ts';
import { Link, useLocation } from '../app/router.tsx';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { TextField } from '../components/Fields.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { Async, ErrorBox, Notice } from '../components/Status.tsx';
import { ChangesView } from './ChangesView.tsx';
import { compareLink } from './ComparePage.tsx';
import { addressOf, revisionPath, useRevisionContext, type RevisionAddress, type RevisionContext } from './revisionContext.ts';

/**
 * "Review changes": the changes of a revision against its default base (changes.md §1) — for the draft what a
 * commit would record, with a commit form; for a committed revision what it changed against its parent.
 */
export function ReviewChangesPage({ params }: ScreenProps) {
  const address = addressOf(params);
  const { search } = useLocation();
  const context = useRevisionContext(address);
  const draft = address.rev === 'draft';
  const tableLink = (tableId: string): string => `${revisionPath(address, 'changes')}?table=${encodeURIComponent(tableId)}`;
  return (
    <>
      <PageTitle title={draft ? 'Review changes' : 'Revision changes'}>
        <Link to={revisionPath(address)} className="button-link">
          Back to {address.branch}
        </Link>
      </PageTitle>
      <Async value={context} what="the revision">
        {(ctx) => (
          <>
            {ctx.editable && <CommitForm address={address} context={ctx} />}
            <ChangesView
              revisionId={ctx.revision.id}
              selectedTable={search.get('table')}
              tableLink={tableLink}
              rowLinks={(table, change) => {
                if (table.change === 'REMOVED') return { row: null, history: null };
                const row = revisionPath(address, 'table', table.tableId, 'row', change.rowId);
                // The revision descends from its default base, so a removed row's history is readable here by its
                // last id (changes.md §2).
                return { row: change.change === 'REMOVED' ? null : row, history: `${row}/history` };
              }}
            >
              {(changes) => <BaseLine address={address} context={ctx} changes={changes} />}
            </ChangesView>
          </>
        )}
      </Async>
    </>
  );
}

function BaseLine({
  address,
  context,
  changes,
}: {
  readonly address: RevisionAddress;
  readonly context: RevisionContext;
  readonly changes: RevisionChanges;
}) {
  const { branch, revision } = context;
  const name = revision.isDraft ? `The draft of ${branch.name}` : `Revision #${revision.sequence} of ${branch.name}`;
  let base = 'nothing (the project’s first revision)';
  if (changes.compareWith === branch.headRevisionId) base = `HEAD #${branch.head.sequence}`;
  else if (changes.compareWith) base = revision.isStart ? 'the revision the branch was created from' : 'its parent revision';
  return (
    <p className="meta">
      {name} compared with {base}.{' '}
      {changes.compareWith && (
        <Link
          to={compareLink(address.org, address.project, {
            target: { branch: branch.name, revisionId: revision.id },
            base: { branch: revision.isStart && branch.parent ? branch.parent.branchName : branch.name, revisionId: changes.compareWith },
          })}
        >
          Compare with another revision
        </Link>
      )}
    </p>
  );
}

type CommitFormProps = { readonly address: RevisionAddress; readonly context: RevisionContext };

/** Commit from the review: the draft becomes a new HEAD with the comment, and the review shows the clean draft. */
function CommitForm({ address, context }: CommitFormProps) {
  const api = useApi();
  const invalidate = useInvalidate();
  const action = useAction();
  const [comment, setComment] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const hasChanges = context.revision.hasChanges;
  const commit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setNotice(null);
    const data = { organizationId: address.org, projectName: address.project, branchName: address.branch, comment: comment.trim() };
    const done = await action.run(() => api.request(CommitDocument, { data }));
    if (done) {
      await invalidate(...projectContentKeys(address.org, address.project));
      setComment('');
      setNotice(`Committed revision #${done.createRevision.sequence}.`);
    }
  };
  return (
    <form className="card form" onSubmit={(event) => void commit(event)} aria-labelledby="review-commit-title">
      <h2 id="review-commit-title">Commit these changes</h2>
      <p className="meta">{hasChanges ? 'Check the changes below, then commit them as a new revision.' : 'The draft has no changes since HEAD.'}</p>
      <div className="form-row">
        <TextField label="Commit comment" value={comment} onChange={setComment} maxLength={1000} disabled={!hasChanges || action.busy} />
        <button type="submit" className="primary" disabled={action.busy || !hasChanges}>
          Commit
        </button>
      </div>
      {notice && <Notice kind="success">{notice}</Notice>}
      {action.error !== null && <ErrorBox error={action.error} />}
    </form>
  );
}
