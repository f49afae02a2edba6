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

/** The fields of a request's completion line, in the order they are written. */
export type RequestLine = {
  readonly reqId: string;
  readonly method: string;
  readonly route: string;
  readonly status: number;
  readonly durationMs: number;
  readonly principal: string;
  readonly aborted?: true;
};

/**
 * Writes a completion line exactly as `log[level](line, msg)` would on the logger given to requestLogger (the
 * composition root supplies one for its root logger: deploy/logger.ts).
 */
export type RequestLineWriter = (level: 'info' | 'warn', line: RequestLine, msg: string) => void;

/**
 * Gives each request a child logger (`req.log`, bound to `reqId`, made on first use) and writes one line (with
 * `reqId`) when the response is done:
 * method, route template (never the raw path or query string), status, durationMs and principal. Headers are never
 * logged. Runs after commonHeaders so `reqId` equals the `X-Request-Id` sent back. `writeLine`, when given, writes
 * the lines of requests that never made their child logger (most of them).
 */
export function requestLogger(log: Logger, writeLine?: RequestLineWriter): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    const reqId = res.locals.requestId ?? requestIdOf(req);
    res.locals.requestId = reqId;
    // The child logger is made on first use (most requests never log anything but the completion line below).
    installLogAccessor(Object.getPrototypeOf(req) as object);
    const state: LogState = { base: log, reqId, child: undefined };
    (req as Logged)[LOG_STATE] = state;
    trackRouteTemplate(req, res);
    // 'close' comes once per response (`on` spares the wrapper `once` makes).
    res.on('close', () => {
      const durationMs = Math.round((performance.now() - started) * 100) / 100;
      const status = res.statusCode;
      const aborted = !res.writableFinished;
      const level = aborted || status < 500 ? 'info' : 'warn';
      const msg = aborted ? 'request aborted' : 'request completed';
      const principal = res.locals.principalRef ?? 'anonymous';
      const route = routeTemplateOf(res);
      // Two fixed shapes: the optional `aborted` is never added to an existing line.
      const line: RequestLine = aborted
        ? { reqId, method: req.method, route, status, durationMs, principal, aborted: true }
        : { reqId, method: req.method, route, status, durationMs, principal };
      const { child } = state;
      if (child === undefined) {
        if (writeLine !== undefined) writeLine(level, line, msg);
        else log[level](line, msg);
        return;
      }
      // Through the request's logger once one was made: the same line, with `reqId` coming from its bindings.
      const { reqId: _bound, ...rest } = line;
      child[level](rest, msg);
    });
    next();
  };
}
