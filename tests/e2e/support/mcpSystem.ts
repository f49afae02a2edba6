import assert from 'node:assert/strict';
import { pino } from 'pino';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AppError, type Principal } from '../../../contracts/index.ts';
import type { McpConfig } from '../../../query-service/index.ts';
import { startInProcessSystem } from './inProcessSystem.ts';
import { parseBody } from './parseBody.ts';
import type { Reply } from './systemHarness.ts';

export const ADMIN_PASSWORD = 'mcp-admin-password';

export type { Reply };

export type McpClient = {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  /** Headers sent with every following request (e.g. a different Authorization). */
  headers: Record<string, string>;
};

export type McpSystem = {
  readonly url: string;
  /** Every log line written so far (raw JSON text). */
  readonly logText: () => string;
  /** API keys the fake key resolver knows (the real API-key core is another issue). */
  readonly apiKeys: { add(key: string, principal: Principal): void; revoke(key: string): void };
  rest(token: string | null, method: string, path: string, body?: unknown): Promise<Reply>;
  login(username: string, password: string): Promise<string>;
  /** POST/GET/DELETE /mcp with raw JSON (for transport-level checks). */
  raw(method: string, body: unknown, headers?: Record<string, string>, query?: string): Promise<Reply>;
  /** initialize + notifications/initialized over raw HTTP; returns the session id. */
  rawSession(headers?: Record<string, string>): Promise<string>;
  /** An SDK client connected through StreamableHTTPClientTransport. */
  connect(headers?: Record<string, string>): Promise<McpClient>;
  close(): Promise<void>;
};

async function parse(res: Response): Promise<Reply> {
  return { status: res.status, headers: res.headers, body: parseBody(await res.text()) };
}

export const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
};
export const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** The embedded system (SQLite stores, projector, command and query roles) serving /mcp, with captured logs. */
export async function startMcpSystem(mcp: Partial<McpConfig> = {}): Promise<McpSystem> {
  const lines: string[] = [];
  const keys = new Map<string, Principal>();
  const revoked = new Set<string>();
  const system = await startInProcessSystem({
    dirPrefix: 'strata-mcp-',
    log: pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) }),
    owner: 'mcp',
    jwtSecret: 'mcp-secret-that-is-at-least-32-bytes-long',
    adminPassword: ADMIN_PASSWORD,
    resolveApiKey: async (key) => {
      if (revoked.has(key)) throw new AppError('API_KEY_REVOKED');
      return keys.get(key) ?? null;
    },
    queryConfig: { writeConsistency: 'projected', consistencyTimeoutMs: 5000, bodyLimitBytes: 64 * 1024, bodyLimitText: '64kb', mcp },
  });
  const { url } = system;
  const clients: McpClient[] = [];

  const mcpSystem: McpSystem = {
    url,
    logText: () => lines.join(''),
    apiKeys: { add: (key, principal) => void keys.set(key, principal), revoke: (key) => void revoked.add(key) },
    async rest(token, method, path, body) {
      const headers: Record<string, string> = body === undefined ? {} : { 'Content-Type': 'application/json' };
      if (token !== null) headers.Authorization = `Bearer ${token}`;
      return parse(await fetch(`${url}/api${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }));
    },
    async login(username, password) {
      const reply = await mcpSystem.rest(null, 'POST', '/auth/login', { username, password });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply.body.accessToken as string;
    },
    async raw(method, body, headers = {}, query = '') {
      const init: RequestInit = { method, headers: { ...MCP_HEADERS, 'MCP-Protocol-Version': '2025-06-18', ...headers } };
      if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
      return parse(await fetch(`${url}/mcp${query}`, init));
    },
    async rawSession(headers = {}) {
      const reply = await mcpSystem.raw('POST', INIT, headers);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      const id = reply.headers.get('mcp-session-id');
      assert.ok(id);
      const initialized = await mcpSystem.raw('POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...headers, 'Mcp-Session-Id': id });
      assert.equal(initialized.status, 202);
      return id;
    },
    async connect(headers = {}) {
      const handle = { headers } as McpClient;
      const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
        fetch: (input, init) => {
          const merged = new Headers(init?.headers);
          for (const [name, value] of Object.entries(handle.headers)) merged.set(name, value);
          return fetch(input, { ...init, headers: merged });
        },
      });
      const client = new Client({ name: 'strata-e2e', version: '1.0.0' });
      await client.connect(transport);
      Object.assign(handle, { client, transport });
      clients.push(handle);
      return handle;
    },
    async close() {
      for (const { client } of clients) await client.close().catch(() => undefined);
      await system.close();
    },
  };
  return mcpSystem;
}

/** The structured content of a successful tool result. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test JSON
export function ok(result: unknown): any {
  const r = result as { isError?: boolean; structuredContent?: unknown; content?: { type: string; text: string }[] };
  assert.notEqual(r.isError, true, JSON.stringify(r.structuredContent));
  assert.deepEqual(JSON.parse(r.content?.[0]?.text ?? 'null'), r.structuredContent);
  return r.structuredContent;
}

/** Asserts a tool error result with `code`. */
export function toolError(result: unknown, code: string): { code: string; message: string; details?: unknown } {
  const r = result as { isError?: boolean; structuredContent?: { code: string; message: string }; content?: { text: string }[] };
  assert.equal(r.isError, true, JSON.stringify(r));
  assert.equal(r.structuredContent?.code, code, JSON.stringify(r.structuredContent));
  assert.deepEqual(JSON.parse(r.content?.[0]?.text ?? 'null'), r.structuredContent);
  return r.structuredContent as { code: string; message: string };
}
