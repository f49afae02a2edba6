import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import type { FindQuery, ProjectionSpec, SortKey, ViewChange } from '../../../contracts/index.ts';
import { versionFilePath } from './sqliteViewFiles.ts';
import { createSqliteViewStore } from './sqliteViewStore.ts';

const spec = (version: number): ProjectionSpec => ({
  name: 'items',
  version,
  collections: [
    {
      name: 'items',
      key: ['group', 'id'],
      fields: { group: 'text', id: 'text', seq: 'integer', data: 'json', updatedAt: 'text' },
      indexes: [{ fields: ['group', 'seq'] }, { fields: ['group', 'updatedAt'], readersOnly: true }],
    },
  ],
});

const docs: ViewChange[] = Array.from({ length: 40 }, (_, i) => ({
  op: 'upsert',
  collection: 'items',
  doc: { group: `g${i % 2}`, id: `i${String(i).padStart(2, '0')}`, seq: i % 5, data: { views: (i * 7) % 11 }, updatedAt: `u${i % 3}` },
}));

const byViews: readonly SortKey[] = [
  { ref: { field: 'data', path: ['views'], cast: 'float' }, direction: 'desc' },
  { ref: { field: 'id' }, direction: 'asc' },
];
const sortedQuery: FindQuery = { filter: { kind: 'compare', ref: { field: 'group' }, op: 'eq', value: 'g1' }, orderBy: byViews, limit: 10 };

test('sqlite completeVersion: deferred read indexes and the active sort indexes arrive on the new version', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'strata-view-complete-'));
  const file = join(dir, 'views.db');
  const store = createSqliteViewStore({ file });
  // Each version is in a file of its own (sqliteViewFiles.ts); `v_items_<version>_items` is in that of <version>.
  const inspect = (table: string): Database.Database => {
    const version = Number(/^v_items_(\d+)_items$/.exec(table)?.[1]);
    const db = new Database(versionFilePath(file, 'items', version) ?? file, { readonly: true });
    opened.push(db);
    return db;
  };
  const opened: Database.Database[] = [];
  // Our indexes of `table`, named after what follows the table name (the primary key's autoindex left out).
  const indexes = (table: string): string[] =>
    (inspect(table).prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? ORDER BY name").pluck().all(table) as string[])
      .filter((name) => name.startsWith(`${table}__`))
      .map((name) => name.slice(table.length));
  const analyzed = (table: string): boolean => {
    const db = inspect(table);
    const hasStats = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get() !== undefined;
    return hasStats && db.prepare('SELECT 1 FROM sqlite_stat1 WHERE tbl = ?').get(table) !== undefined;
  };
  try {
    // A first version becomes active at once: nothing is deferred.
    await store.ensureProjection(spec(1), { deferReadIndexes: true });
    assert.deepEqual(indexes('v_items_1_items'), ['__group__seq', '__group__updatedAt']);
    assert.ok(await store.applyBatch({ name: 'items', version: 1 }, null, 's:00000000000000000001', docs));
    await store.ensureIndex('items', 'items', { equal: ['group'], sort: byViews });
    const sortIndex = indexes('v_items_1_items').find((name) => name.startsWith('__sort_'));
    assert.ok(sortIndex !== undefined);

    await store.ensureProjection(spec(2), { deferReadIndexes: true });
    assert.deepEqual(indexes('v_items_2_items'), ['__group__seq'], 'only the readersOnly index waits for completeVersion');
    assert.ok(await store.applyBatch({ name: 'items', version: 2 }, null, 's:00000000000000000001', docs));
    assert.ok(!analyzed('v_items_2_items'));

    await store.completeVersion({ name: 'items', version: 2 });
    await store.completeVersion({ name: 'items', version: 2 });
    assert.deepEqual(indexes('v_items_2_items'), indexes('v_items_1_items'), 'same indexes, same names after the table name');
    assert.ok(analyzed('v_items_2_items'), 'statistics, as ensureIndex leaves them, so the planner picks the sort index');

    const before = await store.find('items', 'items', sortedQuery);
    await store.activate('items', 2);
    const plan = await store.explainFind('items', 'items', sortedQuery);
    assert.ok(
      plan.some((line) => line.includes(`v_items_2_items${sortIndex}`)),
      plan.join(' | '),
    );
    assert.ok(!plan.some((line) => line.includes('TEMP B-TREE')), plan.join(' | '));
    assert.deepEqual(await store.find('items', 'items', sortedQuery), before);
  } finally {
    for (const db of opened) db.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('sqlite completeVersion copies the active version statistics (same rows, same indexes) rather than analyzing; without them it analyzes', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'strata-view-complete-'));
  const file = join(dir, 'views.db');
  const store = createSqliteViewStore({ file });
  const fileOf = (version: number): string => versionFilePath(file, 'items', version) ?? file;
  const stats = (version: number): Record<string, string> => {
    const db = new Database(fileOf(version), { readonly: true });
    try {
      const rows = db
        .prepare<[string], { idx: string | null; stat: string }>('SELECT idx, stat FROM sqlite_stat1 WHERE tbl = ?')
        .all(`v_items_${version}_items`);
      return Object.fromEntries(rows.map((row) => [String(row.idx).replace(`v_items_${version}_items`, 'T'), row.stat]));
    } finally {
      db.close();
    }
  };
  try {
    await store.ensureProjection(spec(1));
    assert.ok(await store.applyBatch({ name: 'items', version: 1 }, null, 's:00000000000000000001', docs));
    await store.ensureIndex('items', 'items', { equal: ['group'], sort: byViews });
    // The active version's statistics, made up so that a copy is told from an ANALYZE of the same 40 rows.
    const writer = new Database(fileOf(1));
    writer.prepare("UPDATE sqlite_stat1 SET stat = '4000 2000 1' WHERE idx = 'v_items_1_items__group__seq'").run();
    writer.close();
    const active = stats(1);
    assert.equal(active['T__group__seq'], '4000 2000 1');

    await store.ensureProjection(spec(2), { deferReadIndexes: true });
    assert.ok(await store.applyBatch({ name: 'items', version: 2 }, null, 's:00000000000000000001', docs));
    await store.completeVersion({ name: 'items', version: 2 });
    assert.deepEqual(stats(2), active, 'every index of the new version has the statistics of its twin');

    // A version whose twin lacks statistics for one of its indexes is analyzed: the real figures for 40 rows.
    const reader = new Database(fileOf(2));
    reader.prepare("DELETE FROM sqlite_stat1 WHERE idx = 'v_items_2_items__group__updatedAt'").run();
    reader.close();
    await store.activate('items', 2);
    await store.ensureProjection(spec(3), { deferReadIndexes: true });
    assert.ok(await store.applyBatch({ name: 'items', version: 3 }, null, 's:00000000000000000001', docs));
    await store.completeVersion({ name: 'items', version: 3 });
    const analyzed = stats(3);
    assert.equal(analyzed['T__group__seq'], '40 20 4');
    assert.ok(analyzed['T__group__updatedAt'] !== undefined);
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
});
