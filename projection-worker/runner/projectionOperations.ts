import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { AppError, isoTime } from '../../contracts/index.ts';
import type { Clock, EventStore, ProjectionOperations, ProjectionStatusView, ViewStore } from '../../contracts/index.ts';
import { describeAllProjections, type ProjectionReport } from './describeProjections.ts';
import type { Projector } from './projector.ts';
import { rebuildLeaseName, rebuildProjection } from './rebuildProjection.ts';
import { createRebuildSpeeds, type RebuildSpeeds } from './rebuildSpeeds.ts';

export type ProjectionOperationsDeps = {
  readonly projectors: readonly Projector[];
  readonly eventStore: EventStore;
  readonly viewStore: ViewStore;
  readonly clock: Clock;
  readonly log: Logger;
  /** Rebuild lease TTL (default 30 s, as the CLI). */
  readonly leaseTtlMs?: number;
  /** Grace period before the old copy is dropped (default: rebuildProjection's). */
  readonly dropDelayMs?: number;
};

export type ProjectionOperationsService = ProjectionOperations & {
  /** Resolves when no rebuild started here is running (shutdown, tests). */
  whenIdle(): Promise<void>;
};

/**
 * operations.md §5.1 over the system API: status rows like `strata projections status`, and rebuilds started in the
 * background with the CLI's `rebuildProjection` (one implementation). The rebuild runs in the process that accepted
 * the request; the rebuild lease in the view store keeps it exclusive against every other process (the CLI
 * included), and the live runner, wherever it runs, follows the switch (see projection-worker/README.md).
 */
export function createProjectionOperations(deps: ProjectionOperationsDeps): ProjectionOperationsService {
  const { projectors, eventStore, viewStore, clock } = deps;
  const log = deps.log.child({ component: 'projection-operations' });
  const ttl = deps.leaseTtlMs ?? 30_000;
  const speeds: RebuildSpeeds = createRebuildSpeeds(clock);
  let running: Promise<void> = Promise.resolve();

  function statusOf(active: ProjectionReport, shadow: ProjectionReport | undefined): ProjectionStatusView {
    const local = speeds.local(active.name);
    const rebuild =
      shadow === undefined && local === null
        ? null
        : {
            targetVersion: shadow?.version ?? local?.targetVersion ?? active.version + 1,
            position: shadow?.position ?? null,
            head: active.head,
            lag: shadow?.lag ?? null,
            eventsPerSecond: speeds.eventsPerSecond(active.name, shadow),
            startedAt: local === null ? null : isoTime(local.startedAt),
          };
    return {
      name: active.name,
      version: active.version,
      status: active.status,
      position: active.position,
      head: active.head,
      lag: active.lag,
      updatedAt: active.updatedAt === null ? null : isoTime(active.updatedAt),
      error: active.error,
      rebuild,
    };
  }

  async function runAll(chosen: readonly Projector[], owner: string, actor: string, pending: Set<string>): Promise<void> {
    const renewal = setInterval(
      () => {
        for (const name of pending) {
          viewStore.acquireLease(rebuildLeaseName(name), owner, ttl).catch((err: unknown) => log.warn({ err, name }, 'rebuild lease renewal failed'));
        }
      },
      Math.max(1, Math.floor(ttl / 3)),
    );
    try {
      for (const projector of chosen) {
        const name = projector.spec.name;
        // From here rebuildProjection renews (and finally releases) this lease itself.
        pending.delete(name);
        try {
          const result = await rebuildProjection({
            projector,
            eventStore,
            viewStore,
            log,
            owner,
            leaseTtlMs: ttl,
            ...(deps.dropDelayMs !== undefined ? { dropDelayMs: deps.dropDelayMs } : {}),
            onShadow: (version) => speeds.shadow(name, version),
            onProgress: (done, total) => speeds.progress(name, done, total),
          });
          log.info({ audit: true, actor, projection: name, version: result.version, events: result.events }, 'projection rebuild finished');
        } catch (err) {
          log.error({ audit: true, actor, projection: name, err }, 'projection rebuild failed');
          return;
        } finally {
          speeds.finish(name);
        }
      }
    } finally {
      clearInterval(renewal);
      for (const name of pending) {
        speeds.finish(name);
        await viewStore.releaseLease(rebuildLeaseName(name), owner).catch(() => undefined);
      }
    }
  }

  return {
    async statuses() {
      const reports = await describeAllProjections({ projectors, eventStore, viewStore, clock });
      return projectors
        .map((projector) => {
          const own = reports.filter((r) => r.name === projector.spec.name);
          const active = own.find((r) => r.active) ?? own[0];
          if (active === undefined) return null;
          const shadow = own.find((r) => !r.active && r.version > active.version);
          return statusOf(active, shadow);
        })
        .filter((s) => s !== null)
        .sort((a, b) => (a.name < b.name ? -1 : 1));
    },

    async startRebuild(name, actor) {
      const chosen = name === 'all' ? projectors : projectors.filter((p) => p.spec.name === name);
      if (chosen.length === 0)
        throw new AppError('PROJECTION_NOT_FOUND', `Projection "${name}" not found`, [
          { path: '/name', message: `valid names: ${projectors.map((p) => p.spec.name).join(', ')}, all` },
        ]);
      const owner = `rebuild:${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
      const held: string[] = [];
      for (const projector of chosen) {
        const lease = rebuildLeaseName(projector.spec.name);
        if (speeds.local(projector.spec.name) !== null || !(await viewStore.acquireLease(lease, owner, ttl))) {
          for (const taken of held) await viewStore.releaseLease(rebuildLeaseName(taken), owner);
          throw new AppError('REBUILD_IN_PROGRESS', `A rebuild of "${projector.spec.name}" is already running`);
        }
        held.push(projector.spec.name);
      }
      for (const n of held) speeds.start(n);
      log.info({ audit: true, actor, projections: held }, 'projection rebuild started');
      const job = runAll(chosen, owner, actor, new Set(held));
      running = Promise.all([running, job]).then(() => undefined);
      return { names: held };
    },

    whenIdle: () => running,
  };
}
