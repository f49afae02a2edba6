import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from './loadConfig.ts';
import { isConfigError, type ConfigError } from './strataConfig.ts';

const SECRET = 'x'.repeat(32);

function problemsOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    assert.ok(isConfigError(err), 'expected a ConfigError');
    return err;
  }
  assert.fail('expected loadConfig to throw');
}

function variablesOf(env: Record<string, string>): string[] {
  return problemsOf(env).problems.map((p) => p.variable);
}

describe('loadConfig defaults', () => {
  test('an empty environment gives every documented default', () => {
    const c = loadConfig({});
    assert.equal(c.nodeEnv, 'development');
    assert.equal(c.production, false);
    assert.equal(c.port, 8080);
    assert.equal(c.host, '0.0.0.0');
    assert.equal(c.publicUrl, null);
    assert.equal(c.dataDir, './data');
    assert.equal(c.jwtSecret, null);
    assert.equal(c.jwtAccessTokenTtlSeconds, 1800);
    assert.equal(c.jwtRefreshTokenTtlDays, 7);
    assert.equal(c.refreshFamilyMaxAgeDays, 30);
    assert.equal(c.jwtRefreshGracePeriodMs, 30000);
    assert.equal(c.adminPassword, 'admin');
    assert.equal(c.cookieSecure, false);
    assert.equal(c.cookieSameSite, 'lax');
    assert.equal(c.trustProxy, null);
    assert.deepEqual(c.corsOrigins, []);
    assert.equal(c.bodyLimitBytes, 10 * 1024 * 1024);
    assert.equal(c.bodyLimitText, '10mb');
    assert.equal(c.apiKeyMaxPerUser, 10);
    assert.equal(c.apiKeyMaxServicePerOrg, 100);
    assert.equal(c.loginMaxFailures, 5);
    assert.equal(c.loginMaxFailuresPerIp, 50);
    assert.equal(c.loginWindowMs, 900000);
    assert.equal(c.eventStore, 'sqlite');
    assert.equal(c.eventStoreUrl, null);
    assert.equal(c.viewStore, 'sqlite');
    assert.equal(c.mongoUrl, null);
    assert.equal(c.redisUrl, null);
    assert.deepEqual(c.roles, ['command', 'query', 'projector']);
    assert.equal(c.commandUrl, null);
    assert.equal(c.writeConsistency, 'projected');
    assert.equal(c.consistencyTimeoutMs, 5000);
    assert.equal(c.queryTimeoutMs, 5000);
    assert.equal(c.readyMaxLagEvents, 1000);
    assert.equal(c.graphqlRootFieldPrefix, false);
    assert.equal(c.logLevel, 'info');
    assert.equal(c.metricsEnabled, false);
    assert.equal(c.mcpSessionIdleMs, 1800000);
    assert.equal(c.mcpSessionMaxAgeMs, 43200000);
    assert.equal(c.mcpMaxSessions, 1000);
    assert.equal(c.shutdownTimeoutMs, 10000);
  });

  test('blank values count as unset; secrets are kept exactly', () => {
    assert.equal(loadConfig({ PORT: '', LOG_LEVEL: '  ' }).port, 8080);
    assert.equal(loadConfig({ PORT: ' 81 ' }).port, 81);
    assert.equal(loadConfig({ ADMIN_PASSWORD: ' spaced pw ' }).adminPassword, ' spaced pw ');
    assert.equal(loadConfig({ JWT_SECRET: ` ${SECRET} ` }).jwtSecret, ` ${SECRET} `);
    assert.equal(loadConfig({ ADMIN_PASSWORD: '   ' }).adminPassword, 'admin');
  });
});

