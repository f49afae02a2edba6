import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { Counter, type Registry } from 'prom-client';
import type { Clock, ConsistencyWaiter, RoleHandle } from '../contracts/index.ts';
import {
  createBranchCommandHandlers,
  createCommandService,
  createRedisApiKeyUsageStore,
  createRedisLoginThrottleStore,
  createSystemStateSource,
} from '../command-service/index.ts';
import { allProjectors, createProjectionOperations, createProjectionWorker, projectionTopic } from '../projection-worker/index.ts';
import {
  MCP_CONFIG_DEFAULTS,
  createChangeEventSource,
  createQueryService,
  createRedisMcpSessionStore,
  type FastRoutes,
} from '../query-service/index.ts';
import type { ProjectionWorker } from '../projection-worker/index.ts';
import { hostPolicyOf } from './config/hostPolicyOf.ts';
import type { StrataConfig } from './config/strataConfig.ts';
import type { Infra } from './openInfra.ts';
import { createWriteForwarding } from './http/forwardWrites.ts';
import { activeStreamsGauge, webhookWorkerDeps } from './webhookWiring.ts';
import { createOutboundHttp } from './http/outboundHttp.ts';

/** A role that serves HTTP: the command and query roles (docs/reference/style.md: `{ name, router?, start(), stop() }`). */
export type ServingRole = RoleHandle & {
  readonly router?: RequestHandler;
  /** Reads answered without express's router (see createHttpServer). */
  readonly fastRoutes?: FastRoutes;
  /** Ends long-lived responses (change feeds) before the HTTP server closes. */
  drain?(): void;
};

export type RoleContext = {
  readonly config: StrataConfig;
  readonly log: Logger;
  readonly infra: Infra;
  readonly clock: Clock;
  /** JWT_SECRET or the stored development secret (deploy/config/resolveJwtSecret.ts). */
  readonly jwtSecret: string;
  /** Read-your-writes waiter: the in-process projector's when this process runs one, else a polling one. */
  readonly waiter: ConsistencyWaiter;
  /** Metrics registry when METRICS_ENABLED, for the roles' own metrics. */
  readonly metricsRegistry: Registry | null;
};

/** The Admin UI built by `npm install` (admin-ui/build.mjs); served by the query edges at /admin/. */
const ADMIN_UI_DIR = fileURLToPath(new URL('../admin-ui/dist', import.meta.url));

