import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_STREAM, StreamNotFoundError, UnavailableError, WrongExpectedVersionError } from '@kurrent/kurrentdb-client';
import type { RecordedEvent as KurrentRecordedEvent } from '@kurrent/kurrentdb-client';
import { comparePositions, isAppError, isStreamConflict } from '../../contracts/index.ts';
import type { NewEvent } from '../../contracts/index.ts';
import {
  compareLogPositions,
  eventUuid,
  failedAppendConflict,
  isStreamNotFound,
  parseKurrentPosition,
  toConnectionString,
  toEventData,
  toPosition,
  toRecordedEvent,
  toStreamConflict,
  toStreamState,
} from './kurrentEventMapping.ts';

const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const newEvent = (eventId: string, data: unknown = { n: 1 }): NewEvent => ({
  type: 'RowsCreated',
  schemaVersion: 2,
  data,
  metadata: { eventId, correlationId: 'req-1', causationId: null, principal: 'user:u1', time: '2025-03-01T09:30:00.000Z' },
});

function recorded(overrides: Partial<Record<keyof KurrentRecordedEvent, unknown>>): KurrentRecordedEvent {
  return {
    streamId: 'branch-b1',
    id: '0190a6e2-7c3b-7def-8abc-0123456789ab',
    isJson: true,
    revision: 3n,
    type: 'RowsCreated',
    created: new Date('2025-03-01T09:30:01.000Z'),
    data: { schemaVersion: 2, data: { rows: 1 } },
    metadata: newEvent('0190a6e2-7c3b-7def-8abc-0123456789ab').metadata,
    position: { commit: 1200n, prepare: 1328n },
    ...overrides,
  } as KurrentRecordedEvent;
}

describe('kurrent positions', () => {
  test('encode commit and prepare as k: + 20 digits + : + 20 digits and parse back', () => {
    assert.equal(toPosition({ commit: 123n, prepare: 45n }), 'k:00000000000000000123:00000000000000000045');
    const max = 18446744073709551615n;
    for (const position of [
      { commit: 0n, prepare: 0n },
      { commit: 1200n, prepare: 1328n },
      { commit: max, prepare: max },
    ]) {
      assert.deepEqual(parseKurrentPosition(toPosition(position)), position);
    }
  });

  test('string order is log order (commit first, then prepare)', () => {
    const positions = [
      { commit: 9n, prepare: 9n },
      { commit: 10n, prepare: 10n },
      { commit: 10n, prepare: 138n },
      { commit: 1000n, prepare: 1000n },
    ];
    for (const a of positions) {
      for (const b of positions) {
        assert.equal(Math.sign(comparePositions(toPosition(a), toPosition(b))), Math.sign(compareLogPositions(a, b)));
      }
    }
  });

  test('SQLite and malformed positions are a BAD_REQUEST', () => {
    for (const bad of ['s:00000000000000012345', 'k:12:34', 'k:00000000000000000123', '']) {
      assert.throws(
        () => parseKurrentPosition(bad),
        (err: unknown) => isAppError(err, 'BAD_REQUEST'),
      );
    }
  });
});

describe('expected revision', () => {
  test('maps any, no_stream and revisions to the client stream states', () => {
    assert.equal(toStreamState('any'), 'any');
    assert.equal(toStreamState('no_stream'), 'no_stream');
    assert.equal(toStreamState(0), 0n);
    assert.equal(toStreamState(41), 41n);
  });

  test('rejects revisions that are not non-negative integers', () => {
    for (const bad of [-1, 1.5, Number.NaN]) assert.throws(() => toStreamState(bad));
  });
});

describe('event ids', () => {
  test('UUID event ids are used as they are (lower case)', () => {
    assert.equal(eventUuid('0190A6E2-7C3B-7DEF-8ABC-0123456789AB'), '0190a6e2-7c3b-7def-8abc-0123456789ab');
  });

  test('other ids map to a deterministic name-based UUID, so retries keep their ids', () => {
    const id = eventUuid('V1StGXR8_Z5jdHi6B-myT');
    assert.match(id, UUID_V5);
    assert.equal(eventUuid('V1StGXR8_Z5jdHi6B-myT'), id);
    assert.notEqual(eventUuid('V1StGXR8_Z5jdHi6B-myU'), id);
    assert.notEqual(eventUuid('0190a6e2-7c3b-7def-8abc-0123456789a'), eventUuid('0190a6e2-7c3b-7def-8abc-0123456789ab'));
  });
});

