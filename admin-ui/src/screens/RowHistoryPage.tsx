import { useId, useState } from 'react';
import { isApiError } from '../api/apiError.ts';
import { CreateRowDocument, UpdateRowDocument } from '../api/generated/operations.ts';
import type { RowVersion } from '../api/changeTypes.ts';
import { Link } from '../app/router.tsx';
import { pathOf, type ScreenProps } from '../app/navigation.ts';
import { projectContentKeys, useInvalidate, useLoaded } from '../app/queries.ts';
import { useApi, useSession } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { FieldChangesTable } from '../components/FieldChangesTable.tsx';
import { JsonValue } from '../components/JsonValue.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { Pager, useCursorPager } from '../components/Pager.tsx';
import { Async, Empty, ErrorBox, Notice } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';
import { fieldDiff } from '../lib/fieldDiff.ts';
import { addressOf, loadRevisionContext, revisionPath, revisionScreenKey } from './revisionContext.ts';
import { loadHistoryPage, type HistoryPage } from './rowHistoryLoad.ts';

const PAGE_SIZE = 20;
const CHANGE_LABELS: Readonly<Record<RowVersion['change'], string>> = {
  CREATED: 'Created',
  UPDATED: 'Updated',
  RENAMED: 'Renamed',
  DELETED: 'Deleted',
};

/**
 * A row's versions along the revision's ancestry, newest first (`rowHistory`, admin-ui.md §3.1), each with its
 * revision, time, comment and author and a diff to the previous version. One entry more than a page is loaded,
 * so the last entry of a page is diffed too.
 */
export function RowHistoryPage({ params }: ScreenProps) {
  const address = addressOf(params);
  const tableId = params.table as string;
  const rowId = params.row as string;
  const { api, user } = useSession();
  const invalidate = useInvalidate();
  const pager = useCursorPager();
  const loaded = useLoaded(revisionScreenKey(address, 'table', tableId, 'row', rowId, 'history', pager.after ?? null), async () => {
    const context = await loadRevisionContext(api, address);
    const args = { org: address.org, revisionId: context.revision.id, tableId, rowId, first: PAGE_SIZE + 1, after: pager.after };
    const page = await loadHistoryPage(api, user, args);
    return { page, draftRevisionId: context.editable ? context.revision.id : null };
  });
  return (
    <>
      <PageTitle title={`History of row ${rowId}`}>
        <Link to={revisionPath(address, 'table', tableId, 'row', rowId)} className="button-link">
          Back to the row
        </Link>
      </PageTitle>
      <p className="meta">
        Table {tableId} · from the {address.rev === 'draft' ? 'draft' : address.rev === 'head' ? 'HEAD' : 'chosen revision'} of {address.branch} back
        through its ancestry, newest first.
      </p>
      <Async value={loaded} what="the history">
        {({ page, draftRevisionId }) => {
          const restore =
            draftRevisionId === null
              ? null
              : { revisionId: draftRevisionId, tableId, rowId, changed: () => invalidate(...projectContentKeys(address.org, address.project)) };
          return <Versions page={page} org={address.org} project={address.project} pager={pager} restore={restore} />;
        }}
      </Async>
    </>
  );
}

/** Where *Restore this version* writes: the row as it is named in the branch's draft (null off the draft). */
type RestoreTarget = { readonly revisionId: string; readonly tableId: string; readonly rowId: string; changed(): Promise<void> } | null;

type VersionsProps = {
  readonly page: HistoryPage;
  readonly org: string;
  readonly project: string;
  readonly pager: ReturnType<typeof useCursorPager>;
  readonly restore: RestoreTarget;
};

function Versions({ page, org, project, pager, restore }: VersionsProps) {
  const edges = page.versions.edges;
  if (edges.length === 0) return <Empty>This row has no versions.</Empty>;
  const shown = edges.slice(0, PAGE_SIZE);
  const pageInfo = { ...page.versions.pageInfo, hasNextPage: edges.length > PAGE_SIZE, endCursor: shown[shown.length - 1]?.cursor ?? null };
  return (
    <section aria-labelledby="versions-title">
      <h2 id="versions-title">Versions</h2>
      <ol className="row-history">
        {shown.map(({ node }, i) => (
          <li key={`${node.revisionId}:${node.rowId}`}>
            <VersionCard
              version={node}
              previous={edges[i + 1]?.node ?? null}
              page={page}
              org={org}
              project={project}
              restore={i === 0 && !pager.after ? null : restore}
            />
          </li>
        ))}
      </ol>
      <Pager pager={pager} pageInfo={pageInfo} pageSize={PAGE_SIZE} shown={shown.length} totalCount={page.versions.totalCount} noun="versions" />
    </section>
  );
}