describe('loadConfig scalars', () => {
  test('integers outside their range or not integers are rejected', () => {
    assert.deepEqual(variablesOf({ PORT: 'abc' }), ['PORT']);
    assert.deepEqual(variablesOf({ PORT: '65536' }), ['PORT']);
    assert.deepEqual(variablesOf({ PORT: '80.5' }), ['PORT']);
    assert.equal(loadConfig({ PORT: '0' }).port, 0);
    assert.deepEqual(variablesOf({ JWT_ACCESS_TOKEN_TTL_SECONDS: '59' }), ['JWT_ACCESS_TOKEN_TTL_SECONDS']);
    assert.deepEqual(variablesOf({ JWT_ACCESS_TOKEN_TTL_SECONDS: '86401' }), ['JWT_ACCESS_TOKEN_TTL_SECONDS']);
    assert.equal(loadConfig({ JWT_ACCESS_TOKEN_TTL_SECONDS: '86400' }).jwtAccessTokenTtlSeconds, 86400);
    assert.deepEqual(variablesOf({ JWT_REFRESH_TOKEN_TTL_DAYS: '0' }), ['JWT_REFRESH_TOKEN_TTL_DAYS']);
    assert.deepEqual(variablesOf({ JWT_REFRESH_TOKEN_TTL_DAYS: '91', REFRESH_FAMILY_MAX_AGE_DAYS: '100' }), ['JWT_REFRESH_TOKEN_TTL_DAYS']);
    assert.deepEqual(variablesOf({ JWT_REFRESH_GRACE_PERIOD_MS: '300001' }), ['JWT_REFRESH_GRACE_PERIOD_MS']);
    assert.equal(loadConfig({ JWT_REFRESH_GRACE_PERIOD_MS: '0' }).jwtRefreshGracePeriodMs, 0);
    assert.deepEqual(variablesOf({ CONSISTENCY_TIMEOUT_MS: '-1' }), ['CONSISTENCY_TIMEOUT_MS']);
    assert.deepEqual(variablesOf({ QUERY_TIMEOUT_MS: '99' }), ['QUERY_TIMEOUT_MS']);
    assert.deepEqual(variablesOf({ QUERY_TIMEOUT_MS: '600001' }), ['QUERY_TIMEOUT_MS']);
    assert.deepEqual(variablesOf({ MCP_MAX_SESSIONS: '0' }), ['MCP_MAX_SESSIONS']);
    assert.deepEqual(variablesOf({ SHUTDOWN_TIMEOUT_MS: 'soon' }), ['SHUTDOWN_TIMEOUT_MS']);
  });

  test('the refresh family must live at least as long as one refresh token', () => {
    assert.deepEqual(variablesOf({ JWT_REFRESH_TOKEN_TTL_DAYS: '14', REFRESH_FAMILY_MAX_AGE_DAYS: '13' }), ['REFRESH_FAMILY_MAX_AGE_DAYS']);
    assert.equal(loadConfig({ JWT_REFRESH_TOKEN_TTL_DAYS: '14', REFRESH_FAMILY_MAX_AGE_DAYS: '14' }).refreshFamilyMaxAgeDays, 14);
  });

  test('booleans accept true/false/1/0 in any case', () => {
    assert.equal(loadConfig({ METRICS_ENABLED: 'TRUE' }).metricsEnabled, true);
    assert.equal(loadConfig({ METRICS_ENABLED: '1' }).metricsEnabled, true);
    assert.equal(loadConfig({ GRAPHQL_ROOT_FIELD_PREFIX: 'False' }).graphqlRootFieldPrefix, false);
    assert.equal(loadConfig({ COOKIE_SECURE: '0' }).cookieSecure, false);
    assert.deepEqual(variablesOf({ METRICS_ENABLED: 'yes' }), ['METRICS_ENABLED']);
  });

  test('enumerations reject unknown values', () => {
    assert.deepEqual(variablesOf({ LOG_LEVEL: 'verbose' }), ['LOG_LEVEL']);
    assert.equal(loadConfig({ LOG_LEVEL: 'SILENT' }).logLevel, 'silent');
    assert.deepEqual(variablesOf({ WRITE_CONSISTENCY: 'eventual' }), ['WRITE_CONSISTENCY']);
    assert.deepEqual(variablesOf({ COOKIE_SAMESITE: 'weird' }), ['COOKIE_SAMESITE']);
    assert.deepEqual(variablesOf({ EVENT_STORE: 'postgres' }), ['EVENT_STORE']);
    assert.deepEqual(variablesOf({ VIEW_STORE: 'redis' }), ['VIEW_STORE']);
  });

  test('BODY_LIMIT takes b, kb and mb suffixes', () => {
    assert.equal(loadConfig({ BODY_LIMIT: '512' }).bodyLimitBytes, 512);
    assert.equal(loadConfig({ BODY_LIMIT: '512b' }).bodyLimitBytes, 512);
    assert.equal(loadConfig({ BODY_LIMIT: '100KB' }).bodyLimitBytes, 100 * 1024);
    const c = loadConfig({ BODY_LIMIT: '2mb' });
    assert.equal(c.bodyLimitBytes, 2 * 1024 * 1024);
    assert.equal(c.bodyLimitText, '2mb');
    for (const bad of ['10gb', 'lots', '0', '-5kb', '1.5mb']) assert.deepEqual(variablesOf({ BODY_LIMIT: bad }), ['BODY_LIMIT'], bad);
  });
});

