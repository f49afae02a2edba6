import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isAllowedOrigin } from './csrfGate.ts';

export const CORS_ALLOW_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
export const CORS_ALLOW_HEADERS =
  'Content-Type, Authorization, X-Api-Key, X-Request-Id, X-Strata-Min-Position, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID';
export const CORS_EXPOSE_HEADERS = 'X-Strata-Position, X-Strata-Consistency, X-Request-Id, Mcp-Session-Id, Retry-After, WWW-Authenticate';
export const CORS_MAX_AGE_SECONDS = 600;

function isPreflight(req: Request): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
}

/**
 * Credentialed CORS for the exact origins of CORS_ORIGIN (auth.md §6.2): a listed `Origin` gets
 * `Access-Control-Allow-Origin` (that origin), `-Allow-Credentials: true`, `Vary: Origin` and the exposed headers;
 * its preflights answer 204 with the allowed methods, headers and max age. Unlisted origins (and every request
 * when the list is empty) get no CORS headers and go on to the routes unchanged.
 */
export function cors(origins: readonly string[]): RequestHandler {
  const policy = { publicUrl: null, corsOrigins: origins };
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.headers.origin;
    if (origins.length === 0 || !isAllowedOrigin(origin, policy)) {
      next();
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', origin as string);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    res.vary('Origin');
    if (isPreflight(req)) {
      res.setHeader('Access-Control-Allow-Methods', CORS_ALLOW_METHODS);
      res.setHeader('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS);
      res.setHeader('Access-Control-Max-Age', String(CORS_MAX_AGE_SECONDS));
      res.status(204).end();
      return;
    }
    res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS);
    next();
  };
}
