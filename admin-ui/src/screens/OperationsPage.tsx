import { useEffect, useState } from 'react';
import type { ScreenProps } from '../app/navigation.ts';
import { useApi, useSession } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { useLoad } from '../app/useLoad.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { Async, Empty, ErrorBox, Notice } from '../components/Status.tsx';
import { PROJECTIONS, REBUILD, REFRESH_MS, type ProjectionStatus } from './operationsQueries.ts';
import { ProjectionRows } from './ProjectionRows.tsx';

/**
 * Operations (admin-ui.md §3.1, operations.md §5.1), for system administrators: every projection's status, version,
 * checkpoint, head and lag, read again every second; a rebuild of one projection or all, followed to the switch.
 */
export function OperationsPage(_props: ScreenProps) {
  const api = useApi();
  const { user } = useSession();
  const action = useAction();
  const [tick, setTick] = useState(0);
  const [started, setStarted] = useState<string | null>(null);
  const [projections, reload] = useLoad(
    async () => (user.role === 'systemAdmin' ? (await api.graphql<{ projections: ProjectionStatus[] }>(PROJECTIONS)).projections : []),
    [],
    tick,
  );
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  if (user.role !== 'systemAdmin') {
    return (
      <>
        <PageTitle title="Operations" />
        <Empty>Only system administrators can see the projections.</Empty>
      </>
    );
  }

  const rebuild = async (name: string): Promise<void> => {
    const done = await action.run(() => api.graphql<{ rebuildProjection: { names: string[] } }>(REBUILD, { name }));
    if (done) {
      setStarted(done.rebuildProjection.names.join(', '));
      setTick((t) => t + 1);
    }
  };
  const running = projections.status === 'ready' && projections.data.some((p) => p.rebuild !== null);

  return (
    <>
      <PageTitle title="Operations">
        <ConfirmButton label="Rebuild all" title="Rebuild every projection?" confirmLabel="Start rebuilds" disabled={action.busy || running} onConfirm={() => rebuild('all')}>
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
      <Async value={projections} what="projections" onRetry={reload}>
        {(rows) => (rows.length === 0 ? <Empty>No projections.</Empty> : <ProjectionRows projections={rows} busy={action.busy} onRebuild={rebuild} />)}
      </Async>
    </>
  );
}
