import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { AppError, type EventStore, type Queue, type ViewStore } from '../../contracts/index.ts';
import {
  commonHeaders,
  errorHandler,
  methodNotAllowed,
  notFound,
  requestLogger,
  sendError,
} from '../../query-service/index.ts';
import type { StrataConfig } from '../config/strataConfig.ts';
import { createHealthRouter } from './healthRouter.ts';
import type { StrataMetrics } from './createMetrics.ts';

export type HttpServerDeps = {
  readonly config: StrataConfig;
  readonly log: Logger;
  readonly eventStore: EventStore;
  readonly viewStore: ViewStore;
  readonly queue: Queue;
  /** Present when METRICS_ENABLED: serves /metrics and counts requests. */
  readonly metrics?: StrataMetrics;
  /** Routers of the command and query roles, mounted in order after health and metrics. */
  readonly routers: readonly RequestHandler[];
};

export type HttpServer = {
  readonly app: Express;
  /** Binds PORT/HOST; resolves with the URL to reach this process (loopback for wildcard hosts). */
  listen(): Promise<{ url: string; port: number }>;
  /**
   * Stops accepting connections, lets in-flight requests finish (idle keep-alive connections are closed at once),
   * and cuts the connections still open after `timeoutMs`.
   */
  close(timeoutMs: number): Promise<void>;
};

function reachableUrl(host: string, port: number): string {
  const wildcard = host === '0.0.0.0' || host === '::' || host === '';
  const shown = wildcard ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

/** The express 5 app shared by every role: health, metrics, role routers, JSON 404 and the final error handler. */
export function createHttpServer(deps: HttpServerDeps): HttpServer {
  const { config, log, metrics } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', config.trustProxy ?? false);

  let server: Server | null = null;
  let closing = false;

  app.use(commonHeaders, requestLogger(log));
  if (metrics) app.use(metrics.middleware);
  app.use((req, res, next) => {
    // auth.md §6.3: HTTPS (as seen through trusted proxies) with secure cookies pins the browser to HTTPS.
    if (config.cookieSecure && req.secure) res.setHeader('Strict-Transport-Security', 'max-age=15552000');
    // During shutdown keep-alive clients are told to reconnect elsewhere.
    if (closing) res.setHeader('Connection', 'close');
    next();
  });
  app.use(createHealthRouter({ ...deps, readyMaxLagEvents: config.readyMaxLagEvents }));
  if (metrics) app.route('/metrics').get(metrics.handler).all(methodNotAllowed(['GET']));
  else app.all('/metrics', notFound);

  const servesApi = config.roles.includes('command') || config.roles.includes('query');
  if (!servesApi) {
    app.use((_req, res) => sendError(res, new AppError('SERVICE_UNAVAILABLE')));
  } else {
    // Each role router parses its own bodies, so failures take the surface's shape (REST body vs GraphQL envelope).
    for (const router of deps.routers) app.use(router);
  }
  app.use(notFound);
  app.use(errorHandler);

  return {
    app,
    async listen() {
      const listening = app.listen(config.port, config.host);
      server = listening;
      await new Promise<void>((resolve, reject) => {
        listening.once('listening', resolve);
        listening.once('error', reject);
      });
      const { port } = listening.address() as AddressInfo;
      const url = reachableUrl(config.host, port);
      log.info({ url, host: config.host, port }, 'http server listening');
      return { url, port };
    },
    async close(timeoutMs) {
      closing = true;
      const current = server;
      if (current === null || !current.listening) return;
      const closed = new Promise<void>((resolve) => current.close(() => resolve()));
      // Connections go idle as their in-flight responses finish; close each then rather than at keep-alive timeout.
      current.closeIdleConnections();
      const sweeper = setInterval(() => current.closeIdleConnections(), 50);
      const deadline = setTimeout(() => {
        log.warn({ timeoutMs }, 'shutdown timeout: closing open connections');
        current.closeAllConnections();
      }, timeoutMs);
      try {
        await closed;
      } finally {
        clearInterval(sweeper);
        clearTimeout(deadline);
      }
      log.info('http server closed');
    },
  };
}
