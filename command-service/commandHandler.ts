import type { Logger } from 'pino';
import { AppError, isStreamConflict, isoTime, principalRef } from '../contracts/index.ts';
import { newEventId } from './ids.ts';
import type {
  AppendResult,
  Clock,
  CommandContext,
  CommandInput,
  CommandOutcome,
  CommandResult,
  CommandType,
  DomainEvent,
  EventStore,
  ExpectedRevision,
  NewEvent,
  Position,
  QuerySideCommand,
  SystemStateSource,
} from '../contracts/index.ts';

/** What every command handler receives. */
export type HandlerDeps = {
  readonly eventStore: EventStore;
  readonly systemState: SystemStateSource;
  readonly clock: Clock;
  readonly log: Logger;
  readonly newId: () => string;
};

export type CommandHandler<K extends CommandType> = (input: CommandInput<K>, context: CommandContext) => Promise<CommandOutcome<CommandResult<K>>>;

/** Every command but those the query side answers itself (QUERY_SIDE_COMMANDS). */
export type CommandHandlers = { [K in Exclude<CommandType, QuerySideCommand>]: CommandHandler<K> };

/** Envelope schema version of every event the handlers write today. */
export const EVENT_SCHEMA_VERSION = 1;

/** Optimistic-concurrency retries after the first attempt (domain design: up to 5, then CONCURRENT_MODIFICATION). */
export const MAX_APPEND_RETRIES = 5;

/**
 * Wraps domain events in the envelope: a fresh time-ordered event id each (UUIDv7), the request id as correlation id, the acting
 * principal and one timestamp for the whole batch (`now`, default `clock.now()`), so results built from the same
 * `now` carry the same time as the events.
 */
export function buildEvents(events: readonly DomainEvent[], context: CommandContext, clock: Clock, now: number = clock.now()): NewEvent[] {
  const time = isoTime(now);
  const principal = principalRef(context.principal);
  return events.map((event) => ({
    type: event.type,
    schemaVersion: EVENT_SCHEMA_VERSION,
    data: event.data,
    metadata: { eventId: newEventId(now), correlationId: context.correlationId, causationId: null, principal, time },
  }));
}

/** One decision to append: the events (empty = a no-op), where, and the result they produce. */
export type AppendPlan<T> = {
  readonly streamId: string;
  readonly expected: ExpectedRevision;
  readonly events: readonly NewEvent[];
  readonly result: T;
  /** Log position the decision was taken at; returned as the outcome position of a no-op. */
  readonly seenPosition: Position | null;
};

export type AppendOutcome<T> = {
  readonly result: T;
  /** Position of the last appended event, or `seenPosition` of a no-op. */
  readonly position: Position | null;
  /** The append, or null for a no-op. */
  readonly appended: AppendResult | null;
};

/**
 * Runs `decide` (which must load fresh state on every call) and appends its events with the expected revision it
 * returned. On a stream conflict the decision is taken again against caught-up state, up to `maxRetries` times;
 * then CONCURRENT_MODIFICATION. Refusals (AppError) thrown by `decide` propagate unchanged and append nothing.
 */
export async function appendWithRetry<T>(
  deps: { readonly eventStore: EventStore; readonly log: Logger },
  decide: (attempt: number) => Promise<AppendPlan<T>>,
  maxRetries: number = MAX_APPEND_RETRIES,
): Promise<AppendOutcome<T>> {
  for (let attempt = 0; attempt <= maxRetries; attempt++) {
    const plan = await decide(attempt);
    if (plan.events.length === 0) return { result: plan.result, position: plan.seenPosition, appended: null };
    try {
      const appended = await deps.eventStore.append(plan.streamId, plan.events, plan.expected);
      return { result: plan.result, position: appended.position, appended };
    } catch (err) {
      if (!isStreamConflict(err)) throw err;
      deps.log.debug({ stream: plan.streamId, expected: plan.expected, attempt }, 'append conflict, retrying');
    }
  }
  throw new AppError('CONCURRENT_MODIFICATION');
}
