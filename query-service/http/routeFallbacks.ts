import type { Request, RequestHandler, Response } from 'express';
import { AppError } from '../../contracts/index.ts';
import { sendError } from './sendError.ts';

/** 404 ROUTE_NOT_FOUND for paths no route matches (errors.md §1: JSON like every other error). */
export function notFound(_req: Request, res: Response): void {
  sendError(res, new AppError('ROUTE_NOT_FOUND'));
}

/**
 * A handler answering 405 METHOD_NOT_ALLOWED with `Allow` for a known path, e.g.
 * `router.route('/x').get(read).all(methodNotAllowed(['GET']))`. HEAD is allowed wherever GET is.
 */
export function methodNotAllowed(allowed: readonly string[]): RequestHandler {
  const methods = allowed.map((m) => m.toUpperCase());
  if (methods.includes('GET') && !methods.includes('HEAD')) methods.splice(methods.indexOf('GET') + 1, 0, 'HEAD');
  const allow = methods.join(', ');
  return (req: Request, res: Response): void => {
    sendError(res, new AppError('METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed on this route`, undefined, { Allow: allow }));
  };
}
