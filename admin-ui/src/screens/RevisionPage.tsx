import { useState, type FormEvent } from 'react';
import type { ApiClient } from '../api/client.ts';
import { transferPaths } from '../api/transferTypes.ts';
import { CommitDocument, MergedSourceDocument, RevertDocument, RevisionsDocument, TablesDocument } from '../api/generated/operations.ts';
import { pathOf, type ScreenProps } from '../app/navigation.ts';
import { projectContentKeys, useInvalidate, useLoaded, useOperation } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { Link } from '../app/router.tsx';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { TextField } from '../components/Fields.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { PagedTable } from '../components/PagedTable.tsx';
import { Pager, useCursorPager } from '../components/Pager.tsx';
import { Async, ErrorBox, Notice } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';
import { CreateTableForm } from './CreateTableForm.tsx';
import { BundleImport } from './transfer/BundleImport.tsx';
import { RevisionTabs } from './RevisionTabs.tsx';
import { addressOf, revisionPath, revSegment, useRevisionContext, type RevisionAddress, type RevisionContext } from './revisionContext.ts';

const PAGE_SIZE = 20;

/** A branch at one revision: its tables, the revision history, and on the draft commit and revert. */
export function RevisionPage({ params }: ScreenProps) {
  const address = addressOf(params);
  const context = useRevisionContext(address);
  const invalidate = useInvalidate();
  return (
    <>
      <PageTitle title={`Branch ${address.branch}`}>
        <Link to={revisionPath(address, 'changes')} className="button-link">
          {address.rev === 'draft' ? 'Review changes' : 'Changes'}
        </Link>
        <Link to={pathOf('org', address.org, 'project', address.project, 'compare')} className="button-link">
          Compare revisions
        </Link>
        <Link to={revisionPath({ ...address, rev: 'draft' }, 'merge')} className="button-link">
          Merge into this branch…
        </Link>
      </PageTitle>
      <Async value={context} what="the branch">
        {(ctx) => (
          <>
            <RevisionTabs address={address} context={ctx} />
            <p className="actions">
              {!ctx.revision.isDraft && (
                <Link to={revisionPath(address, 'restore')} className="button-link">
                  Restore this revision…
                </Link>
              )}
              <a
                className="button-link"
                href={transferPaths.bundleExport(ctx.revision.id)}
                download={`${address.project}-${revisionName(ctx)}.bundle.jsonl`}
              >
                Download bundle
              </a>
            </p>
            {ctx.editable && <DraftActions address={address} context={ctx} />}
            <TablesSection address={address} context={ctx} />
            {ctx.editable && (
              <BundleImport
                org={address.org}
                project={address.project}
                branch={address.branch}
                reviewPath={revisionPath(address, 'changes')}
                onImported={() => invalidate(...projectContentKeys(address.org, address.project))}
              />
            )}
            <HistorySection address={address} context={ctx} />
          </>
        )}
      </Async>
    </>
  );
}

function DraftActions({ address, context }: { readonly address: RevisionAddress; readonly context: RevisionContext }) {
  const api = useApi();
  const invalidate = useInvalidate();
  const action = useAction();
  const [comment, setComment] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const target = { organizationId: address.org, projectName: address.project, branchName: address.branch };
  const commit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setNotice(null);
    const done = await action.run(() => api.request(CommitDocument, { data: { ...target, comment: comment.trim() } }));
    if (done) {
      await invalidate(...projectContentKeys(address.org, address.project));
      setComment('');
      setNotice(`Committed revision #${done.createRevision.sequence}.`);
    }
  };
  const revert = async (): Promise<void> => {
    setNotice(null);
    const done = await action.run(() => api.request(RevertDocument, { data: target }));
    if (done) {
      await invalidate(...projectContentKeys(address.org, address.project));
      setNotice('The draft was reverted to HEAD.');
    }
  };
  const hasChanges = context.revision.hasChanges;
  return (
    <form className="card form" onSubmit={(event) => void commit(event)} aria-labelledby="commit-title">
      <h2 id="commit-title">Draft</h2>
      <p className="meta">{hasChanges ? 'The draft has uncommitted changes.' : 'The draft has no changes since HEAD.'}</p>
      <div className="form-row">
        <TextField label="Commit comment" value={comment} onChange={setComment} maxLength={1000} disabled={!hasChanges} />
      </div>
      {notice && <Notice kind="success">{notice}</Notice>}
      {action.error !== null && <ErrorBox error={action.error} />}
      <div className="actions">
        <button type="submit" className="primary" disabled={action.busy || !hasChanges}>
          Commit
        </button>
        <ConfirmButton
          label="Revert draft"
          title="Revert the draft?"
          confirmLabel="Revert changes"
          danger
          disabled={action.busy || !hasChanges}
          onConfirm={revert}
        >
          <p>Every uncommitted change of {address.branch} is discarded and the draft equals HEAD again.</p>
        </ConfirmButton>
      </div>
    </form>
  );
}

type SectionProps = { readonly address: RevisionAddress; readonly context: RevisionContext };

