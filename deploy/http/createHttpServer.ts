import { IncomingMessage, ServerResponse, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import { AppError, type EventStore, type Queue, type ViewStore } from '../../contracts/index.ts';
import {
  commonHeaders,
  errorHandler,
  hostGuard,
  methodNotAllowed,
  notFound,
  requestLogger,
  sendError,
  type FastRoutes,
} from '../../query-service/index.ts';
import { hostPolicyOf } from '../config/hostPolicyOf.ts';
import type { StrataConfig } from '../config/strataConfig.ts';
import { requestLineWriter } from '../logger.ts';
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
  /**
   * Requests answered without express's router (generated-endpoint reads of the query role): the app-level
   * middleware below runs first, then the matched chain, errors to the same error handler.
   */
  readonly fastRoutes?: FastRoutes;
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

  const transport: RequestHandler = (req, res, next) => {
    // auth.md §6.3: HTTPS (as seen through trusted proxies) with secure cookies pins the browser to HTTPS.
    if (config.cookieSecure && req.secure) res.setHeader('Strict-Transport-Security', 'max-age=15552000');
    // During shutdown keep-alive clients are told to reconnect elsewhere.
    if (closing) res.setHeader('Connection', 'close');
    next();
  };
  // Every request, routed or fast, starts with these; host validation (auth.md §6.4) comes before any route runs.
  const prelude: RequestHandler[] = [
    commonHeaders,
    requestLogger(log, requestLineWriter(log)),
    ...(metrics ? [metrics.middleware] : []),
    transport,
    hostGuard(hostPolicyOf(config)),
  ];
  app.use(...prelude);
  app.use(createHealthRouter(Object.assign({}, deps, { readyMaxLagEvents: config.readyMaxLagEvents })));
  if (metrics)
    app
      .route('/metrics')
      .get(metrics.handler)
      .all(methodNotAllowed(['GET']));
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

  class AppRequest extends IncomingMessage {}
  Object.setPrototypeOf(AppRequest.prototype, app.request);
  class AppResponse extends ServerResponse {}
  Object.setPrototypeOf(AppResponse.prototype, app.response);
  const fast = deps.fastRoutes;
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chain = fast?.match(req) ?? null;
    if (chain === null) {
      app(req, res);
      return;
    }
    // What express's app.handle does before its router runs, then the chain the router would have run.
    const request = req as Request;
    const response = res as Response;
    request.res = response;
    response.req = request;
    // Already express's request and response (the server constructs them so); express re-sets them when it routes.
    response.locals = Object.create(null) as Response['locals'];
    runChain(prelude, chain, request, response, (err) => sendError(response, err));
  };

  return {
    app,
    async listen() {
      // Requests and responses are built with express's prototypes from the start: setting prototypes per request
      // (as express's app.handle does) costs the fast routes a hidden-class change on every request.
      const listening = createServer({ IncomingMessage: AppRequest, ServerResponse: AppResponse }, handle).listen(config.port, config.host);
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

/**
 * Runs express middleware in order as express's router would (`first`, then `then`): `next()` moves on, `next(err)`
 * (or a rejected promise from an async handler) goes to `onError`; `next('route')`/`next('router')` are not used by
 * the chains run here and are treated as errors.
 */
function runChain(
  first: readonly RequestHandler[],
  then: readonly RequestHandler[],
  req: Request,
  res: Response,
  onError: (err: unknown) => void,
): void {
  let index = 0;
  const next: NextFunction = (err?: unknown) => {
    if (err !== undefined && err !== null) {
      onError(err === 'route' || err === 'router' ? new Error(`next('${err}') outside a router`) : err);
      return;
    }
    const at = index++;
    const handler = at < first.length ? first[at] : then[at - first.length];
    if (handler === undefined) {
      onError(new AppError('ROUTE_NOT_FOUND'));
      return;
    }
    try {
      const result = handler(req, res, next) as unknown;
      if (result instanceof Promise) result.catch((e: unknown) => next(e ?? new Error('rejected')));
    } catch (e) {
      next(e);
    }
  };
  next();
}
