import { isoTime } from '../contracts/index.ts';
import type { AuthEvent, NewEvent, PrincipalRef } from '../contracts/index.ts';
import { EVENT_SCHEMA_VERSION } from './commandHandler.ts';
import { newEventId } from './ids.ts';

/** Wraps auth events in the envelope (one time for the batch), as buildEvents does for domain events. */
export function authEventEnvelope(
  events: readonly AuthEvent[],
  meta: { readonly principal: PrincipalRef; readonly correlationId: string },
  nowMs: number,
): NewEvent[] {
  const time = isoTime(nowMs);
  return events.map((event) => ({
    type: event.type,
    schemaVersion: EVENT_SCHEMA_VERSION,
    data: event.data,
    metadata: { eventId: newEventId(nowMs), correlationId: meta.correlationId, causationId: null, principal: meta.principal, time },
  }));
}