describe('loadConfig network settings', () => {
  test('TRUST_PROXY takes a hop count or an address list, never true or *', () => {
    assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
    assert.deepEqual(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,::1, fd00::/8, Uniquelocal' }).trustProxy, [
      'loopback',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'uniquelocal',
    ]);
    for (const bad of ['true', '*', 'TRUE', '10.0.0.0/33', 'proxy.local', '1.2.3', ',']) {
      assert.deepEqual(variablesOf({ TRUST_PROXY: bad }), ['TRUST_PROXY'], bad);
    }
  });

  test('CORS_ORIGIN takes exact origins only', () => {
    assert.deepEqual(loadConfig({ CORS_ORIGIN: 'https://admin.example.com, http://localhost:5173' }).corsOrigins, [
      'https://admin.example.com',
      'http://localhost:5173',
    ]);
    for (const bad of ['*', 'https://a.example.com/path', 'admin.example.com', 'ftp://x.example.com', 'https://a.example.com,*']) {
      assert.deepEqual(variablesOf({ CORS_ORIGIN: bad }), ['CORS_ORIGIN'], bad);
    }
  });

  test('ALLOWED_HOSTS takes host names (a leading dot for subdomains) or * alone', () => {
    assert.deepEqual(loadConfig({}).allowedHosts, []);
    assert.deepEqual(loadConfig({ ALLOWED_HOSTS: 'Data.Example.com, .example.org,strata_1' }).allowedHosts, [
      'data.example.com',
      '.example.org',
      'strata_1',
    ]);
    assert.equal(loadConfig({ ALLOWED_HOSTS: '*' }).allowedHosts, '*');
    for (const bad of ['*,data.example.com', 'https://data.example.com', 'data.example.com:8080', '.', 'a..b', '*.example.com', 'a,,b']) {
      assert.deepEqual(variablesOf({ ALLOWED_HOSTS: bad }), ['ALLOWED_HOSTS'], bad);
    }
  });

  test('MCP anonymous-session limits default to 20 per IP and 5 minutes idle', () => {
    const c = loadConfig({});
    assert.equal(c.mcpMaxAnonymousSessionsPerIp, 20);
    assert.equal(c.mcpAnonymousSessionIdleMs, 300_000);
    const set = loadConfig({ MCP_MAX_ANONYMOUS_SESSIONS_PER_IP: '3', MCP_ANONYMOUS_SESSION_IDLE_MS: '60000' });
    assert.deepEqual([set.mcpMaxAnonymousSessionsPerIp, set.mcpAnonymousSessionIdleMs], [3, 60_000]);
    assert.deepEqual(variablesOf({ MCP_MAX_ANONYMOUS_SESSIONS_PER_IP: '0', MCP_ANONYMOUS_SESSION_IDLE_MS: 'soon' }), [
      'MCP_MAX_ANONYMOUS_SESSIONS_PER_IP',
      'MCP_ANONYMOUS_SESSION_IDLE_MS',
    ]);
  });

  test('PUBLIC_URL and COMMAND_URL must be http(s) URLs', () => {
    assert.equal(loadConfig({ PUBLIC_URL: 'https://data.example.com/' }).publicUrl, 'https://data.example.com');
    assert.deepEqual(variablesOf({ PUBLIC_URL: 'data.example.com' }), ['PUBLIC_URL']);
    assert.deepEqual(variablesOf({ PUBLIC_URL: 'https://data.example.com/app' }), ['PUBLIC_URL']);
    assert.equal(loadConfig({ COMMAND_URL: 'http://command:8080/' }).commandUrl, 'http://command:8080');
    assert.deepEqual(variablesOf({ COMMAND_URL: 'command:8080' }), ['COMMAND_URL']);
  });
});

