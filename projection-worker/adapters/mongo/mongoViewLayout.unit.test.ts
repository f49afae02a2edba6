import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectionLayout, decodeDoc, decodeKey, documentId, encodeDoc, encodeKey, lookupId } from './mongoViewLayout.ts';

const layout = collectionLayout('api-keys', 3, {
  name: 'pairs',
  fields: { branch: 'text', row: 'text', n: 'integer', flag: 'boolean', body: 'json' },
  key: ['branch', 'row'],
});

test('object keys are made safe for MongoDB paths and decode back', () => {
  const keys = ['', '0', '12ab', 'a.b', '$x', '%', '%_', '%41', 'nul\u0000', 'plain', 'é', '_id'];
  for (const key of keys) {
    const encoded = encodeKey(key);
    assert.equal(decodeKey(encoded), key, JSON.stringify(key));
    assert.doesNotMatch(encoded, /[.$\0]/, `${JSON.stringify(key)} -> ${encoded}`);
    assert.doesNotMatch(encoded, /^[0-9]/, 'no key can be read as an array index');
    assert.notEqual(encoded, '');
  }
  assert.equal(encodeKey('plain'), 'plain');
  assert.equal(new Set(keys.map(encodeKey)).size, keys.length);
});

test('documents: collection name, `_id` from the key, nulls flagged, json normalised like JSON text', () => {
  assert.equal(layout.name, 'v_api_keys_3_pairs');
  const stored = encodeDoc(layout, { branch: 'main', row: 'r1', n: -0, flag: null, body: { 'a.b': [1, undefined], u: undefined }, extra: 1 });
  assert.deepEqual(stored, {
    _id: { branch: 'main', row: 'r1' },
    branch: 'main',
    row: 'r1',
    n: 0,
    body: { 'a%2Eb': [1, null] },
    _nulls: { flag: true },
  });
  assert.deepEqual(decodeDoc(layout, stored), { branch: 'main', row: 'r1', n: 0, flag: null, body: { 'a.b': [1, null] } });
  assert.throws(() => encodeDoc(layout, { branch: 'main', row: null }), /key field "row" is missing/);
  assert.throws(() => encodeDoc(layout, { branch: 'main', row: 'r', n: 1.5 }), /expected integer/);
});

test('lookups: key fields in any order; a null or mistyped key matches nothing', () => {
  assert.deepEqual(lookupId(layout, { row: 'r1', branch: 'main' }), documentId(layout, { branch: 'main', row: 'r1' }));
  assert.equal(lookupId(layout, { branch: 'main', row: null }), null);
  assert.equal(lookupId(layout, { branch: 'main', row: 5 }), null);
  assert.throws(() => lookupId(layout, { branch: 'main' }), /key field "row" is missing/);
  const single = collectionLayout('p', 1, { name: 'c', fields: { id: 'integer' }, key: ['id'] });
  assert.equal(documentId(single, { id: 7 }), 7);
});

test('names MongoDB cannot store are refused', () => {
  assert.throws(() => collectionLayout('p', 1, { name: 'c', fields: { 'a.b': 'text' }, key: ['a.b'] }), /cannot be stored/);
  assert.throws(() => collectionLayout('p', 1, { name: 'c', fields: { _id: 'text' }, key: ['_id'] }), /cannot be stored/);
  assert.throws(() => collectionLayout('P', 1, { name: 'c', fields: { id: 'text' }, key: ['id'] }), /invalid projection name/);
});
