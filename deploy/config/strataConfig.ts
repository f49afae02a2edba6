/** Process roles of spec operations §2, in canonical order. */
export const ALL_ROLES = ['command', 'query', 'projector'] as const;
export type RoleName = (typeof ALL_ROLES)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * `TRUST_PROXY` (auth.md §6.3): null = trust nobody, a number = trust the last n hops, a list = trust these
 * addresses, CIDRs or the names `loopback`, `linklocal`, `uniquelocal`. Shaped so express's `trust proxy` takes it.
 */
export type TrustProxy = null | number | readonly string[];

/** Every variable of spec operations §1, parsed and validated. Tests build this object directly. */
export type StrataConfig = {
  readonly nodeEnv: string;
  readonly production: boolean;
  readonly port: number;
  readonly host: string;
  /** Normalised origin (`https://data.example.com`), or null to derive it per request. */
  readonly publicUrl: string | null;
  readonly dataDir: string;
  /** Null outside production when unset: deploy/config/resolveJwtSecret.ts supplies the stored development secret. */
  readonly jwtSecret: string | null;
  readonly jwtAccessTokenTtlSeconds: number;
  readonly jwtRefreshTokenTtlDays: number;
  readonly refreshFamilyMaxAgeDays: number;
  readonly jwtRefreshGracePeriodMs: number;
  readonly adminPassword: string;
  readonly cookieSecure: boolean;
  readonly cookieSameSite: 'lax' | 'strict' | 'none';
  readonly trustProxy: TrustProxy;
  /** Exact origins allowed for credentialed CORS; empty = no CORS headers. */
  readonly corsOrigins: readonly string[];
  /** ALLOWED_HOSTS: extra allowed host names (lower case, `.example.com` for subdomains); `*` turns the check off. */
  readonly allowedHosts: '*' | readonly string[];
  readonly bodyLimitBytes: number;
  /** BODY_LIMIT as written (`10mb`), for messages. */
  readonly bodyLimitText: string;
  /** IMPORT_MAX_BYTES: streamed import and bundle bodies (portability.md §2-§3), and as written for messages. */
  readonly importMaxBytes: number;
  readonly importMaxBytesText: string;
  /** Longest a view read other than by id may take before `503 QUERY_TIMEOUT` (reads run off the event loop). */
  readonly queryTimeoutMs: number;
  readonly apiKeyMaxPerUser: number;
  readonly apiKeyMaxServicePerOrg: number;
  readonly loginMaxFailures: number;
  readonly loginMaxFailuresPerIp: number;
  readonly loginWindowMs: number;
  readonly eventStore: 'sqlite' | 'esdb';
  readonly eventStoreUrl: string | null;
  readonly viewStore: 'sqlite' | 'mongodb';
  readonly mongoUrl: string | null;
  readonly redisUrl: string | null;
  /** Distinct roles in canonical order. */
  readonly roles: readonly RoleName[];
  readonly commandUrl: string | null;
  readonly writeConsistency: 'projected' | 'appended';
  readonly consistencyTimeoutMs: number;
  readonly readyMaxLagEvents: number;
  readonly graphqlRootFieldPrefix: boolean;
  readonly logLevel: LogLevel;
  readonly metricsEnabled: boolean;
  readonly mcpSessionIdleMs: number;
  readonly mcpSessionMaxAgeMs: number;
  readonly mcpMaxSessions: number;
  /** Live anonymous MCP sessions per client IP. */
  readonly mcpMaxAnonymousSessionsPerIp: number;
  /** Idle timeout of an MCP session without a principal. */
  readonly mcpAnonymousSessionIdleMs: number;
  readonly shutdownTimeoutMs: number;
  /** WEBHOOK_* of changes.md §7. */
  readonly webhookTimeoutMs: number;
  readonly webhookRetryScheduleMs: readonly number[];
  readonly webhookDisableAfterFailures: number;
  readonly webhookAllowPrivateAddresses: boolean;
  readonly webhookConcurrency: number;
  /** Open change-feed streams per principal. */
  readonly eventStreamsPerPrincipal: number;
  /** MCP_ANONYMOUS_SESSIONS: false → `initialize` without a credential is 401 (oauth.md §8). */
  readonly mcpAnonymousSessions: boolean;
  /** OAUTH_ENABLED: discovery, `/oauth/*` and OAuth tokens on /mcp (oauth.md §8). */
  readonly oauthEnabled: boolean;
  readonly oauthAccessTokenTtlSeconds: number;
  readonly oauthRefreshTokenTtlDays: number;
  readonly oauthMaxClients: number;
  /** Allow Client ID Metadata Documents on loopback/private addresses (tests, private deployments). */
  readonly oauthCimdAllowPrivateAddresses: boolean;
};

export type ConfigProblem = { readonly variable: string; readonly message: string };

/** Startup refused: lists every bad variable by name (never a secret value). */
export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];
  constructor(problems: readonly ConfigProblem[]) {
    super(['invalid configuration:', ...problems.map((p) => `  ${p.variable}: ${p.message}`)].join('\n'));
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export function isConfigError(err: unknown): err is ConfigError {
  return err instanceof Error && err.name === 'ConfigError';
}
