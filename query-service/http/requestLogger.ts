import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { requestIdOf } from './commonHeaders.ts';
import { routeTemplateOf, trackRouteTemplate } from './routeTemplate.ts';
import './expressTypes.ts';

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
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', {
      configurable: true,
      enumerable: true,
      get: () => (child ??= log.child({ reqId })),
      set: (value: Logger) => {
        child = value;
      },
    });
    trackRouteTemplate(req, res);
    res.once('close', () => {
      const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
      // Written through the request's logger only when one was made: the same line (bindings come first).
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
