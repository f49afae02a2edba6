import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../contracts/index.ts';
import { createTableModelCache } from './tableModelCache.ts';

const schema = (field: string): JsonObject => ({
  type: 'object',
  additionalProperties: false,
  required: [field],
  properties: { [field]: { type: 'string', default: '' } },
});

test('a model is compiled once per schema text, kept in the bounded cache, least recently used out first', () => {
  const modelOf = createTableModelCache();
  const first = modelOf(schema('a'));
  // Another object with the same text (as a decision state parses for every batch): the same model.
  assert.equal(modelOf(schema('a')), first);
  for (let i = 0; i < 500; i++) modelOf(schema(`f${i}`));
  // 500 other schemas since: the first one's model left the cache and is compiled again.
  const again = modelOf(schema('a'));
  assert.notEqual(again, first);
  assert.deepEqual(again, first);
  // A recently used one stays.
  const recent = modelOf(schema('f499'));
  assert.equal(modelOf(schema('f499')), recent);
});
