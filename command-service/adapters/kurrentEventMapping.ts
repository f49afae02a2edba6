import { createHash } from 'node:crypto';
import { ANY, ErrorType, NO_STREAM, jsonEvent } from '@kurrent/kurrentdb-client';
import type {
  AppendStreamState,
  CurrentStreamState,
  EventData,
  Position as LogPosition,
  RecordedEvent as KurrentRecordedEvent,
} from '@kurrent/kurrentdb-client';
import { AppError, StreamConflictError, kurrentPosition, positionBackend } from '../../contracts/index.ts';
import type { EventMetadata, ExpectedRevision, NewEvent, Position, RecordedEvent } from '../../contracts/index.ts';

/** What KurrentDB stores as an event's data: our schema version travels with the payload. */
export type StoredEventData = { readonly schemaVersion: number; readonly data: unknown };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KURRENT_URL = /^(?:esdb|kurrentdb|kurrent|kdb)(?:\+discover)?:\/\//i;
/** Name space of the name-based UUIDs derived from event ids that are not UUIDs themselves (fixed forever). */
const EVENT_ID_NAMESPACE = Buffer.from('6f1c2a0e4b5d4e8f9a3b7c6d5e4f3a2b', 'hex');

/**
 * KurrentDB requires UUID event ids and deduplicates retried appends by them. Our ids are UUIDs already (v7);
 * any other id maps to a name-based UUID (RFC 9562 version 5: SHA-1 of a fixed name space and the id), so a retry
 * of the same events carries the same UUIDs.
 */
export function eventUuid(eventId: string): string {
  if (UUID.test(eventId)) return eventId.toLowerCase();
  const bytes = createHash('sha1').update(EVENT_ID_NAMESPACE).update(eventId, 'utf8').digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function toStreamState(expected: ExpectedRevision): AppendStreamState {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (!Number.isSafeInteger(expected) || expected < 0) {
    throw new Error(`expected revision must be 'any', 'no_stream' or a revision >= 0, got ${String(expected)}`);
  }
  return BigInt(expected);
}

export function toEventData(event: NewEvent): EventData {
  const data: StoredEventData = { schemaVersion: event.schemaVersion, data: event.data ?? null };
  return jsonEvent({ id: eventUuid(event.metadata.eventId), type: event.type, data, metadata: { ...event.metadata } });
}

export function toPosition(position: LogPosition): Position {
  return kurrentPosition(position.commit, position.prepare);
}

/** The log position behind a `k:` position; any other string is a client error (spec operations §4.3). */
export function parseKurrentPosition(position: Position): LogPosition {
  if (positionBackend(position) !== 'kurrent') {
    throw new AppError('BAD_REQUEST', `position "${position}" is not a KurrentDB event store position`);
  }
  return { commit: BigInt(position.slice(2, 22)), prepare: BigInt(position.slice(23)) };
}

export function compareLogPositions(a: LogPosition, b: LogPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

/** The server's "no position" (-1) as an unsigned 64-bit number. */
const NO_POSITION = 2n ** 64n - 1n;

/** Positions are returned by every server since 22.6; without them the adapter cannot order anything. */
export function requirePosition(event: KurrentRecordedEvent): LogPosition {
  if (event.position === undefined || event.position.commit === NO_POSITION || event.position.prepare === NO_POSITION) {
    throw new Error(`KurrentDB returned event ${event.id} without a log position (server 22.6 or later is required)`);
  }
  return event.position;
}

function isStoredEventData(value: unknown): value is StoredEventData {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Number.isSafeInteger((value as { schemaVersion?: unknown }).schemaVersion) &&
    Object.prototype.hasOwnProperty.call(value, 'data')
  );
}

function isEventMetadata(value: unknown): value is EventMetadata {
  return typeof value === 'object' && value !== null && typeof (value as { eventId?: unknown }).eventId === 'string';
}

/**
 * Our envelope back from a KurrentDB event (not upcast). Events written by other tools on a shared server are
 * passed through as schema version 1 with their JSON data (null for binary data) and metadata made from what the
 * server knows, so projectors can ignore them by type.
 */
export function toRecordedEvent(event: KurrentRecordedEvent): RecordedEvent {
  const stored = event.data;
  const { schemaVersion, data } = isStoredEventData(stored) ? stored : { schemaVersion: 1, data: event.isJson ? (stored as unknown) : null };
  const metadata: EventMetadata = isEventMetadata(event.metadata)
    ? event.metadata
    : { eventId: event.id, correlationId: event.id, causationId: null, principal: 'system', time: event.created.toISOString() };
  return {
    streamId: event.streamId,
    revision: Number(event.revision),
    position: toPosition(requirePosition(event)),
    type: event.type,
    schemaVersion,
    data,
    metadata,
  };
}

function actualRevision(state: CurrentStreamState | bigint): number | null {
  return typeof state === 'bigint' && state >= 0n ? Number(state) : null;
}

/** Our StreamConflictError for the client's WrongExpectedVersionError; null for any other error. */
export function toStreamConflict(err: unknown, streamId: string, expected: ExpectedRevision): StreamConflictError | null {
  if (!(err instanceof Error) || (err as { type?: unknown }).type !== ErrorType.WRONG_EXPECTED_VERSION) return null;
  const { actualState } = err as Error & { actualState?: CurrentStreamState };
  return new StreamConflictError(streamId, expected, actualState === undefined ? null : actualRevision(actualState));
}

/**
 * With `throwOnAppendFailure=false` in the connection string the client resolves a failed append instead of
 * rejecting: `nextExpectedRevision` is then the stream's current revision (-1 when it does not exist).
 */
export function failedAppendConflict(streamId: string, expected: ExpectedRevision, current: bigint): StreamConflictError {
  return new StreamConflictError(streamId, expected, actualRevision(current));
}

export function isStreamNotFound(err: unknown): boolean {
  return err instanceof Error && (err as { type?: unknown }).type === ErrorType.STREAM_NOT_FOUND;
}

/**
 * The client's connection string. `esdb://` (the EventStoreDB name) still works but makes the client print a
 * deprecation warning on stdout, so it is rewritten to the equivalent `kurrentdb://`.
 */
export function toConnectionString(url: string): string {
  if (!KURRENT_URL.test(url)) {
    throw new Error('the KurrentDB URL must start with kurrentdb://, kurrent://, kdb:// or esdb:// (each also with +discover)');
  }
  return url.replace(/^esdb(\+discover)?:\/\//i, (_match, discover: string | undefined) => `kurrentdb${discover ?? ''}://`);
}
