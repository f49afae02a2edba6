import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { sqlitePosition } from '../../contracts/index.ts';
import type { Clock, ViewStore } from '../../contracts/index.ts';
import { createSqlBuilder } from '../../projection-worker/adapters/sqlite/sqliteViewSql.ts';
import { tableInfo } from '../../projection-worker/adapters/sqlite/sqliteViewTable.ts';
import { versionFilePath } from '../../projection-worker/adapters/sqlite/sqliteViewFiles.ts';
import { createSqliteViewStore } from '../../projection-worker/adapters/sqlite/sqliteViewStore.ts';
import { keyDoc, spec, v, viewStoreSharingContract } from './viewStoreSharingContract.ts';

/** Several stores (connections, as separate processes would have) on one file, each with its own clock. */
async function withFile(fn: (open: (clock?: Clock) => ViewStore, file: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-views-int-'));
  const file = join(dir, 'views.db');
  const stores: ViewStore[] = [];
  try {
    await fn((clock) => {
      const store = createSqliteViewStore(clock === undefined ? { file } : { file, clock });
      stores.push(store);
      return store;
    }, file);
  } finally {
    for (const store of stores) await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

viewStoreSharingContract('sqlite connections on one file', (fn) => withFile((open) => fn(open)));

test('storage: WAL, mapped table names, added fields, clashing names refused', () =>
  withFile(async (open, file) => {
    const store = open();
    await store.ensureProjection(spec(1));
    await store.applyBatch(v(1), null, sqlitePosition(1), [keyDoc({ id: 'k', owner: 'o' })]);
    await store.ensureProjection(spec(1, true));
    assert.deepEqual(await store.get('api-keys', 'keys', { id: 'k' }), { id: 'k', owner: 'o', uses: null, note: null });
    await assert.rejects(store.ensureProjection({ ...spec(1), name: 'api_keys' }), /clashes/);

    const versionFile = versionFilePath(file, 'api-keys', 1);
    assert.ok(versionFile !== null && versionFile !== file, 'a new version gets a file of its own');
    const db = new Database(versionFile, { readonly: true });
    try {
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'v_*'").pluck().all();
      assert.deepEqual(tables, ['v_api_keys_1_keys']);
    } finally {
      db.close();
    }
  }));

test('filters on indexed columns use the index', () =>
  withFile(async (open, file) => {
    const store = open();
    await store.ensureProjection(spec(1));
    const collection = spec(1).collections[0];
    assert.ok(collection);
    const info = tableInfo('api-keys', 1, collection);
    const b = createSqlBuilder(info);
    const where = b.where({
      kind: 'and',
      filters: [
        { kind: 'compare', ref: { field: 'owner' }, op: 'eq', value: 'u1' },
        { kind: 'compare', ref: { field: 'uses' }, op: 'gt', value: 3 },
      ],
    });
    const db = new Database(versionFilePath(file, 'api-keys', 1) ?? file, { readonly: true });
    try {
      const explain = db.prepare(`EXPLAIN QUERY PLAN SELECT * FROM ${info.table} WHERE ${where}`);
      const plan = explain.all(b.params) as { detail: string }[];
      assert.match(plan.map((p) => p.detail).join('\n'), /USING INDEX/);
    } finally {
      db.close();
    }
  }));
