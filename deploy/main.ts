import type { Logger } from 'pino';
import { systemClock, type Clock, type RoleHandle } from '../contracts/index.ts';
import { createCheckpointWaiter } from '../projection-worker/index.ts';
import { buildProjectorRole, buildRoleRouters, type ServingRole } from './buildRoles.ts';
import type { FastRoutes } from '../query-service/index.ts';
import type { StrataConfig } from './config/strataConfig.ts';
import { resolveJwtSecret } from './config/resolveJwtSecret.ts';
import { createHttpServer } from './http/createHttpServer.ts';
import { createMetrics } from './http/createMetrics.ts';
import { openInfra } from './openInfra.ts';

export type StrataHandle = {
  /** Base URL of the HTTP server of this process. */
  readonly url: string;
  /**
   * Graceful shutdown within SHUTDOWN_TIMEOUT_MS: stop accepting, finish in-flight requests, stop the roles after
   * their in-flight batch, close the stores. Idempotent; never rejects.
   */
  close(): Promise<void>;
};

export type StartOptions = { readonly log: Logger; readonly clock?: Clock };

async function withDeadline(work: Promise<void>, deadline: number, log: Logger, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => resolve('expired'), Math.max(0, deadline - Date.now()));
  });
  try {
    const outcome = await Promise.race([work.then(() => 'done' as const), expired]);
    if (outcome === 'expired') log.warn({ what }, 'shutdown step did not finish in time');
  } catch (err) {
    log.error({ err, what }, 'shutdown step failed');
  } finally {
    clearTimeout(timer);
  }
}

/** Starts the roles of ROLES in this process: stores, projection runners, HTTP. */
export async function startStrata(config: StrataConfig, options: StartOptions): Promise<StrataHandle> {
  const { log } = options;
  const clock = options.clock ?? systemClock;
  log.info({ roles: config.roles, eventStore: config.eventStore, viewStore: config.viewStore }, 'starting strata');
  const infra = await openInfra(config, log);
  const started: RoleHandle[] = [];
  try {
    const jwtSecret = await resolveJwtSecret(config, log);
    const metrics = config.metricsEnabled ? createMetrics({ ...infra, log }) : undefined;
    const projector = buildProjectorRole({ config, log, infra, clock, jwtSecret, metricsRegistry: metrics?.registry ?? null });
    const waiter = projector?.waiter ?? createCheckpointWaiter({ viewStore: infra.viewStore });
    const servingRoles = buildRoleRouters({
      config,
      log,
      infra,
      clock,
      jwtSecret,
      waiter,
      metricsRegistry: metrics?.registry ?? null,
    });
    for (const role of [...(projector ? [projector] : []), ...servingRoles]) {
      await role.start();
      started.push(role);
    }
    const http = createHttpServer({
      config,
      log,
      ...infra,
      ...(metrics ? { metrics } : {}),
      routers: servingRoles.flatMap((role) => (role.router ? [role.router] : [])),
      ...fastRoutesOf(servingRoles),
    });
    const { url } = await http.listen();

    let closing: Promise<void> | null = null;
    const shutdown = async (): Promise<void> => {
      const deadline = Date.now() + config.shutdownTimeoutMs;
      log.info({ timeoutMs: config.shutdownTimeoutMs }, 'shutting down');
      for (const role of servingRoles) role.drain?.();
      await withDeadline(http.close(config.shutdownTimeoutMs), deadline, log, 'http');
      await withDeadline(
        Promise.all(started.map((role) => role.stop())).then(() => {}),
        deadline,
        log,
        'roles',
      );
      await infra.close();
      log.info('shutdown complete');
    };
    log.info({ url, roles: config.roles }, 'strata started');
    return { url, close: () => (closing ??= shutdown()) };
  } catch (err) {
    await Promise.allSettled(started.map((role) => role.stop()));
    await infra.close();
    throw err;
  }
}

/**
 * Shuts `handle` down gracefully on the first SIGTERM or SIGINT and exits 0 (1 if shutdown overran its timeout by
 * more than a grace second); a second signal exits at once.
 */
export function shutdownOnSignals(
  handle: StrataHandle,
  options: { readonly log: Logger; readonly timeoutMs: number; readonly exit?: (code: number) => void },
): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (signalled) {
      options.log.warn({ signal }, 'second signal: exiting now');
      exit(1);
      return;
    }
    signalled = true;
    options.log.info({ signal }, 'signal received');
    const overrun = setTimeout(() => {
      options.log.error('shutdown overran its timeout');
      exit(1);
    }, options.timeoutMs + 1000);
    overrun.unref();
    void handle.close().then(() => {
      clearTimeout(overrun);
      exit(0);
    });
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/** The fast routes of the serving roles (only the query role has any). */
function fastRoutesOf(roles: readonly ServingRole[]): { fastRoutes?: FastRoutes } {
  const found = roles.flatMap((role) => (role.fastRoutes ? [role.fastRoutes] : []));
  if (found.length === 0) return {};
  return { fastRoutes: { match: (req) => found.reduce<ReturnType<FastRoutes['match']>>((chain, routes) => chain ?? routes.match(req), null) } };
}
