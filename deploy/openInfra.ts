import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { EventStore, Queue, ViewStore } from '../contracts/index.ts';
import { rowViews } from '../contracts/index.ts';
import { createSqliteEventStore, loadKurrentEventStore } from '../command-service/index.ts';
import { createInProcessQueue, createSqliteViewStore, loadBullmqQueue, loadMongoViewStore } from '../projection-worker/index.ts';
import { sqliteThreadSource } from './sqliteThreadSource.ts';
import { ConfigError, type ConfigProblem, type StrataConfig } from './config/strataConfig.ts';

export type Infra = {
  readonly eventStore: EventStore;
  readonly viewStore: ViewStore;
  readonly queue: Queue;
  /**
   * The write side's durable decision state (docs/reference/versioned-storage.md §2): always SQLite,
   * DATA_DIR/state.db, whatever the event and view stores are. A cache of the log: deleting it costs one catch-up.
   */
  readonly decisionViews: ViewStore;
  /**
   * Client for the shared ephemeral state (login counters, `lastUsedAt`, MCP session records) when REDIS_URL is
   * set; it connects on first use, so processes that never touch it never connect.
   */
  readonly redis: Redis | null;
  /** Closes the queue, Redis, then the view store, then the event store; never rejects (failures are logged). */
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

export type Stores = {
  readonly eventStore: EventStore;
  readonly viewStore: ViewStore;
  /** Closes the view store, then the event store; never rejects. */
  close(): Promise<void>;
};

/**
 * Page caches of a serving process, KiB (each a ceiling per connection and file, filled as pages are read; the OS
 * caches the files beneath them). The main connection of each view file serves projection writes and reads by key,
 * as its finds run on the read threads. At 1,000,000 rows (bench/RESULTS.md, scale) these caches were the part of
 * the resident memory that grew with the table: halving them (32 to 16 MiB per view file, 16 to 8 MiB per read
 * thread and per decision-state file) took RSS after writing to that table from 317 to 275 MB, bulk loads and
 * single-row writes unchanged within run-to-run noise (issue 29). A rebuild's writing thread keeps 32 MiB: CREATE
 * INDEX sorts in it before spilling to temporary files. The operator CLI (rebuilds) keeps the store's default.
 */
const SERVING_VIEWS_CACHE_KIB = 16_384;
const READ_THREAD_CACHE_KIB = 8_192;
const SHADOW_CACHE_KIB = 32_768;
/** Decisions read the state by key (touched rows, foreign-key targets); a small cache serves them. */
const DECISION_STATE_CACHE_KIB = 8_192;

/**
 * Opens the stores chosen by the configuration: KurrentDB at EVENTSTORE_URL when EVENT_STORE=esdb, else the SQLite
 * file DATA_DIR/events.db; the MongoDB view store (database `strata` at MONGO_URL) when VIEW_STORE=mongodb, else
 * DATA_DIR/views.db (DATA_DIR created if missing). The operator CLI uses this alone. Reads of the views answer
 * `503 QUERY_TIMEOUT` past QUERY_TIMEOUT_MS (MongoDB: maxTimeMS); with `readThreads` (processes that serve queries)
 * SQLite reads and index builds run on connections in worker threads, never on the event loop.
 */
export async function openStores(config: StrataConfig, log: Logger, options: { readonly readThreads?: boolean } = {}): Promise<Stores> {
  const problems = unavailableBackends(config);
  if (problems.length > 0) throw new ConfigError(problems);
  await mkdir(config.dataDir, { recursive: true });

  const eventLog = log.child({ component: 'eventStore' });
  const eventStore =
    config.eventStore === 'esdb' && config.eventStoreUrl !== null
      ? (await loadKurrentEventStore()).createKurrentEventStore({ url: config.eventStoreUrl, log: eventLog })
      : createSqliteEventStore({ file: join(config.dataDir, 'events.db'), log: eventLog });
  let viewStore: ViewStore;
  try {
    const viewLog = log.child({ component: 'viewStore' });
    viewStore =
      config.viewStore === 'mongodb' && config.mongoUrl !== null
        ? (await loadMongoViewStore()).createMongoViewStore({
            url: config.mongoUrl,
            database: 'strata',
            log: viewLog,
            queryTimeoutMs: config.queryTimeoutMs,
          })
        : createSqliteViewStore({
            file: join(config.dataDir, 'views.db'),
            log: viewLog,
            ...(options.readThreads === true
              ? {
                  reads: {
                    timeoutMs: config.queryTimeoutMs,
                    projections: [rowViews.name],
                    source: sqliteThreadSource(),
                    cacheKiB: READ_THREAD_CACHE_KIB,
                  },
                  cacheKiB: SERVING_VIEWS_CACHE_KIB,
                  shadowCacheKiB: SHADOW_CACHE_KIB,
                }
              : {}),
          });
  } catch (err) {
    await closeAll(log, [['eventStore', () => eventStore.close()]]);
    throw err;
  }
  return {
    eventStore,
    viewStore,
    close: () =>
      closeAll(log, [
        ['viewStore', () => viewStore.close()],
        ['eventStore', () => eventStore.close()],
      ]),
  };
}

/**
 * Opens the stores (openStores), the write side's decision state (DATA_DIR/state.db) and the wake-up queue: BullMQ
 * when REDIS_URL is set, else the in-process queue; plus the Redis client of the shared ephemeral state when
 * REDIS_URL is set.
 */
export async function openInfra(config: StrataConfig, log: Logger): Promise<Infra> {
  const stores = await openStores(config, log, { readThreads: config.roles.includes('query') });
  const { eventStore, viewStore } = stores;
  const queue =
    config.redisUrl === null
      ? createInProcessQueue()
      : (await loadBullmqQueue()).createBullmqQueue({ url: config.redisUrl, log: log.child({ component: 'queue' }) });
  const redis = config.redisUrl === null ? null : await openRedis(config.redisUrl, log.child({ component: 'redis' }));
  const decisionViews = createSqliteViewStore({
    file: join(config.dataDir, 'state.db'),
    log: log.child({ component: 'decisionState' }),
    cacheKiB: DECISION_STATE_CACHE_KIB,
  });
  log.info({ eventStore: eventStore.backend, viewStore: viewStore.backend, queue: queue.kind, dataDir: config.dataDir }, 'infrastructure opened');
  const stopStagingCleanup = startStagingCleanup(eventStore, log.child({ component: 'eventStore' }));

  let closing: Promise<void> | null = null;
  return {
    eventStore,
    viewStore,
    queue,
    redis,
    decisionViews,
    close: () =>
      (closing ??= closeAll(log, [
        ['stagingCleanup', async () => stopStagingCleanup()],
        ['queue', () => queue.close()],
        ['redis', async () => redis?.disconnect()],
        ['decisionViews', () => decisionViews.close()],
        ['stores', () => stores.close()],
      ])),
  };
}

/** An import stages a chunk every few seconds; one staged to for this long was abandoned (versioned-storage.md §6). */
const STAGING_IDLE_MS = 15 * 60_000;

/**
 * Deletes the stagings of imports that will never commit: at start those of processes that are gone (a server
 * killed mid-import) and any idle for STAGING_IDLE_MS, then every few minutes. A no-op without a staging area.
 */
function startStagingCleanup(eventStore: EventStore, log: Logger): () => void {
  const staging = eventStore.staging;
  if (staging === undefined) return () => {};
  const sweep = (): void => {
    staging
      .discardAbandoned(STAGING_IDLE_MS)
      .then((discarded) => {
        if (discarded > 0) log.info({ discarded }, 'abandoned import stagings discarded');
      })
      .catch((err: unknown) => log.warn({ err }, 'discarding abandoned import stagings failed'));
  };
  sweep();
  const timer = setInterval(sweep, STAGING_IDLE_MS / 3);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * A request must never hang on Redis: commands time out after 2 s and are retried once, then the store answers
 * (503 for login throttling and MCP sessions; `lastUsedAt` is best effort).
 */
async function openRedis(url: string, log: Logger): Promise<Redis> {
  // Imported only when REDIS_URL is set (the Mongo, KurrentDB and BullMQ adapters likewise: performance.md "Memory").
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    commandTimeout: 2000,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  redis.on('error', (err: unknown) => log.warn({ err }, 'redis connection error'));
  return redis;
}
