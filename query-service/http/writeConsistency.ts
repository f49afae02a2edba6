import type { Response } from 'express';
import type { ConsistencyWaiter, Position } from '../../contracts/index.ts';

export type WriteConsistency = 'projected' | 'pending' | 'appended';

export type WriteConsistencyOptions = {
  readonly waiter: ConsistencyWaiter;
  /** WRITE_CONSISTENCY. */
  readonly mode: 'projected' | 'appended';
  /** CONSISTENCY_TIMEOUT_MS. */
  readonly timeoutMs: number;
  /** Projections affected by the write (all when omitted). */
  readonly projections?: readonly string[];
};

/**
 * Waits, in `projected` mode, until the affected projections reach the write's position (operations.md §4.2).
 * A timeout never fails the write: it only reports `pending`. Shared by REST (finishWrite) and GraphQL.
 */
export async function awaitWriteConsistency(position: Position, options: WriteConsistencyOptions): Promise<WriteConsistency> {
  if (options.mode === 'appended') return 'appended';
  const reached = await options.waiter.waitFor(position, options.timeoutMs, options.projections);
  return reached ? 'projected' : 'pending';
}

/** Sets `X-Strata-Position` and `X-Strata-Consistency` on a successful write's response, waiting per the mode. */
export async function finishWrite(res: Response, position: Position, options: WriteConsistencyOptions): Promise<WriteConsistency> {
  const consistency = await awaitWriteConsistency(position, options);
  res.setHeader('X-Strata-Position', position);
  res.setHeader('X-Strata-Consistency', consistency);
  return consistency;
}
