import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sqlitePosition } from '../../contracts/index.ts';
import type { RecordedEvent } from '../../contracts/index.ts';
import { createRecentAppends, type AppendedEvent } from './recentAppends.ts';

function appended(position: number, bytes = 10): AppendedEvent {
  const event: RecordedEvent = {
    streamId: 'branch-1',
    revision: position,
    position: sqlitePosition(position),
    type: 'T',
    schemaVersion: 1,
    data: null,
    metadata: { eventId: `e${position}`, correlationId: 'c', causationId: null, principal: 'system', time: '2025-03-01T09:30:00.000Z' },
  };
  return { event, category: 'branch', position, bytes };
}

const positions = (events: readonly AppendedEvent[] | null) => events?.map((e) => e.position) ?? null;

test('the window answers only reads it covers up to the head', () => {
  const recent = createRecentAppends({ maxBytes: 1000, keepMs: 60_000 });
  assert.equal(recent.after(0, 0), null);
  recent.add([appended(5), appended(6)]);
  recent.add([appended(7)]);
  assert.deepEqual(positions(recent.after(4, 7)), [5, 6, 7]);
  assert.deepEqual(positions(recent.after(6, 7)), [7]);
  // Before the window, at or past its end, or a head beyond it (another writer appended since): the log answers.
  assert.equal(recent.after(3, 7), null);
  assert.equal(recent.after(7, 7), null);
  assert.equal(recent.after(4, 8), null);
  // A gap (another writer in between) starts a new run.
  recent.add([appended(9)]);
  assert.deepEqual(positions(recent.after(8, 9)), [9]);
  assert.equal(recent.after(6, 9), null);
});

test('the window keeps at most maxBytes, oldest out first', () => {
  const recent = createRecentAppends({ maxBytes: 25, keepMs: 60_000 });
  recent.add([appended(1), appended(2), appended(3)]);
  assert.equal(recent.after(0, 3), null);
  assert.deepEqual(positions(recent.after(1, 3)), [2, 3]);
  // One event larger than the bound is not kept.
  recent.add([appended(4, 100)]);
  assert.equal(recent.after(3, 4), null);
});
