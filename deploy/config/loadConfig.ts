import { Buffer } from 'node:buffer';
import { createEnvReader, type Env } from './envReader.ts';
import { ALL_ROLES, ConfigError, LOG_LEVELS, type RoleName, type StrataConfig } from './strataConfig.ts';
import {
  parseAllowedHosts,
  parseBodyLimit,
  parseImportLimit,
  parseCorsOrigins,
  parseHttpUrl,
  parsePublicUrl,
  parseRetrySchedule,
  parseRoles,
  parseTrustProxy,
  urlWithScheme,
} from './valueParsers.ts';

const MAX = Number.MAX_SAFE_INTEGER;

/** Problems are listed in the order of the table in operations.md §1. */
const VARIABLES = [
  'NODE_ENV',
  'PORT',
  'HOST',
  'PUBLIC_URL',
  'DATA_DIR',
  'JWT_SECRET',
  'JWT_ACCESS_TOKEN_TTL_SECONDS',
  'JWT_REFRESH_TOKEN_TTL_DAYS',
  'REFRESH_FAMILY_MAX_AGE_DAYS',
  'JWT_REFRESH_GRACE_PERIOD_MS',
  'ADMIN_PASSWORD',
  'COOKIE_SECURE',
  'COOKIE_SAMESITE',
  'TRUST_PROXY',
  'CORS_ORIGIN',
  'ALLOWED_HOSTS',
  'BODY_LIMIT',
  'IMPORT_MAX_BYTES',
  'QUERY_TIMEOUT_MS',
  'API_KEY_MAX_PER_USER',
  'API_KEY_MAX_SERVICE_PER_ORG',
  'LOGIN_MAX_FAILURES',
  'LOGIN_MAX_FAILURES_PER_IP',
  'LOGIN_WINDOW_MS',
  'EVENT_STORE',
  'EVENTSTORE_URL',
  'VIEW_STORE',
  'MONGO_URL',
  'REDIS_URL',
  'ROLES',
  'COMMAND_URL',
  'WRITE_CONSISTENCY',
  'CONSISTENCY_TIMEOUT_MS',
  'READY_MAX_LAG_EVENTS',
  'GRAPHQL_ROOT_FIELD_PREFIX',
  'LOG_LEVEL',
  'METRICS_ENABLED',
  'MCP_SESSION_IDLE_MS',
  'MCP_SESSION_MAX_AGE_MS',
  'MCP_MAX_SESSIONS',
  'MCP_MAX_ANONYMOUS_SESSIONS_PER_IP',
  'MCP_ANONYMOUS_SESSION_IDLE_MS',
  'SHUTDOWN_TIMEOUT_MS',
  'WEBHOOK_TIMEOUT_MS',
  'WEBHOOK_RETRY_SCHEDULE_MS',
  'WEBHOOK_DISABLE_AFTER_FAILURES',
  'WEBHOOK_ALLOW_PRIVATE_ADDRESSES',
  'WEBHOOK_CONCURRENCY',
  'EVENT_STREAMS_PER_PRINCIPAL',
  'MCP_ANONYMOUS_SESSION_IDLE_MS',
  'SHUTDOWN_TIMEOUT_MS',
  'MCP_ANONYMOUS_SESSIONS',
  'OAUTH_ENABLED',
  'OAUTH_ACCESS_TOKEN_TTL_SECONDS',
  'OAUTH_REFRESH_TOKEN_TTL_DAYS',
  'OAUTH_MAX_CLIENTS',
  'OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES',
];
const orderOf = (variable: string): number => VARIABLES.indexOf(variable);
const JWT_SECRET_MIN_BYTES = 32;
/** changes.md §6.2: 8 retries over about 10 hours. */
const DEFAULT_RETRY_SCHEDULE_MS = [5000, 30000, 120000, 600000, 1800000, 3600000, 10800000, 21600000];

/**
 * Parses and validates every variable of spec operations §1. Pure: reads only `env`. Throws one ConfigError
 * naming every bad variable; secret values (JWT_SECRET, ADMIN_PASSWORD, store URLs) never appear in messages.
 */
