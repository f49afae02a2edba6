import { comparePositions } from '../../contracts/index.ts';
import type { Clock, EventStore, Position, ViewStore } from '../../contracts/index.ts';
import type { Projector } from './projector.ts';

/** `strata projections status` vocabulary (spec operations §5). */
export type ProjectionState = 'running' | 'idle' | 'stalled' | 'failed' | 'building';

export type ProjectionReport = {
  readonly name: string;
  readonly version: number;
  readonly active: boolean;
  readonly status: ProjectionState;
  readonly position: Position | null;
  readonly head: Position | null;
  /** Events after the checkpoint. */
  readonly lag: number;
  readonly updatedAt: number | null;
  readonly error: string | null;
  readonly leaseOwner: string | null;
  readonly leaseExpiresAt: number | null;
};

/** One report per stored projection version, sorted by name then version. */
export async function describeProjections(deps: {
  readonly viewStore: ViewStore;
  readonly eventStore: EventStore;
  readonly clock: Clock;
}): Promise<ProjectionReport[]> {
  const { viewStore, eventStore, clock } = deps;
  const statuses = await viewStore.projectionStatuses();
  const head = await eventStore.headPosition();
  const now = clock.now();
  const reports = await Promise.all(
    statuses.map(async (s): Promise<ProjectionReport> => {
      const lag = comparePositions(s.position, head) >= 0 ? 0 : await eventStore.countAfter(s.position);
      const leaseAlive = s.leaseOwner !== null && s.leaseExpiresAt !== null && s.leaseExpiresAt > now;
      const status: ProjectionState = s.error !== null ? 'failed' : !s.active ? 'building' : lag === 0 ? 'idle' : leaseAlive ? 'running' : 'stalled';
      return {
        name: s.name,
        version: s.version,
        active: s.active,
        status,
        position: s.position,
        head,
        lag,
        updatedAt: s.updatedAt,
        error: s.error,
        leaseOwner: s.leaseOwner,
        leaseExpiresAt: s.leaseExpiresAt,
      };
    }),
  );
  return reports.sort((a, b) => (a.name === b.name ? a.version - b.version : a.name < b.name ? -1 : 1));
}

/** Stored versions, plus a line for every known projection no projector has created yet (`projections status`). */
export async function describeAllProjections(deps: {
  readonly projectors: readonly Projector[];
  readonly viewStore: ViewStore;
  readonly eventStore: EventStore;
  readonly clock: Clock;
}): Promise<ProjectionReport[]> {
  const { eventStore } = deps;
  const reports = await describeProjections(deps);
  const missing = deps.projectors.filter((p) => !reports.some((r) => r.name === p.spec.name));
  if (missing.length === 0) return reports;
  const head = await eventStore.headPosition();
  const lag = head === null ? 0 : await eventStore.countAfter(null);
  const created = missing.map((p): ProjectionReport => ({
    name: p.spec.name,
    version: p.spec.version,
    active: false,
    status: lag === 0 ? 'idle' : 'stalled',
    position: null,
    head,
    lag,
    updatedAt: null,
    error: null,
    leaseOwner: null,
    leaseExpiresAt: null,
  }));
  return [...reports, ...created].sort((a, b) => (a.name === b.name ? a.version - b.version : a.name < b.name ? -1 : 1));
}
