import type { Logger } from 'pino';
import type { ChangeEventSource, Clock, ConsistencyWaiter, EventStore, Queue, RoleHandle, ViewStore } from '../contracts/index.ts';
import { createCheckpointWaiter } from './runner/checkpointWaiter.ts';
import { describeProjections } from './runner/describeProjections.ts';
import type { ProjectionReport } from './runner/describeProjections.ts';
import { createProjectionRunner } from './runner/projectionRunner.ts';
import { rebuildProjection } from './runner/rebuildProjection.ts';
import type { ProjectionRunner } from './runner/projectionRunner.ts';
import type { LogSubscriber, Projector } from './runner/projector.ts';
import { createSharedLogReader, type LogReader } from './runner/sharedLogReader.ts';
import { createWebhookDispatcher } from './webhooks/webhookDispatcher.ts';
import { createWebhookSender, type WebhookSender, type WebhookSenderDeps } from './webhooks/webhookSender.ts';

/** Webhook delivery (changes.md §6.2): the dispatcher runs as one more checkpointed runner, its leader sends. */
export type WebhookWorkerDeps = Pick<WebhookSenderDeps, 'config' | 'openSecret' | 'disable' | 'outboundHttp' | 'onAttempt' | 'onDeliveryLag'> & {
  readonly changeEvents: ChangeEventSource;
};

export type ProjectionWorkerDeps = {
  readonly projectors: readonly Projector[];
  readonly eventStore: EventStore;
  readonly viewStore: ViewStore;
  readonly queue: Queue;
  readonly log: Logger;
  readonly clock: Clock;
  /** Lease owner id of this process (unique per process). */
  readonly owner: string;
  readonly batchSize?: number;
  readonly pollIntervalMs?: number;
  readonly leaseTtlMs?: number;
  /** Absent: no webhook delivery in this process. */
  readonly webhooks?: WebhookWorkerDeps;
};

export type ProjectionWorker = RoleHandle & {
  /** Read-your-writes waiter reacting at once to this process's runners. */
  readonly waiter: ConsistencyWaiter;
  readonly runners: readonly ProjectionRunner[];
  statuses(): Promise<ProjectionReport[]>;
};

/** The `projector` role: one runner per projector; extra processes stand by on the leases. */
export function createProjectionWorker(deps: ProjectionWorkerDeps): ProjectionWorker {
  const { eventStore, viewStore, clock } = deps;
  const names = new Set<string>();
  for (const projector of deps.projectors) {
    if (names.has(projector.spec.name)) throw new Error(`duplicate projection ${projector.spec.name}`);
    names.add(projector.spec.name);
  }
  // Projections over the same categories read each batch once (catalog, schemas and rows share every branch event).
  const readEvents = createSharedLogReader(eventStore);
  const runnerOf = (projector: LogSubscriber, shared: LogReader | null): ProjectionRunner =>
    createProjectionRunner({
      projector,
      eventStore,
      viewStore,
      ...(shared !== null ? { readEvents: shared } : {}),
      queue: deps.queue,
      log: deps.log,
      clock,
      owner: deps.owner,
      ...(deps.batchSize !== undefined ? { batchSize: deps.batchSize } : {}),
      ...(deps.pollIntervalMs !== undefined ? { pollIntervalMs: deps.pollIntervalMs } : {}),
      ...(deps.leaseTtlMs !== undefined ? { leaseTtlMs: deps.leaseTtlMs } : {}),
    });
  const runners = deps.projectors.map((projector) => runnerOf(projector, readEvents));
  const upgrades = new AbortController();
  let upgrading: Promise<void> = Promise.resolve();

  /**
   * A projection whose active storage version is older than its spec's (a new layout, e.g. copy-on-write `rows` and
   * `schemas` v2) is rebuilt into the spec's version the way `strata projections rebuild` does it: the live copy
   * keeps serving (its runner goes on applying events to it) until the shadow reaches the log head and readers
   * switch. One at a time; a rebuild another process runs already is left to it; a failed one is retried at the
   * next start.
   */
  async function upgradeLayouts(): Promise<void> {
    for (const projector of deps.projectors) {
      const name = projector.spec.name;
      const active = await viewStore.activeVersion(name);
      if (active === null || active >= projector.spec.version || upgrades.signal.aborted) continue;
      deps.log.warn(
        { projection: name, from: active, to: projector.spec.version },
        'projection layout changed: rebuilding into the new version, the old copy serves until the switch',
      );
      try {
        await rebuildProjection({ projector, eventStore, viewStore, log: deps.log, signal: upgrades.signal });
      } catch (err) {
        if (upgrades.signal.aborted) return;
        deps.log.warn({ err, projection: name }, 'projection layout rebuild did not complete; it is retried at the next start');
      }
    }
  }
  let sender: WebhookSender | null = null;
  if (deps.webhooks !== undefined) {
    const { changeEvents, ...senderDeps } = deps.webhooks;
    // The dispatcher reads its own batches: it also follows the `webhook` category, which no projection shares.
    const dispatcher = runnerOf(createWebhookDispatcher({ viewStore, changeEvents }), null);
    const webhookSender = createWebhookSender({ ...senderDeps, viewStore, clock, log: deps.log, isLeader: () => dispatcher.isLeader() });
    // Only a batch that wrote deliveries can have made one due; the sender's own timer finds retries and the rest.
    dispatcher.onProgress((_name, _position, changes) => {
      if (changes > 0) webhookSender.wake();
    });
    runners.push(dispatcher);
    sender = webhookSender;
  }
  return {
    name: 'projector',
    waiter: createCheckpointWaiter({ viewStore, runners }),
    runners,
    async start() {
      const results = await Promise.allSettled(runners.map((runner) => runner.start()));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed !== undefined) {
        await Promise.all(runners.map((runner) => runner.stop()));
        throw failed.reason;
      }
      sender?.start();
      upgrading = upgradeLayouts().catch((err: unknown) => deps.log.warn({ err }, 'projection layout check failed'));
      deps.log.info({ projections: [...names] }, 'projection worker started');
    },
    async stop() {
      upgrades.abort();
      await upgrading;
      await sender?.stop();
      await Promise.all(runners.map((runner) => runner.stop()));
    },
    statuses: () => describeProjections({ viewStore, eventStore, clock }),
  };
}
