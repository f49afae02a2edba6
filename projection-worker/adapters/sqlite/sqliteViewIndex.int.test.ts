import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Filter, FindQuery, ProjectionSpec, SortIndex, SortKey, ViewChange } from '../../../contracts/index.ts';
import { createSqliteViewStore, type SqliteViewStore } from './sqliteViewStore.ts';

const spec = {
  name: 'items',
  version: 1,
  collections: [
    {
      name: 'items',
      key: ['group', 'id'],
      fields: { group: 'text', id: 'text', seq: 'integer', data: 'json', updatedAt: 'text' },
      indexes: [{ fields: ['group', 'seq'] }],
    },
  ],
} as const satisfies ProjectionSpec;

async function withStore(run: (store: SqliteViewStore) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-view-index-'));
  const store = createSqliteViewStore({ file: join(dir, 'views.db') });
  try {
    await store.ensureProjection(spec);
    const changes: ViewChange[] = Array.from({ length: 60 }, (_, i) => ({
      op: 'upsert',
      collection: 'items',
      doc: {
        group: `g${i % 3}`,
        id: `i${String(i).padStart(2, '0')}`,
        seq: i % 4,
        data: { views: i % 5 === 0 ? null : (i * 7) % 11, title: i % 6 === 0 ? 42 : `t${i % 9}` },
        updatedAt: i % 7 === 0 ? null : `u${i % 8}`,
      },
    }));
    assert.equal(await store.applyBatch({ name: 'items', version: 1 }, null, 's:00000000000000000001', changes), true);
    await run(store);
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const group: Filter = {
  kind: 'and',
  filters: [
    { kind: 'compare', ref: { field: 'group' }, op: 'eq', value: 'g1' },
    { kind: 'compare', ref: { field: 'seq' }, op: 'lte', value: 2 },
  ],
};
const sorts: readonly (readonly SortKey[])[] = [
  [
    { ref: { field: 'data', path: ['views'], cast: 'float' }, direction: 'desc' },
    { ref: { field: 'id' }, direction: 'asc' },
  ],
  [
    { ref: { field: 'data', path: ['title'], cast: 'text' }, direction: 'asc' },
    { ref: { field: 'updatedAt' }, direction: 'asc' },
    { ref: { field: 'id' }, direction: 'desc' },
  ],
];

describe('sqlite ensureIndex', () => {
  test('sorted finds read the index (no temporary B-tree) and return the same order as without it', () =>
    withStore(async (store) => {
      for (const sort of sorts) {
        const query: FindQuery = { filter: group, orderBy: sort, limit: 50 };
        const before = await store.find('items', 'items', query);
        assert.ok((await store.explainFind('items', 'items', query)).some((line) => line.includes('TEMP B-TREE')));
        const index: SortIndex = { equal: ['group'], sort };
        await store.ensureIndex('items', 'items', index);
        await store.ensureIndex('items', 'items', index);
        const plan = await store.explainFind('items', 'items', query);
        assert.ok(
          plan.some((line) => line.includes('USING INDEX') && line.includes('__sort_')),
          plan.join(' | '),
        );
        assert.ok(!plan.some((line) => line.includes('TEMP B-TREE')), plan.join(' | '));
        assert.deepEqual(await store.find('items', 'items', query), before);
      }
    }));

  test('nulls still sort last, in both directions, through the index', () =>
    withStore(async (store) => {
      const [desc, asc] = sorts as [readonly SortKey[], readonly SortKey[]];
      await store.ensureIndex('items', 'items', { equal: ['group'], sort: desc });
      await store.ensureIndex('items', 'items', { equal: ['group'], sort: asc });
      const byViews = (await store.find('items', 'items', { filter: group, orderBy: desc })).map((doc) => (doc.data as { views: unknown }).views);
      const firstNull = byViews.indexOf(null);
      assert.ok(firstNull > 0 && byViews.slice(firstNull).every((v) => v === null), JSON.stringify(byViews));
      const docs = await store.find('items', 'items', { filter: group, orderBy: asc });
      const t1 = docs.filter((doc) => (doc.data as { title: unknown }).title === 't1').map((doc) => doc.updatedAt);
      assert.deepEqual(t1, ['u1', 'u2', 'u5', 'u6', null]);
    }));
});
