import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { newEventId, newId } from './ids.ts';

describe('ids', () => {
  test('newId: 21 characters of the URL-safe alphabet, every character drawn, all distinct over a pool refill', () => {
    const ids = Array.from({ length: 1000 }, () => newId());
    for (const id of ids) assert.match(id, /^[A-Za-z0-9_-]{21}$/);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(new Set(ids.join('')).size, 64);
  });

  test('newEventId: a UUID v7 with the millisecond time first, all distinct over a pool refill', () => {
    const now = Date.UTC(2026, 10, 29, 1, 2, 3, 456);
    const ids = Array.from({ length: 1000 }, () => newEventId(now));
    for (const id of ids) {
      assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.equal(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16), now);
    }
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(newEventId(now + 1) > newEventId(now), 'ids grow with time');
  });
});
