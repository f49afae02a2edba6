import type { Position } from '../events/position.ts';

/** Waits for projections to reach a log position (read-your-writes, spec operations §4). */
export interface ConsistencyWaiter {
  /**
   * Resolves true once every named projection (all when omitted) has a checkpoint at or after `position`,
   * false when `timeoutMs` passes first. Never rejects because of the timeout.
   */
  waitFor(position: Position, timeoutMs: number, projections?: readonly string[]): Promise<boolean>;
}
