import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import './expressTypes.ts';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The incoming `X-Request-Id` when it is safe to echo, else a fresh UUID. */
export function requestIdOf(req: Request): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Headers of every response (spec README "Conventions"): no caching, no sniffing, no referrer, and the request id.
 * `Content-Type` is set by sendJson; `X-Powered-By` is disabled on the app.
 */
export function commonHeaders(req: Request, res: Response, next: NextFunction): void {
  const requestId = requestIdOf(req);
  res.locals.requestId = requestId;
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Request-Id', requestId);
  next();
}
