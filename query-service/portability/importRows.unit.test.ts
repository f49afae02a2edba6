import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_REPORTED_LINES } from './importAnswer.ts';
import { createLineErrors, createRowCollector } from './importRows.ts';

test('line errors keep the first 100 by line whatever the arrival order, and count all', () => {
  const errors = createLineErrors();
  // A staged import reports a chunk's row errors after later lines' shape errors: arrival is not line order.
  const lines = Array.from({ length: 1_000 }, (_, i) => ((i * 7919) % 1_000) + 1);
  for (const line of lines) errors.add({ line, rowId: null, code: 'BAD_USER_INPUT', message: `line ${line}` });
  assert.equal(errors.count(), 1_000);
  assert.deepEqual(
    errors.first().map((error) => error.line),
    Array.from({ length: MAX_REPORTED_LINES }, (_, i) => i + 1),
  );
  const more = [{ line: 0, rowId: 'x', code: 'INVALID_DATA' as const, message: 'first' }];
  assert.equal(errors.first(more)[0]?.message, 'first');
  assert.equal(errors.first(more).length, MAX_REPORTED_LINES);
});

test('the collector turns records into rows, repeated ids and shape errors into line errors', () => {
  const collector = createRowCollector();
  assert.deepEqual(collector.add({ line: 1, id: 'a', data: { n: 1 } }), { rowId: 'a', data: { n: 1 }, line: 1 });
  assert.equal(collector.add({ line: 2, id: null, error: { code: 'BAD_REQUEST', message: 'the line is not valid JSON' } }), null);
  assert.equal(collector.add({ line: 3, id: 'a', data: { n: 2 } }), null);
  assert.equal(collector.processed(), 3);
  assert.equal(collector.has('a'), true);
  assert.equal(collector.has('b'), false);
  assert.deepEqual(
    collector.errors.first().map((error) => [error.line, error.message]),
    [
      [2, 'the line is not valid JSON'],
      [3, 'row "a" already appears on line 1'],
    ],
  );
});
