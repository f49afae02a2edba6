import { RestoreRevisionDocument } from '../../api/generated/operations.ts';
import type { ScreenProps } from '../../app/navigation.ts';
import { projectContentKeys, useInvalidate } from '../../app/queries.ts';
import { Link, useLocation, useNavigation } from '../../app/router.tsx';
import { useApi } from '../../app/session.tsx';
import { useAction } from '../../app/useAction.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { Async, ErrorBox } from '../../components/Status.tsx';
import { ChangesView } from '../ChangesView.tsx';
import { addressOf, revisionPath, useRevisionContext, type RevisionAddress, type RevisionContext } from '../revisionContext.ts';

/**
 * *Restore this revision…* (merge.md §4, §7): the diff the restore makes (the chosen revision compared with the
 * branch's draft), then the restore itself, after which Review changes shows it on the draft.
 */
export function RestorePage({ params }: ScreenProps) {
  const address = addressOf(params);
  const { search } = useLocation();
  const context = useRevisionContext(address);
  return (
    <>
      <PageTitle title="Restore a revision">
        <Link to={revisionPath(address)} className="button-link">
          Back to the revision
        </Link>
      </PageTitle>
      <Async value={context} what="the revision">
        {(ctx) =>
          ctx.revision.isDraft ? (
            <p className="meta">The draft is already the branch’s current content; pick a committed revision in the history.</p>
          ) : (
            <>
              <RestoreBar address={address} context={ctx} />
              <ChangesView
                revisionId={ctx.revision.id}
                compareWith={ctx.branch.draftRevisionId}
                selectedTable={search.get('table')}
                tableLink={(tableId) => `${revisionPath(address, 'restore')}?table=${encodeURIComponent(tableId)}`}
                rowLinks={(table, change) => {
                  if (table.change === 'REMOVED' || change.change === 'REMOVED') return { row: null, history: null };
                  return { row: revisionPath(address, 'table', table.tableId, 'row', change.rowId), history: null };
                }}
              />
            </>
          )
        }
      </Async>
    </>
  );
}

function RestoreBar({ address, context }: { readonly address: RevisionAddress; readonly context: RevisionContext }) {
  const api = useApi();
  const navigation = useNavigation();
  const invalidate = useInvalidate();
  const action = useAction();
  const name = `#${context.revision.sequence}`;
  const restore = async (): Promise<void> => {
    const data = { organizationId: address.org, projectName: address.project, branchName: address.branch, revisionId: context.revision.id };
    const done = await action.run(() => api.request(RestoreRevisionDocument, { data }));
    if (done) {
      await invalidate(...projectContentKeys(address.org, address.project));
      navigation.navigate(revisionPath({ ...address, rev: 'draft' }, 'changes'));
    }
  };
  return (
    <section className="card" aria-labelledby="restore-title">
      <h2 id="restore-title">Restore revision {name}</h2>
      <p className="meta">
        The draft of {address.branch} becomes equal to revision {name} ({context.revision.comment || 'no comment'}). Below is what changes in the
        draft: the revision compared with the draft as it is now. Review and commit afterwards.
      </p>
      {action.error !== null && <ErrorBox error={action.error} />}
      <ConfirmButton
        label="Restore this revision"
        title={`Restore revision ${name}?`}
        confirmLabel="Restore"
        disabled={action.busy}
        onConfirm={restore}
      >
        <p>
          Every table and row of the draft of {address.branch} is set to its content in revision {name}. Uncommitted changes of the draft are
          replaced; the draft can still be reverted to HEAD.
        </p>
      </ConfirmButton>
    </section>
  );
}
