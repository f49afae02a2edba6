import assert from 'node:assert/strict';
import { pino } from 'pino';
import { allProjectors, rebuildProjection } from '../../../projection-worker/index.ts';
import { startInProcessSystem } from './inProcessSystem.ts';
import { parseBody } from './parseBody.ts';

export const ADMIN_PASSWORD = 'e2e-admin-password';

export type Reply = {
  readonly status: number;
  readonly headers: Headers;
  /** Parsed JSON (the text when it is not JSON, null for an empty body). */
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
  /** The stagings of imports in progress (versioned-storage.md §6). */
  stagings(): Promise<{ readonly stagingId: string; readonly events: number }[]>;
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
  return { status: res.status, headers: res.headers, body: parseBody(await res.text()) };
}

function clientOf(url: string, baseHeaders: Record<string, string>): Client {
  return {
    rest: (method, path, body, headers = {}) => send(`${url}/api${path}`, method, body, { ...baseHeaders, ...headers }),
    gql: (query, variables, headers = {}) => send(`${url}/graphql`, 'POST', { query, variables }, { ...baseHeaders, ...headers }),
  };
}

/** The whole system in this process (inProcessSystem.ts) with REST and GraphQL clients. */
export async function startSystem(
  options: {
    readonly writeConsistency?: 'projected' | 'appended';
    readonly consistencyTimeoutMs?: number;
    readonly importMaxBytes?: number;
    /** Stage imports above this many rows in chunks of `chunkRows` (portabilityRoutes.ts `stagedImport`). */
    readonly stagedImport?: { readonly aboveRows: number; readonly chunkRows: number; readonly maxRows?: number };
  } = {},
): Promise<System> {
  const system = await startInProcessSystem({
    dirPrefix: 'strata-system-',
    log: pino({ level: 'silent' }),
    owner: 'e2e',
    jwtSecret: 'e2e-secret-that-is-at-least-32-bytes-long',
    adminPassword: ADMIN_PASSWORD,
    queryConfig: {
      writeConsistency: options.writeConsistency ?? 'projected',
      consistencyTimeoutMs: options.consistencyTimeoutMs ?? 5000,
      bodyLimitBytes: 10 * 1024 * 1024,
      bodyLimitText: '10mb',
      ...(options.importMaxBytes === undefined && options.stagedImport === undefined
        ? {}
        : {
            portability: {
              importMaxBytes: options.importMaxBytes ?? 1024 ** 3,
              importMaxBytesText: `${options.importMaxBytes ?? 1024 ** 3}b`,
              ...(options.stagedImport ? { stagedImport: options.stagedImport } : {}),
            },
          }),
    },
  });
  const { url, eventStore, viewStore, log } = system;
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
    stagings: async () => (await eventStore.staging?.list()) ?? [],
    holdRebuildLease: (name, owner) => viewStore.acquireLease(`${name}:rebuild`, owner, 60_000),
    releaseRebuildLease: (name, owner) => viewStore.releaseLease(`${name}:rebuild`, owner),
    rebuildsIdle: () => system.projections.whenIdle(),
    close: () => system.close(),
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
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test JSON
export function gqlData(reply: Reply): any {
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  assert.equal(reply.body?.errors, undefined, JSON.stringify(reply.body?.errors));
  return reply.body.data;
}