export function loadConfig(env: Env): StrataConfig {
  const r = createEnvReader(env);
  const nodeEnv = r.raw('NODE_ENV') ?? 'development';
  const production = nodeEnv === 'production';

  const jwtSecret = r.exact('JWT_SECRET') ?? null;
  if (jwtSecret === null && production) r.problem('JWT_SECRET', 'is required when NODE_ENV=production');
  if (jwtSecret !== null && Buffer.byteLength(jwtSecret, 'utf8') < JWT_SECRET_MIN_BYTES) {
    r.problem('JWT_SECRET', `must be at least ${JWT_SECRET_MIN_BYTES} bytes`);
  }

  const jwtRefreshTokenTtlDays = r.int('JWT_REFRESH_TOKEN_TTL_DAYS', 7, 1, 90);
  const refreshFamilyMaxAgeDays = r.int('REFRESH_FAMILY_MAX_AGE_DAYS', 30, 1, 3650);
  if (refreshFamilyMaxAgeDays < jwtRefreshTokenTtlDays) {
    r.problem('REFRESH_FAMILY_MAX_AGE_DAYS', 'must be at least JWT_REFRESH_TOKEN_TTL_DAYS');
  }

  const cookieSecure = r.bool('COOKIE_SECURE', production);
  const cookieSameSite = r.oneOf('COOKIE_SAMESITE', ['lax', 'strict', 'none'], 'lax');
  if (cookieSameSite === 'none' && !cookieSecure) r.problem('COOKIE_SAMESITE', 'none requires COOKIE_SECURE=true');

  const bodyLimitText = r.raw('BODY_LIMIT') ?? '10mb';
  const bodyLimitBytes = r.read('BODY_LIMIT', 10 * 1024 * 1024, parseBodyLimit);
  const importMaxBytesText = r.raw('IMPORT_MAX_BYTES') ?? '1gb';
  const importMaxBytes = r.read('IMPORT_MAX_BYTES', 1024 ** 3, parseImportLimit);

  const eventStore = r.oneOf('EVENT_STORE', ['sqlite', 'esdb'], 'sqlite');
  const eventStoreUrl = r.read<string | null>(
    'EVENTSTORE_URL',
    null,
    urlWithScheme(['esdb', 'esdb+discover', 'kurrentdb', 'kurrentdb+discover', 'kurrent', 'kdb'], 'esdb://host:2113?tls=false'),
  );
  if (eventStore === 'esdb' && r.raw('EVENTSTORE_URL') === undefined) {
    r.problem('EVENTSTORE_URL', 'is required when EVENT_STORE=esdb');
  }
  const viewStore = r.oneOf('VIEW_STORE', ['sqlite', 'mongodb'], 'sqlite');
  const mongoUrl = r.read<string | null>('MONGO_URL', null, urlWithScheme(['mongodb', 'mongodb+srv'], 'mongodb://host:27017/strata?replicaSet=rs0'));
  if (viewStore === 'mongodb' && r.raw('MONGO_URL') === undefined) {
    r.problem('MONGO_URL', 'is required when VIEW_STORE=mongodb');
  }
  const redisUrl = r.read<string | null>('REDIS_URL', null, urlWithScheme(['redis', 'rediss'], 'redis://host:6379'));
  const roles = r.read<readonly RoleName[]>('ROLES', ALL_ROLES, parseRoles);
  const distributedStores = eventStore === 'esdb' || viewStore === 'mongodb';
  if (roles.length < ALL_ROLES.length && distributedStores && r.raw('REDIS_URL') === undefined) {
    r.problem('REDIS_URL', 'is required when ROLES is not all three roles and EVENT_STORE=esdb or VIEW_STORE=mongodb');
  }

  const config: StrataConfig = {
    nodeEnv,
    production,
    port: r.int('PORT', 8080, 0, 65535),
    host: r.raw('HOST') ?? '0.0.0.0',
    publicUrl: r.read<string | null>('PUBLIC_URL', null, parsePublicUrl),
    dataDir: r.raw('DATA_DIR') ?? './data',
    jwtSecret,
    jwtAccessTokenTtlSeconds: r.int('JWT_ACCESS_TOKEN_TTL_SECONDS', 1800, 60, 86400),
    jwtRefreshTokenTtlDays,
    refreshFamilyMaxAgeDays,
    jwtRefreshGracePeriodMs: r.int('JWT_REFRESH_GRACE_PERIOD_MS', 30_000, 0, 300_000),
    adminPassword: r.exact('ADMIN_PASSWORD') ?? 'admin',
    cookieSecure,
    cookieSameSite,
    trustProxy: r.read<number | readonly string[] | null>('TRUST_PROXY', null, parseTrustProxy),
    corsOrigins: r.read<readonly string[]>('CORS_ORIGIN', [], parseCorsOrigins),
    allowedHosts: r.read<'*' | readonly string[]>('ALLOWED_HOSTS', [], parseAllowedHosts),
    bodyLimitBytes,
    bodyLimitText,
    importMaxBytes,
    importMaxBytesText,
    queryTimeoutMs: r.int('QUERY_TIMEOUT_MS', 5000, 100, 600_000),
    apiKeyMaxPerUser: r.int('API_KEY_MAX_PER_USER', 10, 1, 10_000),
    apiKeyMaxServicePerOrg: r.int('API_KEY_MAX_SERVICE_PER_ORG', 100, 1, 100_000),
    loginMaxFailures: r.int('LOGIN_MAX_FAILURES', 5, 1, 1_000_000),
    loginMaxFailuresPerIp: r.int('LOGIN_MAX_FAILURES_PER_IP', 50, 1, 1_000_000),
    loginWindowMs: r.int('LOGIN_WINDOW_MS', 900_000, 1000, MAX),
    eventStore,
    eventStoreUrl,
    viewStore,
    mongoUrl,
    redisUrl,
    roles,
    commandUrl: r.read<string | null>('COMMAND_URL', null, parseHttpUrl),
    writeConsistency: r.oneOf('WRITE_CONSISTENCY', ['projected', 'appended'], 'projected'),
    consistencyTimeoutMs: r.int('CONSISTENCY_TIMEOUT_MS', 5000, 0, 600_000),
    readyMaxLagEvents: r.int('READY_MAX_LAG_EVENTS', 1000, 0, MAX),
    graphqlRootFieldPrefix: r.bool('GRAPHQL_ROOT_FIELD_PREFIX', false),
    logLevel: r.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    metricsEnabled: r.bool('METRICS_ENABLED', false),
    mcpSessionIdleMs: r.int('MCP_SESSION_IDLE_MS', 1_800_000, 1000, MAX),
    mcpSessionMaxAgeMs: r.int('MCP_SESSION_MAX_AGE_MS', 43_200_000, 1000, MAX),
    mcpMaxSessions: r.int('MCP_MAX_SESSIONS', 1000, 1, 1_000_000),
    mcpMaxAnonymousSessionsPerIp: r.int('MCP_MAX_ANONYMOUS_SESSIONS_PER_IP', 20, 1, 1_000_000),
    mcpAnonymousSessionIdleMs: r.int('MCP_ANONYMOUS_SESSION_IDLE_MS', 300_000, 1000, MAX),
    shutdownTimeoutMs: r.int('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    webhookTimeoutMs: r.int('WEBHOOK_TIMEOUT_MS', 10_000, 1, 600_000),
    webhookRetryScheduleMs: r.read('WEBHOOK_RETRY_SCHEDULE_MS', DEFAULT_RETRY_SCHEDULE_MS, parseRetrySchedule),
    webhookDisableAfterFailures: r.int('WEBHOOK_DISABLE_AFTER_FAILURES', 10, 1, 1_000_000),
    webhookAllowPrivateAddresses: r.bool('WEBHOOK_ALLOW_PRIVATE_ADDRESSES', false),
    webhookConcurrency: r.int('WEBHOOK_CONCURRENCY', 10, 1, 10_000),
    eventStreamsPerPrincipal: r.int('EVENT_STREAMS_PER_PRINCIPAL', 10, 1, 100_000),
    mcpAnonymousSessions: r.bool('MCP_ANONYMOUS_SESSIONS', true),
    oauthEnabled: r.bool('OAUTH_ENABLED', true),
    oauthAccessTokenTtlSeconds: r.int('OAUTH_ACCESS_TOKEN_TTL_SECONDS', 3600, 60, 86400),
    oauthRefreshTokenTtlDays: r.int('OAUTH_REFRESH_TOKEN_TTL_DAYS', 30, 1, 365),
    oauthMaxClients: r.int('OAUTH_MAX_CLIENTS', 10_000, 1, 10_000_000),
    oauthCimdAllowPrivateAddresses: r.bool('OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES', false),
  };
  if (r.problems.length > 0) throw new ConfigError(r.problems.toSorted((a, b) => orderOf(a.variable) - orderOf(b.variable)));
  return config;
}
