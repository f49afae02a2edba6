import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Logger } from 'pino';
import type { Clock } from '../../contracts/index.ts';
import type { McpSessionControl } from './mcpCallContext.ts';
import { JSON_RPC, McpHttpError } from './mcpHttpError.ts';
import type { McpBinding, McpSessionRecord, McpSessionStore } from './mcpSessionStore.ts';

/** A session served by this process: its SDK transport and server. */
export type LiveSession = {
  readonly id: string;
  readonly transport: StreamableHTTPServerTransport;
  readonly server: Server;
  /** Set by logout: the transport closes once the current response is sent. */
  ending: boolean;
};

export type McpSessionRegistry = {
  /**
   * A new session (record + transport) for `initialize`: 503 "Too many sessions" at capacity, 429 when a session
   * without a principal would exceed its client IP's anonymous budget.
   */
  open(binding: McpBinding | null, protocolVersion: string, clientIp: string): Promise<LiveSession>;
  /** The live session and its record, or null (unknown, ended, expired, or served by another process). */
  find(id: string): Promise<{ readonly live: LiveSession; readonly record: McpSessionRecord } | null>;
  bind(id: string, binding: McpBinding): Promise<void>;
  touch(id: string): Promise<void>;
  /** Ends a session: record removed, transport (and its SSE streams) closed. */
  end(id: string): Promise<void>;
  control(id: string): McpSessionControl;
  /** Ends expired sessions; called by the sweeper. */
  sweep(): Promise<void>;
  /** Live sessions in this process. */
  readonly size: number;
  closeAll(): Promise<void>;
};

/**
 * Ties session records (McpSessionStore, possibly shared by replicas) to the transports this process holds. The
 * SDK transport is created with our id (`sessionIdGenerator` returns a fresh `randomUUID()`), so the record exists
 * — and the capacity is checked — before the SDK sees the request.
 */
export function createMcpSessionRegistry(deps: {
  readonly store: McpSessionStore;
  readonly clock: Clock;
  readonly log: Logger;
  readonly newServer: () => Server;
}): McpSessionRegistry {
  const { store, clock, log } = deps;
  const live = new Map<string, LiveSession>();

  async function closeLocal(id: string): Promise<void> {
    const session = live.get(id);
    if (session === undefined) return;
    live.delete(id);
    try {
      await session.transport.close();
    } catch (err) {
      log.warn({ err }, 'mcp transport close failed');
    }
  }

  async function end(id: string): Promise<void> {
    await store.delete(id);
    await closeLocal(id);
  }

  async function bind(id: string, binding: McpBinding): Promise<void> {
    const evicted = await store.bind(id, binding);
    for (const other of evicted) await closeLocal(other);
    if (evicted.length > 0) log.info({ evicted: evicted.length }, 'mcp sessions evicted (per-principal limit)');
  }

  return {
    async open(binding, protocolVersion, clientIp) {
      const now = clock.now();
      const id = randomUUID();
      // A session bound at initialize never counts against the anonymous budget; bind() applies the per-principal limit.
      const created = await store.create({ id, binding, createdAt: now, lastSeenAt: now, protocolVersion, clientIp });
      if (created === 'full') throw new McpHttpError(503, JSON_RPC.serverError, 'Too many sessions', undefined, { 'Retry-After': '60' });
      if (created === 'anonymousLimit') {
        throw new McpHttpError(429, JSON_RPC.serverError, 'Too many anonymous sessions from this address; authenticate or end a session', undefined, {
          'Retry-After': '60',
        });
      }
      if (binding !== null) await bind(id, binding);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id, enableJsonResponse: true });
      const server = deps.newServer();
      // Closing the transport (DELETE, sweep, eviction, shutdown) ends the record too.
      server.onclose = () => {
        live.delete(id);
        store.delete(id).catch((err: unknown) => log.warn({ err }, 'mcp session record delete failed'));
      };
      await server.connect(transport);
      const session: LiveSession = { id, transport, server, ending: false };
      live.set(id, session);
      return session;
    },

    async find(id) {
      const record = await store.get(id, clock.now());
      const session = live.get(id);
      if (record === null) {
        if (session !== undefined && !session.ending) await closeLocal(id);
        return null;
      }
      return session === undefined ? null : { live: session, record };
    },

    bind,

    async touch(id) {
      await store.touch(id, clock.now());
    },

    end,

    control(id) {
      return {
        bind: (binding) => bind(id, binding),
        async endAfterResponse() {
          // The id is dead for every other request at once; the transport closes after this response.
          await store.delete(id);
          const session = live.get(id);
          if (session !== undefined) session.ending = true;
        },
      };
    },

    async sweep() {
      const expired = await store.sweep(clock.now());
      for (const id of expired) await closeLocal(id);
      // Records ended elsewhere (another replica's eviction) leave transports here: close them too.
      for (const [id, session] of [...live]) {
        if (!session.ending && (await store.get(id, clock.now())) === null) await closeLocal(id);
      }
      if (expired.length > 0) log.debug({ expired: expired.length }, 'mcp sessions expired');
    },

    get size() {
      return live.size;
    },

    async closeAll() {
      for (const id of [...live.keys()]) await closeLocal(id);
    },
  };
}
