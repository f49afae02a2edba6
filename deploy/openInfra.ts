import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { EventStore, Queue, ViewStore } from '../contracts/index.ts';
import { createKurrentEventStore, createSqliteEventStore } from '../command-service/index.ts';
import { createBullmqQueue, createInProcessQueue, createMongoViewStore, createSqliteViewStore } from '../projection-worker/index.ts';
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
  // loadConfig already demands these URLs; configs built in code are checked here too.
  if (config.eventStore === 'esdb' && config.eventStoreUrl === null) {
    problems.push({ variable: 'EVENTSTORE_URL', message: 'is required when EVENT_STORE=esdb' });
  }
  if (config.viewStore === 'mongodb' && config.mongoUrl === null) {
    problems.push({ variable: 'MONGO_URL', message: 'is required when VIEW_STORE=mongodb' });
  }
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
 * Opens the stores and the wake-up queue chosen by the configuration: KurrentDB at EVENTSTORE_URL when
 * EVENT_STORE=esdb, SQLite files DATA_DIR/events.db and
 * DATA_DIR/views.db (DATA_DIR created if missing), or the MongoDB view store (database `strata` at MONGO_URL) when
 * VIEW_STORE=mongodb; BullMQ when REDIS_URL is set, else the in-process queue.
 */
export async function openInfra(config: StrataConfig, log: Logger): Promise<Infra> {
  const problems = unavailableBackends(config);
  if (problems.length > 0) throw new ConfigError(problems);
  await mkdir(config.dataDir, { recursive: true });

  const eventLog = log.child({ component: 'eventStore' });
  const eventStore =
    config.eventStore === 'esdb' && config.eventStoreUrl !== null
      ? createKurrentEventStore({ url: config.eventStoreUrl, log: eventLog })
      : createSqliteEventStore({ file: join(config.dataDir, 'events.db'), log: eventLog });
  let viewStore: ViewStore;
  try {
    const viewLog = log.child({ component: 'viewStore' });
    viewStore =
      config.viewStore === 'mongodb' && config.mongoUrl !== null
        ? createMongoViewStore({ url: config.mongoUrl, database: 'strata', log: viewLog })
        : createSqliteViewStore({ file: join(config.dataDir, 'views.db'), log: viewLog });
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