describe('loadConfig cookies and secrets', () => {
  test('COOKIE_SECURE defaults to true in production', () => {
    assert.equal(loadConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET }).cookieSecure, true);
    assert.equal(loadConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET, COOKIE_SECURE: 'false' }).cookieSecure, false);
  });

  test('COOKIE_SAMESITE=none requires COOKIE_SECURE', () => {
    assert.deepEqual(variablesOf({ COOKIE_SAMESITE: 'none' }), ['COOKIE_SAMESITE']);
    assert.equal(loadConfig({ COOKIE_SAMESITE: 'None', COOKIE_SECURE: 'true' }).cookieSameSite, 'none');
  });

  test('production requires JWT_SECRET; every JWT_SECRET has at least 32 bytes; no value is echoed', () => {
    assert.deepEqual(variablesOf({ NODE_ENV: 'production' }), ['JWT_SECRET']);
    const short = 'short-secret-value';
    const err = problemsOf({ JWT_SECRET: short, ADMIN_PASSWORD: 'pw-not-shown', REDIS_URL: 'http://u:hunter2@x' });
    assert.deepEqual(
      err.problems.map((p) => p.variable),
      ['JWT_SECRET', 'REDIS_URL'],
    );
    assert.ok(!err.message.includes(short));
    assert.ok(!err.message.includes('hunter2'));
    // 32 bytes of UTF-8 with fewer characters is enough.
    assert.equal(loadConfig({ JWT_SECRET: 'é'.repeat(16) }).jwtSecret, 'é'.repeat(16));
  });
});

describe('loadConfig stores and roles', () => {
  test('ROLES is a subset of command,query,projector', () => {
    assert.deepEqual(loadConfig({ ROLES: 'projector, query,query' }).roles, ['query', 'projector']);
    assert.deepEqual(variablesOf({ ROLES: 'command,admin' }), ['ROLES']);
    assert.deepEqual(variablesOf({ ROLES: ',' }), ['ROLES']);
  });

  test('esdb needs EVENTSTORE_URL and mongodb needs MONGO_URL', () => {
    assert.deepEqual(variablesOf({ EVENT_STORE: 'esdb' }), ['EVENTSTORE_URL']);
    assert.deepEqual(variablesOf({ VIEW_STORE: 'mongodb' }), ['MONGO_URL']);
    assert.deepEqual(variablesOf({ EVENT_STORE: 'esdb', EVENTSTORE_URL: 'http://x' }), ['EVENTSTORE_URL']);
    const c = loadConfig({ EVENT_STORE: 'esdb', EVENTSTORE_URL: 'esdb://es:2113?tls=false', VIEW_STORE: 'mongodb', MONGO_URL: 'mongodb://m/db' });
    assert.equal(c.eventStoreUrl, 'esdb://es:2113?tls=false');
    assert.equal(c.mongoUrl, 'mongodb://m/db');
  });

  test('a split deployment on distributed stores needs REDIS_URL', () => {
    const esdb = { EVENT_STORE: 'esdb', EVENTSTORE_URL: 'kurrentdb://es:2113' };
    assert.deepEqual(variablesOf({ ...esdb, ROLES: 'query' }), ['REDIS_URL']);
    assert.equal(loadConfig({ ...esdb, ROLES: 'query', REDIS_URL: 'redis://r:6379' }).redisUrl, 'redis://r:6379');
    assert.equal(loadConfig({ ...esdb }).redisUrl, null);
    assert.deepEqual(loadConfig({ ROLES: 'query' }).roles, ['query']);
  });
});

describe('loadConfig error reporting', () => {
  test('every problem is collected in one error naming each variable', () => {
    const err = problemsOf({ PORT: 'abc', COOKIE_SAMESITE: 'weird', LOG_LEVEL: 'loud' });
    assert.deepEqual(err.problems.map((p) => p.variable).sort(), ['COOKIE_SAMESITE', 'LOG_LEVEL', 'PORT']);
    for (const name of ['PORT', 'COOKIE_SAMESITE', 'LOG_LEVEL']) assert.match(err.message, new RegExp(`^  ${name}: `, 'm'));
  });
});