/** The product version (package.json), reported by MCP `serverInfo`. */
const productVersion = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** `strata_refresh_total{outcome}` (operations.md §6). */
function refreshOutcomeCounter(registry: Registry): (outcome: string) => void {
  const counter = new Counter({
    name: 'strata_refresh_total',
    help: 'Refresh-token requests by outcome',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  return (outcome) => counter.inc({ outcome });
}

/** Unique lease owner of this process (projection leases, operations.md §2). */
export function processOwnerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** The `projector` role (every projection of projection-worker's `allProjectors`) when ROLES includes it. */
export function buildProjectorRole(ctx: Omit<RoleContext, 'waiter'>): ProjectionWorker | null {
  if (!ctx.config.roles.includes('projector')) return null;
  return createProjectionWorker({
    projectors: allProjectors,
    eventStore: ctx.infra.eventStore,
    viewStore: ctx.infra.viewStore,
    queue: ctx.infra.queue,
    log: ctx.log.child({ role: 'projector' }),
    clock: ctx.clock,
    owner: processOwnerId(),
    webhooks: webhookWorkerDeps(ctx),
  });
}

/**
 * The HTTP-serving roles of this process. The query service owns every HTTP edge (system and generated APIs, MCP);
 * a process with the command role serves the complete API (operations.md §2), so the edges are mounted whenever
 * `command` or `query` is in ROLES. The command service (write side, authentication) is a library both use.
 */
export function buildRoleRouters(ctx: RoleContext): ServingRole[] {
  const { config, infra } = ctx;
  const serves = config.roles.includes('command') || config.roles.includes('query');
  if (!serves) return [];
  const systemState = createSystemStateSource({ eventStore: infra.eventStore });
  const { redis } = infra;
  const topics = allProjectors.map((projector) => projectionTopic(projector.spec.name));
  const ringProjections = (): void => {
    for (const topic of topics) {
      infra.queue.notify(topic).catch((err: unknown) => ctx.log.warn({ err, topic }, 'projection wake-up failed'));
    }
  };
  const command = createCommandService({
    eventStore: infra.eventStore,
    systemState,
    clock: ctx.clock,
    log: ctx.log,
    branchHandlers: (deps) => createBranchCommandHandlers({ ...deps, decisionViews: infra.decisionViews }),
    onAppended: ringProjections,
    outboundHttp: createOutboundHttp(),
    // With REDIS_URL the ephemeral state is shared by every replica (operations.md §3); else it stays in memory.
    ...(redis
      ? {
          loginThrottleStore: createRedisLoginThrottleStore({ redis, log: ctx.log }),
          apiKeyUsageStore: createRedisApiKeyUsageStore({ redis, log: ctx.log }),
        }
      : {}),
    ...(ctx.metricsRegistry ? { onRefreshOutcome: refreshOutcomeCounter(ctx.metricsRegistry) } : {}),
    config: {
      jwtSecret: ctx.jwtSecret,
      accessTokenTtlSeconds: config.jwtAccessTokenTtlSeconds,
      loginMaxFailures: config.loginMaxFailures,
      loginMaxFailuresPerIp: config.loginMaxFailuresPerIp,
      loginWindowMs: config.loginWindowMs,
      adminPassword: config.adminPassword,
      refreshTokenTtlDays: config.jwtRefreshTokenTtlDays,
      refreshFamilyMaxAgeDays: config.refreshFamilyMaxAgeDays,
      refreshGracePeriodMs: config.jwtRefreshGracePeriodMs,
      apiKeyMaxPerUser: config.apiKeyMaxPerUser,
      apiKeyMaxServicePerOrg: config.apiKeyMaxServicePerOrg,
      oauthAccessTokenTtlSeconds: config.oauthAccessTokenTtlSeconds,
      oauthRefreshTokenTtlDays: config.oauthRefreshTokenTtlDays,
      oauthMaxClients: config.oauthMaxClients,
      oauthCimdAllowPrivateAddresses: config.oauthCimdAllowPrivateAddresses,
      webhookAllowPrivateAddresses: config.webhookAllowPrivateAddresses,
    },
  });
  const query = createQueryService({
    viewStore: infra.viewStore,
    systemState,
    gateway: command.gateway,
    authenticator: command.authenticator,
    sessions: command.sessions,
    apiKeys: command.apiKeys,
    oauth: command.oauth,
    waiter: ctx.waiter,
    eventStoreBackend: infra.eventStore.backend,
    // The rebuilds of the operator API run in this process with the CLI's code (projection-worker/README.md).
    projections: createProjectionOperations({
      projectors: allProjectors,
      eventStore: infra.eventStore,
      viewStore: infra.viewStore,
      clock: ctx.clock,
      log: ctx.log,
    }),
    changeFeed: {
      eventLog: infra.eventStore,
      changeEvents: createChangeEventSource({ viewStore: infra.viewStore, systemState, waiter: ctx.waiter }),
      streamsPerPrincipal: config.eventStreamsPerPrincipal,
      ...(ctx.metricsRegistry ? { onActiveStreams: activeStreamsGauge(ctx.metricsRegistry) } : {}),
    },
    ...(redis
      ? {
          mcpSessionStore: createRedisMcpSessionStore({
            redis,
            log: ctx.log,
            limits: {
              idleMs: config.mcpSessionIdleMs,
              maxAgeMs: config.mcpSessionMaxAgeMs,
              maxSessions: config.mcpMaxSessions,
              maxPerPrincipal: MCP_CONFIG_DEFAULTS.maxSessionsPerPrincipal,
              anonymousIdleMs: config.mcpAnonymousSessionIdleMs,
              maxAnonymousPerIp: config.mcpMaxAnonymousSessionsPerIp,
            },
          }),
        }
      : {}),
    log: ctx.log,
    config: {
      writeConsistency: config.writeConsistency,
      consistencyTimeoutMs: config.consistencyTimeoutMs,
      bodyLimitBytes: config.bodyLimitBytes,
      bodyLimitText: config.bodyLimitText,
      mcp: {
        sessionIdleMs: config.mcpSessionIdleMs,
        sessionMaxAgeMs: config.mcpSessionMaxAgeMs,
        maxSessions: config.mcpMaxSessions,
        maxAnonymousSessionsPerIp: config.mcpMaxAnonymousSessionsPerIp,
        anonymousSessionIdleMs: config.mcpAnonymousSessionIdleMs,
        anonymousSessions: config.mcpAnonymousSessions,
        version: productVersion,
      },
      oauthEnabled: config.oauthEnabled,
      adminUiDir: ADMIN_UI_DIR,
      rootFieldPrefix: config.graphqlRootFieldPrefix,
      cookies: { secure: config.cookieSecure, sameSite: config.cookieSameSite },
      publicUrl: config.publicUrl,
      corsOrigins: config.corsOrigins,
      hosts: hostPolicyOf(config),
      portability: { importMaxBytes: config.importMaxBytes, importMaxBytesText: config.importMaxBytesText },
    },
  });
  // Only a process with the command role seeds the admin user; the query edges answer in either case.
  const commandRole: ServingRole = {
    name: 'command',
    start: () => (config.roles.includes('command') ? command.start() : Promise.resolve()),
    stop: () => command.stop(),
  };
  // Without the command role, writes first meet the write forwarding router (they go to COMMAND_URL).
  const fastRoutes: FastRoutes = config.roles.includes('command')
    ? query.fastRoutes
    : { match: (req) => (req.method === 'GET' || req.method === 'HEAD' ? query.fastRoutes.match(req) : null) };
  return [...writeForwarding(ctx), commandRole, { ...query, fastRoutes }];
}

/**
 * Without the command role, writes go to COMMAND_URL (operations.md §2): this router runs before the query edges,
 * so a query-only process never appends (and never seeds the admin user).
 */
function writeForwarding(ctx: RoleContext): ServingRole[] {
  const { config } = ctx;
  if (config.roles.includes('command')) return [];
  const forwarding = createWriteForwarding({ commandUrl: config.commandUrl, bodyLimitBytes: config.bodyLimitBytes, log: ctx.log });
  return [{ name: 'query', router: forwarding.router, start: async () => {}, stop: async () => forwarding.close() }];
}
