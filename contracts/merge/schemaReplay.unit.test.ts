import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayBetween, replayRows, schemaReplay, tableReplay } from './schemaReplay.ts';

// The replay of one side's schema patches on rows (merge.md §2.1): the migration of updateTable (domain.md §6),
// conversions included, as a function of a row's data.
const str = (fallback = '') => ({ type: 'string', default: fallback });
const int = (fallback = 0) => ({ type: 'integer', default: fallback });
const table = (properties: Record<string, unknown>) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});
const schema = table({ title: str(), note: str(), views: str() });

test('a move (a field renamed) carries the value to its new name, as updateTable does', () => {
  const replay = schemaReplay(schema, [{ op: 'move', from: '/properties/note', path: '/properties/summary' }]);
  assert.deepEqual(replay({ title: 'a', note: 'kept', views: '1' }), { title: 'a', views: '1', summary: 'kept' });
});

test('replace converts by the rules of domain.md §6 and keys follow the new schema order', () => {
  const replay = schemaReplay(schema, [
    { op: 'replace', path: '/properties/views', value: int() },
    { op: 'add', path: '/properties/rank', value: int(7) },
  ]);
  assert.deepEqual(replay({ views: ' 42 ', note: 'n', title: 't' }), { title: 't', note: 'n', views: 42, rank: 7 });
  assert.deepEqual(replay({ title: 't', note: 'n', views: 'many' }), { title: 't', note: 'n', views: 0, rank: 7 });
});

test('patches of keywords only, and no patches, leave rows as they are', () => {
  const data = { title: 'a', note: 'n', views: '1' };
  assert.equal(schemaReplay(schema, [{ op: 'add', path: '/properties/title/description', value: 'Headline' }])(data), data);
  assert.equal(schemaReplay(schema, [])(data), data);
  assert.equal(replayBetween(schema, structuredClone(schema))(data), data);
});

test('replayBetween reads the patches from the two schemas: a removed field is removed from rows', () => {
  const to = table({ title: str(), views: str() });
  assert.deepEqual(replayBetween(schema, to)({ title: 'a', note: 'edited', views: '1' }), { title: 'a', views: '1' });
});

test('tableReplay: the side that kept the base schema is replayed like the base, the changing side not at all', () => {
  const theirs = table({ title: str(), views: str() });
  const replay = tableReplay({ base: schema, ours: schema, theirs }, theirs);
  assert.equal(replay.ours, replay.base);
  const row = { title: 'a', views: '1' };
  assert.equal(replay.theirs(row), row);
  const rows = replayRows([{ baseRowId: 'r', rowId: 'r', base: { ...row, note: 'n' }, data: { ...row, note: 'x' } }], replay.base, replay.ours);
  assert.deepEqual(rows, [{ baseRowId: 'r', rowId: 'r', base: row, data: row }]);
  const removed = replayRows([{ baseRowId: 'r', rowId: null, base: { ...row, note: 'n' }, data: null }], replay.base, replay.ours);
  assert.deepEqual(removed, [{ baseRowId: 'r', rowId: null, base: row, data: null }]);
});
