import type { NextFunction, Request, Response } from 'express';
import { AppError, errorCatalogue, isAppError, toErrorBody, type ErrorCode } from '../../contracts/index.ts';
import { sendJson } from './sendJson.ts';
import './expressTypes.ts';

/** Statuses that libraries (express, its router, http-errors) attach to their own errors. */
const LIBRARY_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: 'BAD_REQUEST',
  404: 'ROUTE_NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

/** An AppError for any thrown value: library client errors keep their status (generic message), the rest is a 500. */
export function toAppError(err: unknown): AppError {
  if (isAppError(err)) return err;
  const status = (err as { status?: unknown; statusCode?: unknown } | null)?.status ?? (err as { statusCode?: unknown } | null)?.statusCode;
  const code = typeof status === 'number' ? LIBRARY_STATUS[status] : undefined;
  return new AppError(code ?? 'INTERNAL_SERVER_ERROR');
}

/**
 * Writes the REST error body of errors.md §1 with the error's extra headers, `WWW-Authenticate` on 401 and
 * `Retry-After` on 429/503. 5xx bodies carry the catalogue's generic message; a 500 is logged with its stack.
 */
export function sendError(res: Response, err: unknown): void {
  const appError = toAppError(err);
  const log = (res.req as Partial<Request> | undefined)?.log;
  if (appError.status === 500) log?.error({ err }, 'request failed');
  else if (appError.status >= 500) log?.warn({ err, code: appError.code }, 'request failed');
  if (!startErrorResponse(res, appError)) return;
  const body = toErrorBody(appError);
  const generic = { statusCode: body.statusCode, code: body.code, message: errorCatalogue[appError.code].message };
  sendJson(res, body.statusCode, appError.status >= 500 ? generic : body);
}

/**
 * Sets the headers of an error response (the error's own, `WWW-Authenticate` on 401, `Retry-After` on 429/503), for
 * the REST and the GraphQL envelopes alike. False when part of the response is already out: the connection is cut,
 * the only honest signal left.
 */
export function startErrorResponse(res: Response, appError: AppError): boolean {
  if (res.headersSent) {
    res.destroy();
    return false;
  }
  for (const [name, value] of Object.entries(appError.headers ?? {})) res.setHeader(name, value);
  if (appError.status === 401 && !res.hasHeader('WWW-Authenticate')) res.setHeader('WWW-Authenticate', 'Bearer realm="strata"');
  if ((appError.status === 429 || appError.status === 503) && !res.hasHeader('Retry-After')) res.setHeader('Retry-After', '1');
  return true;
}

/** Final express error handler: every error becomes an errors.md §1 body. */
export function errorHandler(err: unknown, _req: Request, res: Response, _next: NextFunction): void {
  sendError(res, err);
}
