import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { EventStore, ViewStore } from '../../contracts/index.ts';
import { routeTemplateOf } from '../../query-service/index.ts';
import { measureProjectionLag, type ProjectionLag } from './projectionLag.ts';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export type StrataMetrics = {
  /** Roles register their own metrics here (operations.md §6). */
  readonly registry: Registry;
  /** Counts and times every request under its route template (never a raw path). */
  readonly middleware: RequestHandler;
  /** Serves the Prometheus text format. */
  readonly handler: RequestHandler;
};

/** A registry of its own (no global default registry) with process metrics, HTTP metrics and projection gauges. */
export function createMetrics(deps: { eventStore: EventStore; viewStore: ViewStore; log: Logger }): StrataMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'strata_http_requests_total',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'strata_http_request_duration_seconds',
    help: 'HTTP request duration by method and route template',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  // Both projection gauges are filled from one measurement per scrape.
  let inflight: Promise<ProjectionLag[]> | null = null;
  const measure = (): Promise<ProjectionLag[]> =>
    (inflight ??= measureProjectionLag(deps.eventStore, deps.viewStore)
      .catch((err: unknown) => {
        deps.log.warn({ err }, 'projection lag unavailable for metrics');
        return [];
      })
      .finally(() => {
        inflight = null;
      }));
  new Gauge({
    name: 'strata_projection_lag_events',
    help: 'Events in the log after the checkpoint of the active projection version',
    labelNames: ['projection'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const lag of await measure()) this.set({ projection: lag.projection }, lag.lagEvents);
    },
  });
  new Gauge({
    name: 'strata_projection_checkpoint_timestamp_seconds',
    help: 'Time of the last checkpoint move of the active projection version',
    labelNames: ['projection'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const lag of await measure()) {
        if (lag.updatedAt !== null) this.set({ projection: lag.projection }, lag.updatedAt / 1000);
      }
    },
  });

  const middleware: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    const stop = duration.startTimer();
    res.once('close', () => {
      const method = METHODS.has(req.method) ? req.method : 'OTHER';
      const route = routeTemplateOf(res);
      requests.inc({ method, route, status: String(res.statusCode) });
      stop({ method, route });
    });
    next();
  };
  const handler: RequestHandler = async (_req: Request, res: Response) => {
    const text = await registry.metrics();
    res.status(200);
    res.setHeader('Content-Type', registry.contentType);
    res.end(text);
  };
  return { registry, middleware, handler };
}
