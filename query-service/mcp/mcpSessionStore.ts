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
};

/**
 * Ephemeral MCP session records, shareable by replicas (in memory here, Redis when REDIS_URL is set). Expired
 * records are never returned: `get` of an expired id answers null as if it had ended. The transports themselves
 * live in the process that serves the session; the store only knows the records.
 */
export interface McpSessionStore {
  /** Adds a new session; false (nothing stored) when `maxSessions` live sessions exist. */
  create(record: McpSessionRecord): Promise<boolean>;
  /** The live record, or null for an unknown, ended or expired id. */
  get(id: string, now: number): Promise<McpSessionRecord | null>;
  /** Records a request: the idle timeout restarts. */
  touch(id: string, now: number): Promise<void>;
  /**
   * Binds a live session and returns the ids of the principal's sessions ended to stay within `maxPerPrincipal`
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
