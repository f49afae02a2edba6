import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { GridTable } from '../components/GridTable.tsx';
import { Time } from '../components/Time.tsx';
import type { ProjectionStatus } from './operationsQueries.ts';

type Props = {
  readonly projections: readonly ProjectionStatus[];
  readonly busy: boolean;
  readonly onRebuild: (name: string) => Promise<void>;
};

function RebuildCell({ p }: { readonly p: ProjectionStatus }) {
  const r = p.rebuild;
  if (r === null) return <span className="meta">—</span>;
  const waiting = r.lag === null;
  return (
    <div className="rebuild-progress">
      <span>
        Version {r.targetVersion}: {waiting ? 'starting…' : `${r.lag} events to go`}
      </span>
      <progress aria-label={`Rebuild of ${p.name}`} />
      <span className="meta">
        {Math.round(r.eventsPerSecond)} events/s
        {r.startedAt && (
          <>
            , started <Time value={r.startedAt} />
          </>
        )}
      </span>
    </div>
  );
}

/** One row per projection: live version, checkpoint, head, lag, last update, error, and the rebuild in progress. */
export function ProjectionRows({ projections, busy, onRebuild }: Props) {
  return (
    <GridTable
      items={projections}
      rowKey={(p) => p.name}
      rowProps={(p) => ({ 'data-projection': p.name })}
      caption="Projections"
      className="projections"
      scrollLabel="Projections, scrollable"
      head={
        <>
          <th scope="col">Name</th>
          <th scope="col">Version</th>
          <th scope="col">Status</th>
          <th scope="col">Lag</th>
          <th scope="col">Checkpoint / head</th>
          <th scope="col">Updated</th>
          <th scope="col">Rebuild</th>
          <th scope="col">Actions</th>
        </>
      }
      row={(p) => (
        <>
          <th scope="row">{p.name}</th>
          <td>{p.version}</td>
          <td>
            <span className={`status status-${p.status}`}>{p.status}</span>
            {p.error && <p className="field-error">{p.error}</p>}
          </td>
          <td>{p.lag}</td>
          <td className="path">
            <code>{p.position ?? '—'}</code> / <code>{p.head ?? '—'}</code>
          </td>
          <td>
            <Time value={p.updatedAt} empty="never" />
          </td>
          <td>
            <RebuildCell p={p} />
          </td>
          <td>
            <ConfirmButton
              label={`Rebuild ${p.name}`}
              title={`Rebuild ${p.name}?`}
              confirmLabel="Start rebuild"
              disabled={busy || p.rebuild !== null}
              onConfirm={() => onRebuild(p.name)}
            >
              <p>
                The whole log is replayed into version {p.version + 1} while version {p.version} keeps serving; readers switch when it has caught up.
              </p>
            </ConfirmButton>
          </td>
        </>
      )}
    />
  );
}
