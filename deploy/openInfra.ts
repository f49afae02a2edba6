import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { EventStore, Queue, ViewStore } from '../contracts/index.ts';
import { createSqliteEventStore } from '../command-service/index.ts';
import { createBullmqQueue, createInProcessQueue, createSqliteViewStore } from '../projection-worker/index.ts';
import { ConfigError, type ConfigProblem, type StrataConfig } from './config/strataConfig.ts';

export type Infra = {
  readonly eventStore: EventStore;
  readonly viewStore: ViewStore;
  readonly queue: Queue;
  /** Closes the queue, then the view store, then the event store; never rejects (failures are logged). */
  close(): Promise<void>;
};

function unavailableBackends(config: StrataConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  // TODO(distributed stores issue): KurrentDB event store and MongoDB view store adapters.
  if (config.eventStore === 'esdb') problems.push({ variable: 'EVENT_STORE', message: 'esdb is not available in this build yet' });
  if (config.viewStore === 'mongodb') problems.push({ variable: 'VIEW_STORE', message: 'mongodb is not available in this build yet' });
  return problems;
}

async function closeAll(log: Logger, closers: readonly (readonly [string, () => Promise<void>])[]): Promise<void> {
  for (const [name, close] of closers) {
    try {
      await close();
    } catch (err) {
      log.error({ err, component: name }, 'close failed');
    }
  }
}

/**
 * Opens the stores and the wake-up queue chosen by the configuration: SQLite files DATA_DIR/events.db and
 * DATA_DIR/views.db (DATA_DIR created if missing); BullMQ when REDIS_URL is set, else the in-process queue.
 */
export async function openInfra(config: StrataConfig, log: Logger): Promise<Infra> {
  const problems = unavailableBackends(config);
  if (problems.length > 0) throw new ConfigError(problems);
  await mkdir(config.dataDir, { recursive: true });

  const eventStore = createSqliteEventStore({ file: join(config.dataDir, 'events.db'), log: log.child({ component: 'eventStore' }) });
  let viewStore: ViewStore;
  try {
    viewStore = createSqliteViewStore({ file: join(config.dataDir, 'views.db'), log: log.child({ component: 'viewStore' }) });
  } catch (err) {
    await closeAll(log, [['eventStore', () => eventStore.close()]]);
    throw err;
  }
  const queue =
    config.redisUrl === null
      ? createInProcessQueue()
      : createBullmqQueue({ url: config.redisUrl, log: log.child({ component: 'queue' }) });
  log.info(
    { eventStore: eventStore.backend, viewStore: viewStore.backend, queue: queue.kind, dataDir: config.dataDir },
    'infrastructure opened',
  );

  let closing: Promise<void> | null = null;
  return {
    eventStore,
    viewStore,
    queue,
    close: () =>
      (closing ??= closeAll(log, [
        ['queue', () => queue.close()],
        ['viewStore', () => viewStore.close()],
        ['eventStore', () => eventStore.close()],
      ])),
  };
}
