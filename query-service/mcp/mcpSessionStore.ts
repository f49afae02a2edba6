/**
 * How a session is bound to its principal (mcp.md §2, §3). `principalKey` is what bindings are compared by:
 * `user:<id>` for a user (whatever credential: JWT, personal key, password login) or `service:<keyId>`.
 */
export type McpBinding =
  /** Bound by a header credential: every later request must carry a credential of the same principal. */
  | { readonly kind: 'header'; readonly principalKey: string }
  /** Bound by the `login` tool: requests carry no credential; the user must stay active at this token version. */
  | {
      readonly kind: 'login';
      readonly principalKey: string;
      readonly userId: string;
      readonly username: string;
      readonly tokenVersion: number;
    };

/** A session record: only the id, binding, timestamps and protocol version (operations.md §3). Times in ms. */
export type McpSessionRecord = {
  readonly id: string;
  readonly binding: McpBinding | null;
  readonly createdAt: number;
  readonly lastSeenAt: number;
  readonly protocolVersion: string;
  /** Client IP of the `initialize` request: the budget an anonymous session counts against. */
  readonly clientIp: string;
};

export type McpSessionLimits = {
  /** MCP_SESSION_IDLE_MS: a session not used for this long is expired. */
  readonly idleMs: number;
  /** MCP_SESSION_MAX_AGE_MS: absolute lifetime. */
  readonly maxAgeMs: number;
  /** MCP_MAX_SESSIONS: live sessions per deployment. */
  readonly maxSessions: number;
  /** Live sessions per principal; binding one more ends that principal's least recently used one. */
  readonly maxPerPrincipal: number;
  /** MCP_ANONYMOUS_SESSION_IDLE_MS: idle timeout while a session has no principal. */
  readonly anonymousIdleMs: number;
  /** MCP_MAX_ANONYMOUS_SESSIONS_PER_IP: live sessions without a principal per client IP. */
  readonly maxAnonymousPerIp: number;
};

/** Outcome of `create`: stored, or refused by the deployment's capacity or the client IP's anonymous budget. */
export type McpSessionCreation = 'created' | 'full' | 'anonymousLimit';

/** The idle timeout that applies to a record: shorter while it has no principal. */
export function idleTimeoutOf(record: Pick<McpSessionRecord, 'binding'>, limits: McpSessionLimits): number {
  return record.binding === null ? Math.min(limits.anonymousIdleMs, limits.idleMs) : limits.idleMs;
}

/**
 * Ephemeral MCP session records, shareable by replicas (in memory here, Redis when REDIS_URL is set). Expired
 * records are never returned: `get` of an expired id answers null as if it had ended. The transports themselves
 * live in the process that serves the session; the store only knows the records.
 */
export interface McpSessionStore {
  /**
   * Adds a new session (bound already when `record.binding` is set; `bind` then applies the per-principal limit).
   * Refused, storing nothing, when `maxSessions` live sessions exist (`full`) or, for a session without a
   * principal, when its client IP has `maxAnonymousPerIp` live anonymous sessions (`anonymousLimit`).
   */
  create(record: McpSessionRecord): Promise<McpSessionCreation>;
  /** The live record, or null for an unknown, ended or expired id. */
  get(id: string, now: number): Promise<McpSessionRecord | null>;
  /** Records a request: the idle timeout restarts. */
  touch(id: string, now: number): Promise<void>;
  /**
   * Binds a live session (it leaves its IP's anonymous budget and gets the normal idle timeout) and returns the ids of the principal's sessions ended to stay within `maxPerPrincipal`
   * (least recently used first; never `id` itself).
   */
  bind(id: string, binding: McpBinding): Promise<readonly string[]>;
  /** Ends a session (idempotent). */
  delete(id: string): Promise<void>;
  /** Drops every expired record and returns their ids. */
  sweep(now: number): Promise<readonly string[]>;
  /** Number of live sessions. */
  count(now: number): Promise<number>;
}
