import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { requestIdOf } from './commonHeaders.ts';
import { defineOnPrototype } from './prototypeAccessor.ts';
import { routeTemplateOf, trackRouteTemplate } from './routeTemplate.ts';
import './expressTypes.ts';

const LOG_STATE = Symbol('strata.requestLogger.state');

type LogState = { readonly base: Logger; readonly reqId: string; child: Logger | undefined };
type Logged = Request & { [LOG_STATE]?: LogState };

/**
 * `req.log` as an accessor on the request prototype (see defineOnPrototype): the child logger is made on first read.
 * Requests this middleware did not see get an own property when assigned.
 */
function installLogAccessor(proto: object): void {
  defineOnPrototype(proto, 'log', {
    get(this: Logged) {
      const state = this[LOG_STATE];
      if (state === undefined) return undefined;
      return (state.child ??= state.base.child({ reqId: state.reqId }));
    },
    set(this: Logged, value: Logger) {
      const state = this[LOG_STATE];
      if (state !== undefined) state.child = value;
      else Object.defineProperty(this, 'log', { value, writable: true, configurable: true, enumerable: true });
    },
  });
}

/**
 * Gives each request a child logger (`req.log`, bound to `reqId`, made on first use) and writes one line (with
 * `reqId`) when the response is done:
 * method, route template (never the raw path or query string), status, durationMs and principal. Headers are never
 * logged. Runs after commonHeaders so `reqId` equals the `X-Request-Id` sent back.
 */
export function requestLogger(log: Logger): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    const reqId = res.locals.requestId ?? requestIdOf(req);
    res.locals.requestId = reqId;
    // The child logger is made on first use (most requests never log anything but the completion line below).
    installLogAccessor(Object.getPrototypeOf(req) as object);
    const state: LogState = { base: log, reqId, child: undefined };
    (req as Logged)[LOG_STATE] = state;
    trackRouteTemplate(req, res);
    res.once('close', () => {
      const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
      // Written through the request's logger only when one was made: the same line (bindings come first).
      const { child } = state;
      const target = child ?? log;
      const line = {
        ...(child === undefined ? { reqId } : {}),
        method: req.method,
        route: routeTemplateOf(res),
        status: res.statusCode,
        durationMs,
        principal: res.locals.principalRef ?? 'anonymous',
      };
      if (!res.writableFinished) target.info({ ...line, aborted: true }, 'request aborted');
      else if (res.statusCode >= 500) target.warn(line, 'request completed');
      else target.info(line, 'request completed');
    });
    next();
  };
}
