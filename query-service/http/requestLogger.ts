import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { requestIdOf } from './commonHeaders.ts';
import { routeTemplateOf, trackRouteTemplate } from './routeTemplate.ts';
import './expressTypes.ts';

/**
 * Gives each request a child logger (`req.log`, bound to `reqId`) and writes one line when the response is done:
 * method, route template (never the raw path or query string), status, durationMs and principal. Headers are never
 * logged. Runs after commonHeaders so `reqId` equals the `X-Request-Id` sent back.
 */
export function requestLogger(log: Logger): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    const reqId = res.locals.requestId ?? requestIdOf(req);
    res.locals.requestId = reqId;
    req.log = log.child({ reqId });
    trackRouteTemplate(req, res);
    res.once('close', () => {
      const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
      const line = {
        method: req.method,
        route: routeTemplateOf(res),
        status: res.statusCode,
        durationMs,
        principal: res.locals.principalRef ?? 'anonymous',
      };
      if (!res.writableFinished) req.log.info({ ...line, aborted: true }, 'request aborted');
      else if (res.statusCode >= 500) req.log.warn(line, 'request completed');
      else req.log.info(line, 'request completed');
    });
    next();
  };
}