function TablesSection({ address, context }: SectionProps) {
  const invalidate = useInvalidate();
  const pager = useCursorPager();
  const revisionId = context.revision.id;
  const tables = useOperation(
    queryKeys.revision(revisionId),
    TablesDocument,
    { data: { revisionId, first: PAGE_SIZE, after: pager.after ?? null } },
    { select: (d) => d.tables },
  );
  return (
    <section aria-labelledby="tables-title">
      <h2 id="tables-title">Tables</h2>
      <Async value={tables} what="tables">
        {(connection) => (
          <PagedTable
            connection={connection}
            empty={context.editable ? 'No tables yet. Create one below.' : 'This revision has no tables.'}
            caption="Tables"
            head={
              <>
                <th scope="col">Table</th>
                <th scope="col">Rows</th>
                <th scope="col">Updated</th>
                {context.editable && <th scope="col">State</th>}
              </>
            }
            row={(node) => (
              <>
                <td>
                  <Link to={revisionPath(address, 'table', node.id)}>{node.id}</Link>
                </td>
                <td>{node.count}</td>
                <td>
                  <Time value={node.updatedAt} />
                </td>
                {context.editable && (
                  <td>{node.readonly ? <span className="hint">unchanged</span> : <span className="badge badge-warn">changed</span>}</td>
                )}
              </>
            )}
            pager={pager}
            pageSize={PAGE_SIZE}
            noun="tables"
          />
        )}
      </Async>
      {context.editable && (
        <CreateTableForm
          address={address}
          revisionId={revisionId}
          onCreated={() => invalidate(...projectContentKeys(address.org, address.project))}
        />
      )}
    </section>
  );
}

function HistorySection({ address, context }: SectionProps) {
  const api = useApi();
  const pager = useCursorPager();
  const history = useOperation(
    queryKeys.project(address.org, address.project),
    RevisionsDocument,
    { data: { organizationId: address.org, projectName: address.project, branchName: address.branch, first: PAGE_SIZE, after: pager.after ?? null } },
    { select: (d) => d.revisions },
  );
  const mergedIds =
    history.status === 'success'
      ? [...new Set(history.data.edges.flatMap(({ node }) => [...node.mergedRevisionIds, ...node.pendingMergeRevisionIds]))]
      : [];
  const sources = useLoaded(
    [...queryKeys.project(address.org, address.project), 'mergedSources', mergedIds],
    () => loadMergedSources(api, mergedIds),
    { enabled: mergedIds.length > 0 },
  );
  const sourceName = (id: string): string => sources.data?.get(id) ?? `revision ${id.slice(0, 8)}`;
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <Async value={history} what="the history">
        {(connection) => (
          <>
            <ol className="history">
              {connection.edges.map(({ node }) => {
                const segment = revSegment(context.branch, node);
                const current = node.id === context.revision.id;
                return (
                  <li key={node.id} className={current ? 'current' : undefined}>
                    <Link to={revisionPath({ ...address, rev: segment })} aria-current={current ? 'page' : undefined}>
                      {node.isDraft ? 'Draft' : `#${node.sequence}`}
                    </Link>
                    {node.isHead && <span className="badge">HEAD</span>}
                    {node.isStart && <span className="badge">start</span>}
                    {node.isDraft && node.hasChanges && <span className="badge badge-warn">has changes</span>}
                    {node.mergedRevisionIds.length > 0 && <span className="badge">merge</span>}
                    <span className="comment">{node.comment || (node.isDraft ? 'uncommitted' : 'no comment')}</span>
                    {(node.isDraft ? node.pendingMergeRevisionIds : node.mergedRevisionIds).length > 0 && (
                      <span className="merged-from">
                        {node.isDraft ? 'merging ' : 'merged '}
                        {(node.isDraft ? node.pendingMergeRevisionIds : node.mergedRevisionIds).map(sourceName).join(', ')}
                      </span>
                    )}
                    {!node.isStart && (
                      <Link
                        to={revisionPath({ ...address, rev: segment }, 'changes')}
                        aria-label={`Changes in ${node.isDraft ? 'the draft' : `#${node.sequence}`}`}
                      >
                        changes
                      </Link>
                    )}
                    {!node.isDraft && (
                      <Link to={revisionPath({ ...address, rev: segment }, 'restore')} aria-label={`Restore #${node.sequence}…`}>
                        restore…
                      </Link>
                    )}
                    <Time value={node.committedAt ?? node.createdAt} />
                  </li>
                );
              })}
            </ol>
            <Pager
              pager={pager}
              pageInfo={connection.pageInfo}
              pageSize={PAGE_SIZE}
              shown={connection.edges.length}
              totalCount={connection.totalCount}
              noun="revisions"
            />
          </>
        )}
      </Async>
    </section>
  );
}

/** "feature #3" for each merged source revision (best effort: an unreadable one shows by id). */
async function loadMergedSources(api: ApiClient, ids: readonly string[]): Promise<Map<string, string>> {
  try {
    const answers = await api.batch(
      MergedSourceDocument,
      ids.map((revisionId) => ({ data: { revisionId } })),
    );
    return new Map(answers.map(({ revision }) => [revision.id, `${revision.branch.name} #${revision.sequence}`]));
  } catch {
    return new Map();
  }
}

/** A revision in a file name: `draft` or `r3`. */
const revisionName = (context: RevisionContext): string => (context.revision.isDraft ? 'draft' : `r${context.revision.sequence}`);
