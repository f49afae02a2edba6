import type { Logger } from 'pino';
import { AppError, assertPassword, directoryStreamId, isoTime } from '../../contracts/index.ts';
import type { Clock, EventStore, NewEvent, Position } from '../../contracts/index.ts';
import { EVENT_SCHEMA_VERSION, appendWithRetry } from '../commandHandler.ts';
import { newEventId, newId } from '../ids.ts';
import { createSystemStateSource } from '../state/systemStateSource.ts';
import { findUserByUsername } from '../state/findUserByUsername.ts';
import { hashPassword } from './passwords.ts';
import { auditPasswordChanged } from '../audit/userAudit.ts';

/**
 * `strata users set-password <username>` (operations.md §5): sets the password of a user found by exact username,
 * which increments the token version and thereby revokes every access token and refresh family of the user
 * (UserPasswordChanged, reason `cli`, acted by `system`). USER_NOT_FOUND / INVALID_PASSWORD otherwise.
 */
export async function setUserPassword(
  deps: { readonly eventStore: EventStore; readonly clock: Clock; readonly log: Logger },
  input: { readonly username: string; readonly password: string },
): Promise<{ readonly userId: string; readonly position: Position }> {
  const { eventStore, clock, log } = deps;
  const systemState = createSystemStateSource({ eventStore });
  const known = findUserByUsername(await systemState.current(), input.username);
  if (!known) throw new AppError('USER_NOT_FOUND', `User "${input.username}" not found`);
  assertPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const correlationId = newId();
  const outcome = await appendWithRetry({ eventStore, log }, async () => {
    const state = await systemState.current();
    const user = findUserByUsername(state, input.username);
    if (!user) throw new AppError('USER_NOT_FOUND', `User "${input.username}" not found`);
    const now = clock.now();
    const event: NewEvent = {
      type: 'UserPasswordChanged',
      schemaVersion: EVENT_SCHEMA_VERSION,
      data: { userId: user.id, passwordHash, reason: 'cli' },
      metadata: { eventId: newEventId(now), correlationId, causationId: null, principal: 'system', time: isoTime(now) },
    };
    return {
      streamId: directoryStreamId,
      expected: state.streamRevisions.get(directoryStreamId) ?? 'no_stream',
      events: [event],
      result: user.id,
      seenPosition: state.position,
    };
  });
  auditPasswordChanged(log, 'system', outcome.result, 'cli');
  return { userId: outcome.result, position: outcome.position as Position };
}
