import type { Request, Response } from 'express';
import type { Authenticator, Principal, SystemState, SystemStateSource } from '../../../contracts/index.ts';
import { authenticateRequest } from '../../http/authenticate.ts';
import { MIN_POSITION_HEADER, awaitMinPosition, type MinPositionOptions } from '../../http/minPosition.ts';

export type RequestStateDeps = {
  readonly authenticator: Authenticator;
  readonly systemState: SystemStateSource;
  readonly minPosition: MinPositionOptions;
};

/**
 * The principal of a generated-endpoint request (auth.md §10 step 1) and the system state it is served from. Both
 * are read on arrival, in the same turn, so they share one look at the log head (the system state source shares it
 * per turn; each is as fresh as operations.md §4.4 asks). A failed authentication answers first. With
 * X-Strata-Min-Position the state is read once the views reached that position.
 */
export async function principalAndState(deps: RequestStateDeps, req: Request, res: Response): Promise<{ principal: Principal; state: SystemState }> {
  const onArrival = deps.systemState.current();
  onArrival.catch(() => undefined);
  const principal = await authenticateRequest(deps.authenticator, req, res);
  const minPositionHeader = req.headers[MIN_POSITION_HEADER];
  if (minPositionHeader === undefined) return { principal, state: await onArrival };
  await awaitMinPosition(minPositionHeader, deps.minPosition);
  return { principal, state: await deps.systemState.current() };
}
