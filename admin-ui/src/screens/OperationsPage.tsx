import { useState } from 'react';
import { ProjectionsDocument, RebuildProjectionDocument } from '../api/generated/operations.ts';
import type { ScreenProps } from '../app/navigation.ts';
import { useInvalidate, useOperation } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { useApi, useSession } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { Async, Empty, ErrorBox, Notice } from '../components/Status.tsx';
import { REFRESH_MS } from './operationsQueries.ts';
import { ProjectionRows } from './ProjectionRows.tsx';

/**
 * Operations (admin-ui.md §3.1, operations.md §5.1), for system administrators: every projection's status, version,
 * checkpoint, head and lag, read again every second; a rebuild of one projection or all, followed to the switch.
 */
export function OperationsPage(_props: ScreenProps) {
  const api = useApi();
  const invalidate = useInvalidate();
  const { user } = useSession();
  const action = useAction();
  const [started, setStarted] = useState<string | null>(null);
  const projections = useOperation(
    queryKeys.projections(),
    ProjectionsDocument,
    {},
    {
      enabled: user.role === 'systemAdmin',
      refetchInterval: REFRESH_MS,
      select: (d) => d.projections,
    },
  );

  if (user.role !== 'systemAdmin') {
    return (
      <>
        <PageTitle title="Operations" />
        <Empty>Only system administrators can see the projections.</Empty>
      </>
    );
  }

  const rebuild = async (name: string): Promise<void> => {
    const done = await action.run(() => api.request(RebuildProjectionDocument, { name }));
    if (done) {
      await invalidate(queryKeys.projections());
      setStarted(done.rebuildProjection.names.join(', '));
    }
  };
  const running = projections.status === 'success' && projections.data.some((p) => p.rebuild !== null);

  return (
    <>
      <PageTitle title="Operations">
        <ConfirmButton
          label="Rebuild all"
          title="Rebuild every projection?"
          confirmLabel="Start rebuilds"
          disabled={action.busy || running}
          onConfirm={() => rebuild('all')}
        >
          <p>Every projection is replayed from the whole log, one after another, while the live copies keep serving.</p>
        </ConfirmButton>
      </PageTitle>
      <p className="meta">Projections keep the views that every read uses. This page refreshes every second.</p>
      {action.error !== null && <ErrorBox error={action.error} />}
      {started !== null && (
        <Notice kind="success">
          Rebuild started: {started}. {running ? 'Progress is shown below until readers switch.' : 'Done: readers use the new version.'}
        </Notice>
      )}
      <Async value={projections} what="projections">
        {(rows) =>
          rows.length === 0 ? <Empty>No projections.</Empty> : <ProjectionRows projections={rows} busy={action.busy} onRebuild={rebuild} />
        }
      </Async>
    </>
  );
}
