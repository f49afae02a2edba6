import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Clock, ConsistencyWaiter, RoleHandle } from '../contracts/index.ts';
import { allProjectors, createProjectionWorker } from '../projection-worker/index.ts';
import type { ProjectionWorker } from '../projection-worker/index.ts';
import type { StrataConfig } from './config/strataConfig.ts';
import type { Infra } from './openInfra.ts';

/** A role that serves HTTP: the command and query roles (STYLE.md: `{ name, router?, start(), stop() }`). */
export type ServingRole = RoleHandle & { readonly router: RequestHandler };

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
 * The HTTP-serving roles of this process, in mounting order. Each brings its router; deploy/main.ts starts and
 * stops them and mounts the routers. The domain adds, for example:
 *   if (ctx.config.roles.includes('command')) roles.push(createCommandService({ ...ports, log: ctx.log.child({ role: 'command' }) }));
 *   if (ctx.config.roles.includes('query')) roles.push(createQueryService({ ...ports, log: ctx.log.child({ role: 'query' }) }));
 */
export function buildRoleRouters(ctx: RoleContext): ServingRole[] {
  const roles: ServingRole[] = [];
  // TODO(domain issue): createCommandService(deps) and createQueryService(deps) are pushed here.
  void ctx;
  return roles;
}
