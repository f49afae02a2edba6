// recordedAfter (decisionCatchUp.ts): a batch's own appends are applied without reading them back only when the log
// is gap-free (SQLite positions) and they directly follow the decision state's checkpoint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kurrentPosition, sqlitePosition } from '../../contracts/index.ts';
import type { AppendRequest, NewEvent } from '../../contracts/index.ts';
import { recordedAfter } from './decisionCatchUp.ts';

const event = (n: number): NewEvent => ({
  type: 'RowsCreated',
  schemaVersion: 1,
  data: { n },
  metadata: { eventId: `e${n}`, correlationId: 'c', causationId: null, principal: 'system', time: '2026-01-01T00:00:00.000Z' },
});
const request = (streamId: string, count: number, from: number): AppendRequest => ({
  streamId,
  events: Array.from({ length: count }, (_, i) => event(from + i)),
  expected: from === 0 ? 'no_stream' : from - 1,
});

test('contiguous appends right after the checkpoint get their revisions and positions', () => {
  const appended = [
    { request: request('branch-a', 2, 0), result: { nextExpectedRevision: 1, position: sqlitePosition(12) } },
    { request: request('branch-a', 1, 2), result: { nextExpectedRevision: 2, position: sqlitePosition(13) } },
  ];
  const events = recordedAfter(sqlitePosition(10), appended);
  assert.deepEqual(
    events?.map((e) => [e.streamId, e.revision, e.position, (e.data as { n: number }).n]),
    [
      ['branch-a', 0, sqlitePosition(11), 0],
      ['branch-a', 1, sqlitePosition(12), 1],
      ['branch-a', 2, sqlitePosition(13), 2],
    ],
  );
});

test('anything appended in between, a gap between requests, an unknown or KurrentDB checkpoint: read from the log', () => {
  const one = (position: number) => [{ request: request('branch-a', 2, 5), result: { nextExpectedRevision: 6, position: sqlitePosition(position) } }];
  assert.equal(recordedAfter(sqlitePosition(10), one(13)), null, 'another event at 11');
  assert.equal(recordedAfter(null, one(2)), null, 'no checkpoint yet');
  assert.equal(recordedAfter(kurrentPosition(10n, 10n), one(12)), null, 'KurrentDB positions have gaps');
  const gap = [
    { request: request('branch-a', 1, 0), result: { nextExpectedRevision: 0, position: sqlitePosition(11) } },
    { request: request('branch-a', 1, 1), result: { nextExpectedRevision: 1, position: sqlitePosition(13) } },
  ];
  assert.equal(recordedAfter(sqlitePosition(10), gap), null, 'another event between the requests');
  assert.equal(recordedAfter(sqlitePosition(10), []), null);
});
