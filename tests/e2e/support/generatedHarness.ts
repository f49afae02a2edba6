import assert from 'node:assert/strict';
import { pino, type Logger } from 'pino';
import type { CommandInput, FindQuery, ViewStore } from '../../../contracts/index.ts';
import type { GraphqlExecutionConfig } from '../../../query-service/index.ts';
import { ADMIN_PASSWORD, type Reply } from './systemHarness.ts';
import { checkGeneratedRest } from './generatedRestChecks.ts';
import { startInProcessSystem } from './inProcessSystem.ts';
import { parseBody } from './parseBody.ts';

/** One `find` (or, with `count`, one `count`) the query side made, in order. */
export type RecordedFind = { readonly projection: string; readonly collection: string; readonly query: FindQuery; readonly count?: true };

export type GeneratedSystem = {
  readonly url: string;
  /** Any HTTP call; `body` is sent as JSON unless it is a string (then sent as is, with the given Content-Type). */
  call(method: string, path: string, options?: { body?: unknown; headers?: Record<string, string>; token?: string | null }): Promise<Reply>;
  /** REST below `/api` as a user. */
  api(token: string | null, method: string, path: string, body?: unknown): Promise<Reply>;
  login(username: string, password: string): Promise<string>;
  /** A personal API key of the user `token` belongs to, through the command gateway (returns the secret). */
  personalKey(token: string, scope: Omit<CommandInput<'CreatePersonalApiKey'>, 'name'>): Promise<string>;
  /** Every `find` and `count` of the query service since the last `resetFinds()`. */
  readonly finds: RecordedFind[];
  resetFinds(): void;
  /** `EXPLAIN QUERY PLAN` of a find, on the same SQLite view store. */
  explain(find: RecordedFind): Promise<string[]>;
  close(): Promise<void>;
};

export { ADMIN_PASSWORD };

/**
 * The whole system in this process (inProcessSystem.ts), with the query service's view store wrapped so tests can
 * count and explain its queries, and the generated-API settings a test needs.
 */
export async function startGeneratedSystem(
  options: {
    readonly rootFieldPrefix?: boolean;
    /** Kept GraphQL documents and when operations are compiled (default: the product's). */
    readonly graphqlExecution?: GraphqlExecutionConfig;
    /** Told about each compilation of a generated GraphQL operation (false: graphql-jit declined it). */
    readonly onGraphqlCompile?: (compiled: boolean) => void;
    /** Logger of every role and the request lines (default silent). */
    readonly log?: Logger;
  } = {},
): Promise<GeneratedSystem> {
  const finds: RecordedFind[] = [];
  const counted = (viewStore: ViewStore): ViewStore => ({
    ...viewStore,
    find: (projection, collection, query = {}) => {
      finds.push({ projection, collection, query });
      return viewStore.find(projection, collection, query);
    },
    count: (projection, collection, filter, versions) => {
      finds.push({
        projection,
        collection,
        query: { ...(filter !== undefined ? { filter } : {}), ...(versions !== undefined ? { versions } : {}) },
        count: true,
      });
      return viewStore.count(projection, collection, filter, versions);
    },
  });
  const system = await startInProcessSystem({
    dirPrefix: 'strata-generated-',
    log: options.log ?? pino({ level: 'silent' }),
    owner: 'e2e',
    jwtSecret: 'e2e-secret-that-is-at-least-32-bytes-long',
    adminPassword: ADMIN_PASSWORD,
    readViewsThrough: counted,
    ...(options.onGraphqlCompile !== undefined ? { onGraphqlCompile: options.onGraphqlCompile } : {}),
    queryConfig: {
      writeConsistency: 'projected',
      consistencyTimeoutMs: 5000,
      bodyLimitBytes: 1024 * 1024,
      bodyLimitText: '1mb',
      rootFieldPrefix: options.rootFieldPrefix ?? false,
      ...(options.graphqlExecution !== undefined ? { graphqlExecution: options.graphqlExecution } : {}),
    },
  });
  const { url, command, viewStore } = system;

  const send = async (method: string, path: string, headers: Record<string, string>, body?: string): Promise<Reply> => {
    const res = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
    return { status: res.status, headers: res.headers, body: parseBody(await res.text()) };
  };
  // Every generated REST answer is checked against the OpenAPI document its endpoint serves.
  const call: GeneratedSystem['call'] = async (method, path, { body, headers = {}, token = null } = {}) => {
    const sent: Record<string, string> = { ...(token === null ? {} : { Authorization: `Bearer ${token}` }), ...headers };
    if (body !== undefined && typeof body !== 'string' && !('Content-Type' in headers)) sent['Content-Type'] = 'application/json';
    const reply = await send(method, path, sent, body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
    await checkGeneratedRest((doc, docHeaders) => send('GET', doc, docHeaders), method, path, sent, reply);
    return reply;
  };

  return {
    url,
    call,
    api: (token, method, path, body) => call(method, `/api${path}`, { body, token }),
    async login(username, password) {
      const reply = await call('POST', '/api/auth/login', { body: { username, password } });
      assert.equal(reply.status, 200, `login ${username}: ${JSON.stringify(reply.body)}`);
      return reply.body.accessToken as string;
    },
    async personalKey(token, scope) {
      const credentials = { authorization: `Bearer ${token}`, apiKeyHeader: null, apiKeyQuery: null, accessTokenCookies: [] };
      const principal = await command.authenticator.authenticate(credentials);
      const outcome = await command.gateway.execute('CreatePersonalApiKey', { name: 'e2e', ...scope }, { principal, correlationId: 'e2e' });
      return outcome.result.secret;
    },
    finds,
    resetFinds: () => void finds.splice(0),
    explain: (find) => viewStore.explainFind(find.projection, find.collection, find.query),
    close: () => system.close(),
  };
}
