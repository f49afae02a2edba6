import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { pino } from 'pino';
import { systemClock } from '../../../contracts/index.ts';
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
  rebuildProjection,
} from '../../../projection-worker/index.ts';
import { commonHeaders, createQueryService, errorHandler, notFound, requestLogger } from '../../../query-service/index.ts';

export const ADMIN_PASSWORD = 'e2e-admin-password';

export type Reply = {
  readonly status: number;
  readonly headers: Headers;
  /** Parsed JSON (null for an empty body). */
  readonly body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
};

export type Client = {
  /** REST call below `/api`; `body` is sent as JSON. */
  rest(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** POST /graphql. */
  gql(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<Reply>;
};

export type System = Client & {
  readonly url: string;
  /** A client sending `Authorization: Bearer <token>` (no token: anonymous). */
  as(token: string | null): Client;
  /** Password login through REST; returns the access token. */
  login(username: string, password: string): Promise<string>;
  /** `strata projections rebuild all`: every projection replayed into a new version that readers switch to. */
  rebuildAll(): Promise<void>;
  /** Position of the last event in the log (null when empty). */
  headPosition(): Promise<string | null>;
  /** Takes a projection's rebuild lease as another process (a CLI rebuild) would. */
  holdRebuildLease(name: string, owner: string): Promise<boolean>;
  releaseRebuildLease(name: string, owner: string): Promise<void>;
  /** Resolves when the rebuilds started through the API have ended. */
  rebuildsIdle(): Promise<void>;
  close(): Promise<void>;
};

async function send(url: string, method: string, body: unknown, headers: Record<string, string>): Promise<Reply> {
  const res = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? null : JSON.parse(text) };
}

function clientOf(url: string, baseHeaders: Record<string, string>): Client {
  return {
    rest: (method, path, body, headers = {}) => send(`${url}/api${path}`, method, body, { ...baseHeaders, ...headers }),
    gql: (query, variables, headers = {}) => send(`${url}/graphql`, 'POST', { query, variables }, { ...baseHeaders, ...headers }),
  };
}

/**
 * The whole system in this process, composed like the embedded deployment: SQLite event and view stores in a
 * temporary DATA_DIR, the projection worker, the command service and the query service behind one express app.
 */
export async function startSystem(
  options: { readonly writeConsistency?: 'projected' | 'appended'; readonly consistencyTimeoutMs?: number } = {},
): Promise<System> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-system-'));
  const log = pino({ level: 'silent' });
  const eventStore = createSqliteEventStore({ file: join(dir, 'events.db'), log });
  const viewStore = createSqliteViewStore({ file: join(dir, 'views.db'), log });
  const queue = createInProcessQueue();
  const projector = createProjectionWorker({ projectors: allProjectors, eventStore, viewStore, queue, log, clock: systemClock, owner: 'e2e' });
  const systemState = createSystemStateSource({ eventStore });
  const command = createCommandService({
    eventStore,
    systemState,
    clock: systemClock,
    log,
    config: {
      jwtSecret: 'e2e-secret-that-is-at-least-32-bytes-long',
      accessTokenTtlSeconds: 1800,
      loginMaxFailures: 5,
      loginMaxFailuresPerIp: 50,
      loginWindowMs: 900_000,
      adminPassword: ADMIN_PASSWORD,
    },
    branchHandlers: (deps) => createBranchCommandHandlers(deps),
  });
  const projections = createProjectionOperations({ projectors: allProjectors, eventStore, viewStore, clock: systemClock, log, dropDelayMs: 0 });
  const query = createQueryService({
    viewStore,
    projections,
    systemState,
    gateway: command.gateway,
    authenticator: command.authenticator,
    waiter: projector.waiter,
    eventStoreBackend: eventStore.backend,
    log,
    config: {
      writeConsistency: options.writeConsistency ?? 'projected',
      consistencyTimeoutMs: options.consistencyTimeoutMs ?? 5000,
      bodyLimitBytes: 10 * 1024 * 1024,
      bodyLimitText: '10mb',
    },
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
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const anonymous = clientOf(url, {});

  return {
    url,
    ...anonymous,
    as: (token) => clientOf(url, token === null ? {} : { Authorization: `Bearer ${token}` }),
    async login(username, password) {
      const reply = await anonymous.rest('POST', '/auth/login', { username, password });
      assert.equal(reply.status, 200, `login ${username}: ${JSON.stringify(reply.body)}`);
      return reply.body.accessToken as string;
    },
    async rebuildAll() {
      for (const projector of allProjectors) await rebuildProjection({ projector, eventStore, viewStore, log, dropDelayMs: 0 });
    },
    headPosition: () => eventStore.headPosition(),
    holdRebuildLease: (name, owner) => viewStore.acquireLease(`${name}:rebuild`, owner, 60_000),
    releaseRebuildLease: (name, owner) => viewStore.releaseLease(`${name}:rebuild`, owner),
    rebuildsIdle: () => projections.whenIdle(),
    async close() {
      await projections.whenIdle();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await query.stop();
      await command.stop();
      await projector.stop();
      await queue.close();
      await viewStore.close();
      await eventStore.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Asserts an errors.md REST error. */
export function assertRestError(reply: Reply, status: number, code: string): void {
  assert.equal(reply.status, status, `expected ${status} ${code}, got ${reply.status} ${JSON.stringify(reply.body)}`);
  assert.equal(reply.body?.code, code, JSON.stringify(reply.body));
  assert.equal(reply.body?.statusCode, status);
}

/** Asserts a resolver-level GraphQL error (HTTP 200) on the first error. */
export function assertGqlError(reply: Reply, code: string, status: number): void {
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  const error = reply.body?.errors?.[0];
  assert.equal(error?.extensions?.code, code, JSON.stringify(reply.body));
  assert.equal(error?.extensions?.statusCode, status);
}

/** Asserts a successful GraphQL answer and returns its data. */
export function gqlData(reply: Reply): any { // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  assert.equal(reply.body?.errors, undefined, JSON.stringify(reply.body?.errors));
  return reply.body.data;
}