type VersionCardProps = {
  readonly version: RowVersion;
  readonly previous: RowVersion | null;
  readonly page: HistoryPage;
  readonly org: string;
  readonly project: string;
  /** Null for the newest version (it is the row as it is) and off the draft. */
  readonly restore: RestoreTarget;
};

function VersionCard({ version, previous, page, org, project, restore }: VersionCardProps) {
  const titleId = useId();
  const sequence = page.sequences.get(version.revisionId);
  const revision =
    version.committedAt === null ? 'Draft' : sequence === undefined ? `Revision ${version.revisionId.slice(0, 8)}` : `Revision #${sequence}`;
  const actor = version.actorId === null ? 'unknown' : (page.actors.get(version.actorId) ?? version.actorId);
  const at = pathOf('org', org, 'project', project, 'branch', version.branchName, version.revisionId, 'table', version.tableId, 'row', version.rowId);
  return (
    <article className="card version" aria-labelledby={titleId}>
      <h3 id={titleId}>
        <span className={`badge change-${version.change.toLowerCase()}`}>{CHANGE_LABELS[version.change]}</span> {revision} of {version.branchName}
      </h3>
      <p className="meta">
        <Time value={version.committedAt} empty="not committed yet" /> · by <span className="actor">{actor}</span>
        {version.comment ? <> · “{version.comment}”</> : null}
        {version.change !== 'DELETED' && (
          <>
            {' · '}
            <Link to={at}>
              {version.tableId}/{version.rowId} at this revision
            </Link>
          </>
        )}
      </p>
      <VersionDiff version={version} previous={previous} />
      {restore && version.change !== 'DELETED' && (
        <RestoreVersion version={version} label={`${revision} of ${version.branchName}`} target={restore} />
      )}
    </article>
  );
}

function VersionDiff({ version, previous }: { readonly version: RowVersion; readonly previous: RowVersion | null }) {
  if (version.change === 'DELETED') return <p>The row was deleted{previous ? ` (last id ${previous.rowId})` : ''}.</p>;
  if (version.change === 'CREATED' || previous === null) {
    return (
      <div className="document">
        <p className="document-label">{version.change === 'CREATED' ? 'Created with' : 'Data'}</p>
        <JsonValue value={version.data} />
      </div>
    );
  }
  const changes = fieldDiff(previous.data, version.data);
  return (
    <>
      {previous.rowId !== version.rowId && (
        <p>
          Renamed from <code>{previous.rowId}</code> to <code>{version.rowId}</code>.
        </p>
      )}
      {changes.length === 0 ? (
        <p className="meta">The data is the same as in the previous version.</p>
      ) : (
        <FieldChangesTable changes={changes} caption={`Changes to the previous version of ${version.rowId}`} />
      )}
    </>
  );
}

/**
 * *Restore this version* (merge.md §7): one row write of that version's data into the draft, under the row's id
 * there; a row deleted in the draft is created again.
 */
function RestoreVersion({
  version,
  label,
  target,
}: {
  readonly version: RowVersion;
  readonly label: string;
  readonly target: NonNullable<RestoreTarget>;
}) {
  const api = useApi();
  const action = useAction();
  const [done, setDone] = useState(false);
  const restore = async (): Promise<void> => {
    setDone(false);
    const data = { revisionId: target.revisionId, tableId: target.tableId, rowId: target.rowId, data: version.data };
    const written = await action.run(async () => {
      try {
        return await api.request(UpdateRowDocument, { data });
      } catch (err) {
        if (!isApiError(err, 'ROW_NOT_FOUND')) throw err;
        return api.request(CreateRowDocument, { data });
      }
    });
    if (written) {
      await target.changed();
      setDone(true);
    }
  };
  return (
    <div className="actions">
      <button type="button" disabled={action.busy} onClick={() => void restore()}>
        Restore this version<span className="visually-hidden"> from {label}</span>
      </button>
      {done && (
        <Notice kind="success">
          Row {target.rowId} in the draft now holds the data of {label}.
        </Notice>
      )}
      {action.error !== null && <ErrorBox error={action.error} />}
    </div>
  );
}
