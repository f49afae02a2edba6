import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonValueOffsets, locatePointer } from './jsonPositions.ts';

describe('jsonPositions', () => {
  const text = JSON.stringify({ title: 'x', 'a/b': { deep: [1, { z: true }] }, s: 'q"}' }, null, 2);

  test('every value has its offset by JSON Pointer', () => {
    const offsets = jsonValueOffsets(text);
    assert.equal(text.slice(offsets.get('/title'), (offsets.get('/title') ?? 0) + 3), '"x"');
    assert.equal(text.charAt(offsets.get('/a~1b/deep/1/z') ?? -1), 't');
    assert.equal(text.charAt(offsets.get('/a~1b/deep/0') ?? -1), '1');
    assert.equal(text.charAt(offsets.get('') ?? -1), '{');
    assert.ok(offsets.has('/s'));
  });

  test('locatePointer gives the line, falling back to the nearest ancestor', () => {
    assert.deepEqual(locatePointer(text, '/title'), { offset: text.indexOf('"x"'), line: 2, exact: true });
    const missing = locatePointer(text, '/a~1b/nothing/here');
    assert.equal(missing?.exact, false);
    assert.equal(missing?.line, 3);
    assert.equal(locatePointer('not json', '/x')?.offset, 0);
  });
});
