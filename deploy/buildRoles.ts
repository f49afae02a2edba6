import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Clock, ConsistencyWaiter, RoleHandle } from '../contracts/index.ts';
import { createBranchCommandHandlers, createCommandService, createSystemStateSource } from '../command-service/index.ts';
import { allProjectors, createProjectionWorker, projectionTopic } from '../projection-worker/index.ts';
import { createQueryService } from '../query-service/index.ts';
import type { ProjectionWorker } from '../projection-worker/index.ts';
import type { StrataConfig } from './config/strataConfig.ts';
import type { Infra } from './openInfra.ts';

/** A role that serves HTTP: the command and query roles (STYLE.md: `{ name, router?, start(), stop() }`). */
export type ServingRole = RoleHandle & { readonly router?: RequestHandler };

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

/** Unique lease owner of this process (projection leases, operations.md §2). */
export function processOwnerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** The `projector` role (every projection of projection-worker's `allProjectors`) when ROLES includes it. */
export function buildProjectorRole(ctx: Omit<RoleContext, 'waiter' | 'jwtSecret' | 'metricsRegistry'>): ProjectionWorker | null {
  if (!ctx.config.roles.includes('projector')) return null;
  return createProjectionWorker({
    projectors: allProjectors,
    eventStore: ctx.infra.eventStore,
    viewStore: ctx.infra.viewStore,
    queue: ctx.infra.queue,
    log: ctx.log.child({ role: 'projector' }),
    clock: ctx.clock,
    owner: processOwnerId(),
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
    branchHandlers: createBranchCommandHandlers,
    onAppended: ringProjections,
    config: {
      jwtSecret: ctx.jwtSecret,
      accessTokenTtlSeconds: config.jwtAccessTokenTtlSeconds,
      loginMaxFailures: config.loginMaxFailures,
      loginMaxFailuresPerIp: config.loginMaxFailuresPerIp,
      loginWindowMs: config.loginWindowMs,
      adminPassword: config.adminPassword,
    },
  });
  const query = createQueryService({
    viewStore: infra.viewStore,
    systemState,
    gateway: command.gateway,
    authenticator: command.authenticator,
    waiter: ctx.waiter,
    eventStoreBackend: infra.eventStore.backend,
    log: ctx.log,
    config: {
      writeConsistency: config.writeConsistency,
      consistencyTimeoutMs: config.consistencyTimeoutMs,
      bodyLimitBytes: config.bodyLimitBytes,
      bodyLimitText: config.bodyLimitText,
    },
  });
  // Only a process with the command role seeds the admin user; the query edges answer in either case.
  const commandRole: ServingRole = {
    name: 'command',
    start: () => (config.roles.includes('command') ? command.start() : Promise.resolve()),
    stop: () => command.stop(),
  };
  return [commandRole, query];
}
