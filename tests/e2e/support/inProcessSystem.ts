import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import type { Logger } from 'pino';
import { systemClock } from '../../../contracts/index.ts';
import type { EventStore, ViewStore } from '../../../contracts/index.ts';
import {
  createBranchCommandHandlers,
  createCommandService,
  createSqliteEventStore,
  createSystemStateSource,
} from '../../../command-service/index.ts';
import {
  allProjectors,
  createInProcessQueue,
  createProjectionOperations,
  createProjectionWorker,
  createSqliteViewStore,
} from '../../../projection-worker/index.ts';
import { commonHeaders, createQueryService, errorHandler, notFound, requestLogger } from '../../../query-service/index.ts';
import { TEST_COMMAND_CONFIG } from '../../../command-service/testing/commandConfig.ts';

type CommandDeps = Parameters<typeof createCommandService>[0];
type QueryDeps = Parameters<typeof createQueryService>[0];
type SqliteViewStore = ReturnType<typeof createSqliteViewStore>;

export type InProcessOptions = {
  /** Prefix of the temporary DATA_DIR. */
  readonly dirPrefix: string;
  readonly log: Logger;
  /** Lease owner name of the projection worker. */
  readonly owner: string;
  readonly jwtSecret: string;
  readonly adminPassword: string;
  readonly resolveApiKey?: CommandDeps['resolveApiKey'];
  /** What the query service reads through (default the view store itself); the projection worker writes the real one. */
  readonly readViewsThrough?: (viewStore: SqliteViewStore) => ViewStore;
  readonly queryConfig: QueryDeps['config'];
  readonly onGraphqlCompile?: QueryDeps['onGraphqlCompile'];
};

export type InProcessSystem = {
  readonly url: string;
  readonly log: Logger;
  readonly eventStore: EventStore;
  readonly viewStore: SqliteViewStore;
  readonly command: ReturnType<typeof createCommandService>;
  /** The projections API's operations (operations.md §5.1), as `strata serve` composes them. */
  readonly projections: ReturnType<typeof createProjectionOperations>;
  close(): Promise<void>;
};

/**
 * The whole system in this process, composed like the embedded deployment: SQLite event and view stores in a
 * temporary DATA_DIR, the projection worker, the command service and the query service behind one express app.
 */
export async function startInProcessSystem(options: InProcessOptions): Promise<InProcessSystem> {
  const { log } = options;
  const dir = await mkdtemp(join(tmpdir(), options.dirPrefix));
  const eventStore = createSqliteEventStore({ file: join(dir, 'events.db'), log });
  const viewStore = createSqliteViewStore({ file: join(dir, 'views.db'), log });
  const decisionViews = createSqliteViewStore({ file: join(dir, 'state.db'), log });
  const queue = createInProcessQueue();
  const projector = createProjectionWorker({
    projectors: allProjectors,
    eventStore,
    viewStore,
    queue,
    log,
    clock: systemClock,
    owner: options.owner,
  });
  const systemState = createSystemStateSource({ eventStore });
  const command = createCommandService({
    eventStore,
    systemState,
    clock: systemClock,
    log,
    config: { ...TEST_COMMAND_CONFIG, jwtSecret: options.jwtSecret, adminPassword: options.adminPassword },
    branchHandlers: (deps) => createBranchCommandHandlers({ ...deps, decisionViews }),
    ...(options.resolveApiKey !== undefined ? { resolveApiKey: options.resolveApiKey } : {}),
  });
  const projections = createProjectionOperations({ projectors: allProjectors, eventStore, viewStore, clock: systemClock, log, dropDelayMs: 0 });
  const query = createQueryService({
    viewStore: options.readViewsThrough?.(viewStore) ?? viewStore,
    projections,
    systemState,
    gateway: command.gateway,
    authenticator: command.authenticator,
    waiter: projector.waiter,
    eventStoreBackend: eventStore.backend,
    log,
    ...(options.onGraphqlCompile !== undefined ? { onGraphqlCompile: options.onGraphqlCompile } : {}),
    config: options.queryConfig,
  });
  await projector.start();
  await command.start();
  await query.start();

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(commonHeaders, requestLogger(log), query.router, notFound, errorHandler);
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    eventStore,
    viewStore,
    command,
    projections,
    async close() {
      await projections.whenIdle();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await query.stop();
      await command.stop();
      await projector.stop();
      await queue.close();
      await viewStore.close();
      await decisionViews.close();
      await eventStore.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
