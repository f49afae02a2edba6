import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveTableLayers } from './tableLayers.ts';
import { OPEN_SEQ } from './viewSpecs.ts';

const full = (branchId: string, tableKey: string, tableId: string, count: number, fromSeq = 1) => ({
  branchId,
  tableKey,
  fromSeq,
  toSeq: OPEN_SEQ,
  tableId,
  schema: { type: 'object', properties: {}, additionalProperties: false, required: [] },
  count,
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: `2024-01-0${fromSeq}T00:00:00.000Z`,
  tombstone: null,
});
const partial = (branchId: string, tableKey: string, count: number, fromSeq = 1) => ({
  branchId,
  tableKey,
  fromSeq,
  toSeq: OPEN_SEQ,
  tableId: null,
  schema: null,
  count,
  createdAt: null,
  updatedAt: null,
  tombstone: null,
});
const tombstone = (branchId: string, tableKey: string, fromSeq = 1) => ({ ...partial(branchId, tableKey, 0, fromSeq), count: null, tombstone: true });

describe('resolveTableLayers', () => {
  test('inherits tables the upper layers do not hold, keeps overridden ones from the top', () => {
    const root = [full('root', 'k1', 'posts', 3, 2), full('root', 'k2', 'users', 1, 2)];
    const child = [full('child', 'k1', 'articles', 4)];
    const resolved = resolveTableLayers([child, root]);
    assert.deepEqual(
      resolved.map((doc) => [doc.branchId, doc.tableKey, doc.tableId, doc.count]),
      [
        ['child', 'k1', 'articles', 4],
        ['root', 'k2', 'users', 1],
      ],
    );
  });

  test('a partial version takes its null fields from the next layer down, through layers without the table', () => {
    const root = [full('root', 'k1', 'posts', 3, 2)];
    const middle: ReturnType<typeof full>[] = [];
    const child = [partial('child', 'k1', 7)];
    const [doc] = resolveTableLayers([child, middle, root]);
    assert.deepEqual(doc, { ...full('root', 'k1', 'posts', 7, 2), branchId: 'child', fromSeq: 1 });
  });

  test('a partial version over a partial version fills field by field', () => {
    const root = [full('root', 'k1', 'posts', 3, 2)];
    const middle = [{ ...partial('middle', 'k1', 5), tableId: 'renamed', updatedAt: 'later' }];
    const child = [partial('child', 'k1', 6)];
    const [doc] = resolveTableLayers([child, middle, root]);
    assert.equal(doc?.tableId, 'renamed');
    assert.equal(doc?.updatedAt, 'later');
    assert.equal(doc?.count, 6);
    assert.equal(doc?.createdAt, '2024-01-01T00:00:00.000Z');
  });

  test('tombstones hide the table below them and are never returned', () => {
    const root = [full('root', 'k1', 'posts', 3, 2), full('root', 'k2', 'users', 1, 2)];
    const child = [tombstone('child', 'k1')];
    assert.deepEqual(
      resolveTableLayers([child, root]).map((doc) => doc.tableKey),
      ['k2'],
    );
    assert.deepEqual(resolveTableLayers([[tombstone('root', 'k1')]]), []);
  });

  test('a partial version with nothing (or a tombstone) below it is not visible', () => {
    assert.deepEqual(resolveTableLayers([[partial('child', 'k1', 1)], []]), []);
    assert.deepEqual(resolveTableLayers([[partial('child', 'k1', 1)], [tombstone('root', 'k1')]]), []);
  });
});
