import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { sqlitePosition } from '../../contracts/index.ts';
import type { Clock, ProjectionSpec, ViewChange, ViewDoc, ViewStore } from '../../contracts/index.ts';
import { createSqlBuilder } from './sqliteViewSql.ts';
import { tableInfo } from './sqliteViewTable.ts';
import { createSqliteViewStore } from './sqliteViewStore.ts';

const spec = (version: number, extraField = false): ProjectionSpec => ({
  name: 'api-keys',
  version,
  collections: [
    {
      name: 'keys',
      fields: { id: 'text', owner: 'text', uses: 'integer', ...(extraField ? { note: 'text' as const } : {}) },
      key: ['id'],
      indexes: [{ fields: ['owner'] }],
    },
  ],
});
const v = (version: number) => ({ name: 'api-keys', version });
const keyDoc = (doc: ViewDoc): ViewChange => ({ op: 'upsert', collection: 'keys', doc });

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

function manualClock(start: number): Clock & { advance(ms: number): void } {
  let now = start;
  return { now: () => now, advance: (ms) => void (now += ms) };
}

test('two connections never both hold a lease; expiry follows the injected clock', () =>
  withFile(async (open) => {
    const clock = manualClock(1_000_000);
    const a = open(clock);
    const b = open(clock);
    assert.equal(await a.acquireLease('rows', 'A', 1000), true);
    assert.equal(await b.acquireLease('rows', 'B', 1000), false);
    clock.advance(999);
    assert.equal(await b.acquireLease('rows', 'B', 1000), false);
    assert.equal(await a.acquireLease('rows', 'A', 1000), true, 'renewal extends the lease to 1_001_999');
    clock.advance(999);
    assert.equal(await b.acquireLease('rows', 'B', 1000), false);
    clock.advance(1);
    assert.equal(await b.acquireLease('rows', 'B', 1000), true);
    assert.equal(await a.acquireLease('rows', 'A', 1000), false);
  }));

test('checkpoint compare-and-set across connections lets one batch win', () =>
  withFile(async (open) => {
    const clock = manualClock(5_000);
    const a = open(clock);
    const b = open(clock);
    await a.ensureProjection(spec(1));
    await b.ensureProjection(spec(1));
    const results = await Promise.all([
      a.applyBatch(v(1), null, sqlitePosition(1), [keyDoc({ id: 'from-a', owner: 'u', uses: 0 })]),
      b.applyBatch(v(1), null, sqlitePosition(1), [keyDoc({ id: 'from-b', owner: 'u', uses: 0 })]),
    ]);
    assert.deepEqual([...results].sort(), [false, true]);
    assert.equal(await a.count('api-keys', 'keys'), 1);
    assert.equal(await b.count('api-keys', 'keys'), 1);
    const [status] = await b.projectionStatuses();
    assert.equal(status?.updatedAt, 5_000);
  }));

test('a reader in another connection follows activate and dropVersion', () =>
  withFile(async (open) => {
    const writer = open();
    const reader = open();
    await writer.ensureProjection(spec(1));
    await writer.applyBatch(v(1), null, sqlitePosition(1), [keyDoc({ id: 'k', owner: 'old' })]);
    assert.equal((await reader.get('api-keys', 'keys', { id: 'k' }))?.owner, 'old');
    assert.equal(await reader.activeVersion('api-keys'), 1);

    await writer.ensureProjection(spec(2, true));
    await writer.applyBatch(v(2), null, sqlitePosition(1), [keyDoc({ id: 'k', owner: 'new', note: 'n' })]);
    assert.equal((await reader.get('api-keys', 'keys', { id: 'k' }))?.owner, 'old');
    await writer.activate('api-keys', 2);
    await writer.dropVersion(v(1));
    assert.deepEqual(await reader.get('api-keys', 'keys', { id: 'k' }), { id: 'k', owner: 'new', uses: null, note: 'n' });
    assert.equal(await reader.activeVersion('api-keys'), 2);
    assert.deepEqual((await reader.projectionStatuses()).map((s) => s.version), [2]);
  }));

test('storage: WAL, mapped table names, added fields, clashing names refused', () =>
  withFile(async (open, file) => {
    const store = open();
    await store.ensureProjection(spec(1));
    await store.applyBatch(v(1), null, sqlitePosition(1), [keyDoc({ id: 'k', owner: 'o' })]);
    await store.ensureProjection(spec(1, true));
    assert.deepEqual(await store.get('api-keys', 'keys', { id: 'k' }), { id: 'k', owner: 'o', uses: null, note: null });
    await assert.rejects(store.ensureProjection({ ...spec(1), name: 'api_keys' }), /clashes/);

    const db = new Database(file, { readonly: true });
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
    const db = new Database(file, { readonly: true });
    try {
      const explain = db.prepare(`EXPLAIN QUERY PLAN SELECT * FROM ${info.table} WHERE ${where}`);
      const plan = explain.all(b.params) as { detail: string }[];
      assert.match(plan.map((p) => p.detail).join('\n'), /USING INDEX/);
    } finally {
      db.close();
    }
  }));
