import express, { type Router } from 'express';
import type { Logger } from 'pino';
import type { EventStore, Queue, ViewStore } from '../../contracts/index.ts';
import { methodNotAllowed, sendJson } from '../../query-service/index.ts';
import { measureProjectionLag, probe } from './projectionLag.ts';

export type HealthDeps = {
  readonly eventStore: EventStore;
  readonly viewStore: ViewStore;
  readonly queue: Queue;
  /** READY_MAX_LAG_EVENTS. */
  readonly readyMaxLagEvents: number;
  readonly log: Logger;
  /** How long a store may take to answer its ping; default 2000 ms. */
  readonly probeTimeoutMs?: number;
};

type Check = 'ok' | 'error';

/** `/health/live` and `/health/ready` (system-api.md §7): no credentials, no identifiers. */
export function createHealthRouter(deps: HealthDeps): Router {
  const { eventStore, viewStore, queue, log } = deps;
  const timeoutMs = deps.probeTimeoutMs ?? 2000;
  const router = express.Router();
  const allowGet = methodNotAllowed(['GET']);

  router
    .route('/health/live')
    .get((_req, res) => sendJson(res, 200, { status: 'ok' }))
    .all(allowGet);

  router
    .route('/health/ready')
    .get(async (_req, res) => {
      const [eventStoreUp, viewStoreUp, queueUp] = await Promise.all([
        probe(() => eventStore.ping(), timeoutMs),
        probe(() => viewStore.ping(), timeoutMs),
        queue.kind === 'in-process' ? Promise.resolve(null) : probe(() => queue.ping(), timeoutMs),
      ]);
      let maxLagEvents = 0;
      let lagKnown = false;
      if (eventStoreUp && viewStoreUp) {
        try {
          const lags = await measureProjectionLag(eventStore, viewStore);
          maxLagEvents = lags.reduce((max, l) => Math.max(max, l.lagEvents), 0);
          lagKnown = true;
        } catch (err) {
          log.warn({ err }, 'projection lag unavailable');
        }
      }
      const check = (up: boolean): Check => (up ? 'ok' : 'error');
      const ready = eventStoreUp && viewStoreUp && lagKnown && maxLagEvents <= deps.readyMaxLagEvents;
      sendJson(res, ready ? 200 : 503, {
        status: ready ? 'ready' : 'not_ready',
        checks: {
          eventStore: check(eventStoreUp),
          viewStore: check(viewStoreUp),
          queue: queueUp === null ? 'disabled' : check(queueUp),
          projections: { maxLagEvents },
        },
      });
    })
    .all(allowGet);

  return router;
}
