import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, positionBackend, type ConsistencyWaiter, type PositionBackend } from '../../contracts/index.ts';

export const MIN_POSITION_HEADER = 'x-strata-min-position';

export type MinPositionOptions = {
  readonly waiter: ConsistencyWaiter;
  /** Backend of the event store (`eventStore.backend`); positions of another backend are refused. */
  readonly backend: PositionBackend;
  /** CONSISTENCY_TIMEOUT_MS. */
  readonly timeoutMs: number;
  /** Projections the request reads (all when omitted). */
  readonly projections?: readonly string[];
};

/**
 * Read-your-writes for reads (operations.md §4.3): resolves once the projections have reached `header`; no header
 * resolves at once. Malformed or foreign positions → 400 BAD_REQUEST; timeout → 503 CONSISTENCY_TIMEOUT.
 * Shared by REST (the middleware below) and GraphQL.
 */
export async function awaitMinPosition(header: string | string[] | undefined, options: MinPositionOptions): Promise<void> {
  if (header === undefined) return;
  const position = typeof header === 'string' ? header.trim() : null;
  if (position === null || positionBackend(position) === null) {
    throw new AppError('BAD_REQUEST', 'X-Strata-Min-Position is not a valid position');
  }
  if (positionBackend(position) !== options.backend) {
    throw new AppError('BAD_REQUEST', 'X-Strata-Min-Position belongs to another event store');
  }
  const reached = await options.waiter.waitFor(position, options.timeoutMs, options.projections);
  if (!reached) throw new AppError('CONSISTENCY_TIMEOUT', undefined, undefined, { 'Retry-After': '1' });
}

/** Express middleware form of awaitMinPosition. */
export function minPosition(options: MinPositionOptions): RequestHandler {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    await awaitMinPosition(req.headers[MIN_POSITION_HEADER], options);
    next();
  };
}
