import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../deploy/config/loadConfig.ts';
import { createRootLogger } from '../../../deploy/logger.ts';
import { startStrata } from '../../../deploy/main.ts';
import { createCookieJar, setCookiesOf, type CookieJar, type SetCookie } from './cookieJar.ts';
import { parseBody } from './parseBody.ts';

export const ADMIN_PASSWORD = 'auth-e2e-admin-password';
const JWT_SECRET = 'auth-e2e-jwt-secret-that-is-long-enough-0123456789';

export type HttpReply = {
  readonly status: number;
  readonly headers: Headers;
  /** Parsed JSON, the text when it is not JSON, null when empty. */
  readonly body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  readonly text: string;
  readonly cookies: SetCookie[];
};

export type CallOptions = {
  /** Sent as JSON (a string is sent as is). */
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** Browser-like cookies: sent for the path and updated from the answer. */
  readonly jar?: CookieJar;
  /** `Authorization: Bearer <token>`. */
  readonly token?: string;
};

export type AuthServer = {
  /** Base URL, which is also the server's own origin. */
  readonly url: string;
  readonly dataDir: string;
  call(method: string, path: string, options?: CallOptions): Promise<HttpReply>;
  /** POST a GraphQL document to `path` (default the system `/graphql`). */
  gql(query: string, options?: CallOptions & { readonly variables?: Record<string, unknown>; readonly path?: string }): Promise<HttpReply>;
  /** REST login into a fresh jar (or `jar`); returns the access token too. */
  login(username: string, password: string, jar?: CookieJar): Promise<{ readonly jar: CookieJar; readonly accessToken: string }>;
  /** Creates a user as `adminToken` and remembers the password. Returns the user id. */
  createUser(adminToken: string, username: string, password: string): Promise<string>;
  /** Values that must never appear in a log line (passwords; secrets and tokens seen in answers are added by call). */
  remember(...values: string[]): void;
  /** Every log line written so far (JSON lines of the root logger, after redaction). */
  logLines(): string[];
  /** Fails when any remembered value appears in any log line. */
  assertNoSecretsLogged(): void;
  close(): Promise<void>;
};

/** Token-like values in an answer: API-key secrets and access tokens. */
function collectSecrets(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) collectSecrets(item, into);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if ((key === 'secret' || key === 'accessToken') && typeof item === 'string') into.add(item);
      else collectSecrets(item, into);
    }
  }
}

/**
 * A complete Strata process in this test process, composed by deploy (loadConfig from `env`, the root logger with
 * its redaction, startStrata with every role over SQLite in a temporary DATA_DIR), its log lines captured.
 */
export async function startAuthServer(env: Record<string, string> = {}): Promise<AuthServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'strata-auth-e2e-'));
  const lines: string[] = [];
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    JWT_SECRET,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'trace',
    ...env,
  });
  const log = createRootLogger(config, { write: (line: string) => void lines.push(line) });
  const handle = await startStrata(config, { log });
  const secrets = new Set<string>([ADMIN_PASSWORD, JWT_SECRET]);

  const call: AuthServer['call'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = {};
    if (options.body !== undefined && typeof options.body !== 'string') headers['Content-Type'] = 'application/json';
    if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
    const cookie = options.jar?.header(path.split('?')[0] ?? path);
    if (cookie !== undefined) headers.Cookie = cookie;
    Object.assign(headers, options.headers);
    const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    const res = await fetch(`${handle.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await res.text();
    const parsed = parseBody(text);
    options.jar?.store(res.headers, path.split('?')[0] ?? path);
    const cookies = setCookiesOf(res.headers);
    for (const set of cookies) if ((set.name === 'svc_at' || set.name === 'svc_rt') && set.value !== '') secrets.add(set.value);
    collectSecrets(parsed, secrets);
    return { status: res.status, headers: res.headers, body: parsed, text, cookies };
  };

  const server: AuthServer = {
    url: handle.url,
    dataDir,
    call,
    gql: (query, options = {}) =>
      call('POST', options.path ?? '/graphql', { ...options, body: { query, ...(options.variables ? { variables: options.variables } : {}) } }),
    async login(username, password, jar = createCookieJar()) {
      secrets.add(password);
      const reply = await call('POST', '/api/auth/login', { body: { username, password }, jar });
      assert.equal(reply.status, 200, `login ${username}: ${reply.text}`);
      return { jar, accessToken: reply.body.accessToken as string };
    },
    async createUser(adminToken, username, password) {
      secrets.add(password);
      const reply = await call('POST', '/api/users', { token: adminToken, body: { username, password } });
      assert.equal(reply.status, 201, reply.text);
      return reply.body.id as string;
    },
    remember: (...values) => values.forEach((value) => secrets.add(value)),
    logLines: () => [...lines],
    assertNoSecretsLogged() {
      assert.ok(lines.length > 0, 'the server logged');
      const text = lines.join('\n');
      for (const secret of secrets) assert.ok(!text.includes(secret), `a secret (${secret.slice(0, 6)}…) appears in the log`);
    },
    async close() {
      await handle.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

/** Asserts a REST error body (errors.md §1). */
export function expectRestError(reply: HttpReply, status: number, code: string): void {
  assert.equal(reply.status, status, `expected ${status} ${code}, got ${reply.status} ${reply.text}`);
  assert.equal(reply.body?.code, code, reply.text);
}

/** The code of the first GraphQL error, with the HTTP status and whether `data` is present. */
export function gqlFailure(reply: HttpReply): [number, string | undefined, boolean] {
  return [reply.status, reply.body?.errors?.[0]?.extensions?.code, reply.body !== null && typeof reply.body === 'object' && 'data' in reply.body];
}

/** The data of a GraphQL answer without errors. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test JSON
export function gqlOk(reply: HttpReply): any {
  assert.equal(reply.status, 200, reply.text);
  assert.equal(reply.body?.errors, undefined, reply.text);
  return reply.body.data;
}