describe('event data', () => {
  test('a new event becomes a JSON event with our id, type, envelope and metadata', () => {
    const event = newEvent('my-event-1', { rows: [{ id: 'a' }] });
    const data = toEventData(event);
    assert.deepEqual(data, {
      id: eventUuid('my-event-1'),
      contentType: 'application/json',
      type: 'RowsCreated',
      data: { schemaVersion: 2, data: { rows: [{ id: 'a' }] } },
      metadata: event.metadata,
    });
    assert.deepEqual(toEventData({ ...newEvent('x'), data: undefined }).data, { schemaVersion: 2, data: null });
  });

  test('a stored event reads back as our envelope', () => {
    assert.deepEqual(toRecordedEvent(recorded({})), {
      streamId: 'branch-b1',
      revision: 3,
      position: 'k:00000000000000001200:00000000000000001328',
      type: 'RowsCreated',
      schemaVersion: 2,
      data: { rows: 1 },
      metadata: newEvent('0190a6e2-7c3b-7def-8abc-0123456789ab').metadata,
    });
  });

  test('events written by other tools pass through as version 1 with metadata from the server', () => {
    const foreign = toRecordedEvent(recorded({ data: { hello: 'world' }, metadata: undefined, type: 'Other' }));
    assert.deepEqual(
      { schemaVersion: foreign.schemaVersion, data: foreign.data, metadata: foreign.metadata },
      {
        schemaVersion: 1,
        data: { hello: 'world' },
        metadata: {
          eventId: '0190a6e2-7c3b-7def-8abc-0123456789ab',
          correlationId: '0190a6e2-7c3b-7def-8abc-0123456789ab',
          causationId: null,
          principal: 'system',
          time: '2025-03-01T09:30:01.000Z',
        },
      },
    );
    assert.equal(toRecordedEvent(recorded({ isJson: false, data: new Uint8Array([1, 2]) })).data, null);
  });

  test('an event without a log position (server older than 22.6) is refused', () => {
    assert.throws(() => toRecordedEvent(recorded({ position: undefined })), /22\.6/);
    const none = 2n ** 64n - 1n;
    assert.throws(() => toRecordedEvent(recorded({ position: { commit: none, prepare: none } })), /22\.6/);
  });
});

describe('error mapping', () => {
  test('WrongExpectedVersionError becomes StreamConflictError with the actual revision', () => {
    const err = new WrongExpectedVersionError(undefined, { streamName: 'branch-b1', expected: 0n, current: 2n });
    const conflict = toStreamConflict(err, 'branch-b1', 0);
    assert.ok(isStreamConflict(conflict));
    assert.deepEqual({ ...conflict }, { name: 'StreamConflictError', streamId: 'branch-b1', expected: 0, actual: 2 });
    const missing = new WrongExpectedVersionError(undefined, { streamName: 's', expected: 0n, current: NO_STREAM });
    assert.equal(toStreamConflict(missing, 's', 0)?.actual, null);
  });

  test('other errors are not conflicts', () => {
    assert.equal(toStreamConflict(new StreamNotFoundError(undefined, 's'), 's', 0), null);
    assert.equal(toStreamConflict(new UnavailableError(), 's', 0), null);
    assert.equal(toStreamConflict(new Error('boom'), 's', 0), null);
    assert.equal(toStreamConflict('boom', 's', 0), null);
  });

  test('a failed append resolved by the client (throwOnAppendFailure=false) is a conflict too', () => {
    assert.equal(failedAppendConflict('s', 'no_stream', 4n).actual, 4);
    assert.equal(failedAppendConflict('s', 3, -1n).actual, null);
  });

  test('StreamNotFoundError is recognised', () => {
    assert.equal(isStreamNotFound(new StreamNotFoundError(undefined, 's')), true);
    assert.equal(isStreamNotFound(new UnavailableError()), false);
    assert.equal(isStreamNotFound(new Error('stream-not-found')), false);
  });
});

describe('connection string', () => {
  test('esdb URLs are rewritten to kurrentdb, others kept', () => {
    assert.equal(toConnectionString('esdb://es:2113?tls=false'), 'kurrentdb://es:2113?tls=false');
    assert.equal(toConnectionString('esdb+discover://a:2113,b:2113'), 'kurrentdb+discover://a:2113,b:2113');
    assert.equal(toConnectionString('kurrentdb://admin:changeit@es:2113'), 'kurrentdb://admin:changeit@es:2113');
    assert.equal(toConnectionString('kdb://es:2113?tls=false'), 'kdb://es:2113?tls=false');
  });

  test('other schemes are refused without echoing the URL', () => {
    assert.throws(
      () => toConnectionString('http://admin:secret@es:2113'),
      (err: unknown) => {
        assert.ok(err instanceof Error && !err.message.includes('secret'));
        return true;
      },
    );
  });
});
