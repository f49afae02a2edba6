// The SQLite view store's version files (projection-worker/adapters/sqlite/sqliteViewFiles.ts): a dropped version's
// file is deleted, the live version is read and written while another connection holds the shadow file's write lock,
// versions stored in views.db before version files keep working and are dropped with their space returned, and a
// store follows another process's switch and drop.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import type { ProjectionSpec, ViewChange } from '../../contracts/index.ts';
import { versionDir, versionFilePath } from '../../projection-worker/adapters/sqlite/sqliteViewFiles.ts';
import { createSqliteViewStore } from '../../projection-worker/adapters/sqlite/sqliteViewStore.ts';
import type { SqliteViewStore } from '../../projection-worker/adapters/sqlite/sqliteViewStore.ts';
import { createTableSql, tableInfo } from '../../projection-worker/adapters/sqlite/sqliteViewTable.ts';
import { pos, sleep } from './viewStoreFixtures.ts';

const NAME = 'docs';
const spec = (version: number): ProjectionSpec => ({
  name: NAME,
  version,
  collections: [{ name: 'docs', fields: { id: 'text', n: 'integer', body: 'text' }, key: ['id'], indexes: [{ fields: ['n'] }] }],
});
const ref = (version: number) => ({ name: NAME, version });
const docs = (from: number, count: number, body = 'x'.repeat(200)): ViewChange[] =>
  Array.from({ length: count }, (_, i) => ({ op: 'upsert', collection: 'docs', doc: { id: `d${from + i}`, n: from + i, body } }));

async function withDir(fn: (file: string, open: (threads?: boolean) => SqliteViewStore) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-view-files-'));
  const stores: SqliteViewStore[] = [];
  const file = join(dir, 'views.db');
  try {
    await fn(file, (threads = false) => {
      const store = createSqliteViewStore({ file, ...(threads ? { reads: { timeoutMs: 60_000, threads: 1 } } : {}) });
      stores.push(store);
      return store;
    });
  } finally {
    for (const store of stores) await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Bytes of the version files (with their WAL and shared memory) in the store's folder, each WAL copied back first. */
function folderBytes(file: string): number {
  const dir = versionDir(file);
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.db'))) {
    const db = new Database(join(dir, name));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
  }
  return readdirSync(dir).reduce((total, name) => total + statSync(join(dir, name)).size, 0);
}

/** Fills `version` with `count` documents in batches, as a rebuild does. */
async function fill(store: SqliteViewStore, version: number, count: number, from = 0): Promise<number> {
  let position = from;
  for (let i = 0; i < count; i += 500) {
    assert.ok(await store.applyBatch(ref(version), position === 0 ? null : pos(position), pos(position + 1), docs(i, Math.min(500, count - i))));
    position += 1;
  }
  return position;
}

test("a dropped version's file is deleted and the folder shrinks back to about the live size", () =>
  withDir(async (file, open) => {
    const store = open(true);
    await store.ensureProjection(spec(1));
    await fill(store, 1, 5_000);
    const liveBytes = folderBytes(file);
    const v1 = versionFilePath(file, NAME, 1);
    assert.ok(v1 !== null && v1 !== file && existsSync(v1), 'the first version is in a file of its own');

    await store.ensureProjection(spec(2), { deferReadIndexes: true });
    await fill(store, 2, 5_000);
    await store.completeVersion(ref(2));
    assert.equal(await store.count(NAME, 'docs'), 5_000, 'a read on the threads opens the live file');
    const both = folderBytes(file);
    assert.ok(both > liveBytes * 1.5, `two copies: ${both} bytes against ${liveBytes}`);
    await store.activate(NAME, 2);
    await store.dropVersion(ref(1));

    assert.ok(!existsSync(v1) && !existsSync(`${v1}-wal`) && !existsSync(`${v1}-shm`), 'the old file is gone');
    const after = folderBytes(file);
    assert.ok(after < liveBytes * 1.5, `back to about the live size: ${after} bytes against ${liveBytes}`);
    assert.equal(await store.count(NAME, 'docs'), 5_000);
    assert.equal((await store.get(NAME, 'docs', { id: 'd4999' }))?.n, 4999);
  }));

test("while another connection holds the shadow file's write lock, the live version is read and written, and the shadow batch waits for the lock instead of failing", () =>
  withDir(async (file, open) => {
    const store = open(true);
    await store.ensureProjection(spec(1));
    let live = await fill(store, 1, 1_000);
    await store.ensureProjection(spec(2), { deferReadIndexes: true });
    const shadowFile = versionFilePath(file, NAME, 2);
    assert.ok(shadowFile !== null && shadowFile !== versionFilePath(file, NAME, 1));

    // Another process's rebuild (or anything else) holding the shadow's write lock for a long time.
    const holder = new Database(shadowFile);
    holder.exec('BEGIN IMMEDIATE');
    let shadowDone = false;
    const shadowBatch = store.applyBatch(ref(2), null, pos(1), docs(0, 10)).finally(() => {
      shadowDone = true;
    });
    try {
      for (let i = 0; i < 20; i++) {
        assert.ok(await store.applyBatch(ref(1), pos(live), pos(live + 1), docs(1_000 + i, 1)));
        live += 1;
        assert.equal(await store.count(NAME, 'docs'), 1_001 + i);
        assert.equal((await store.get(NAME, 'docs', { id: `d${1_000 + i}` }))?.n, 1_000 + i);
        assert.equal((await store.find(NAME, 'docs', { filter: { kind: 'compare', ref: { field: 'n' }, op: 'gte', value: 1_000 } })).length, i + 1);
      }
      assert.equal(shadowDone, false, 'the shadow batch waits for the lock');
      assert.deepEqual(
        (await store.projectionStatuses()).map((s) => [s.version, s.error]),
        [
          [1, null],
          [2, null],
        ],
      );
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    assert.equal(await shadowBatch, true, 'applied once the lock is free');
    assert.equal(await store.checkpoint(ref(2)), pos(1));
  }));

/** A views.db as stores wrote it before version files: the meta without `file`, the version's table inside. */
function writeLegacyStore(file: string, rows: number): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(`
    CREATE TABLE strata_view_versions (
      name TEXT NOT NULL, version INTEGER NOT NULL, active INTEGER NOT NULL DEFAULT 0, position TEXT,
      updated_at INTEGER, error TEXT, spec TEXT NOT NULL, PRIMARY KEY (name, version));
    CREATE TABLE strata_view_leases (name TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at INTEGER NOT NULL);
    CREATE TABLE strata_view_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
    INSERT INTO strata_view_meta (key, value) VALUES ('generation', 1);`);
  const { collections } = spec(1);
  const info = tableInfo(NAME, 1, collections[0] as ProjectionSpec['collections'][number]);
  db.exec(createTableSql(info));
  db.prepare('INSERT INTO strata_view_versions (name, version, active, position, spec) VALUES (?, 1, 1, ?, ?)').run(
    NAME,
    pos(1),
    JSON.stringify({ name: NAME, version: 1, collections }),
  );
  const insert = db.prepare(`INSERT INTO ${info.table} (id, n, body) VALUES (?, ?, ?)`);
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(`d${i}`, i, 'y'.repeat(200));
  })();
  db.close();
}

test('a version stored in views.db before version files is read, written, rebuilt into a file and dropped with its space returned', () =>
  withDir(async (file, open) => {
    writeLegacyStore(file, 3_000);
    const store = open(true);
    assert.equal(versionFilePath(file, NAME, 1), file, 'the old version stays where it is');
    assert.equal(await store.count(NAME, 'docs'), 3_000);
    assert.ok(await store.applyBatch(ref(1), pos(1), pos(2), docs(3_000, 1)));
    assert.equal((await store.get(NAME, 'docs', { id: 'd3000' }))?.n, 3_000);
    assert.equal((await store.projectionStatuses())[0]?.position, pos(2));
    const legacyBytes = statSync(file).size;

    await store.ensureProjection(spec(2), { deferReadIndexes: true });
    assert.notEqual(versionFilePath(file, NAME, 2), file, 'a rebuild fills a file of its own');
    await fill(store, 2, 3_001);
    await store.completeVersion(ref(2));
    await store.activate(NAME, 2);
    await store.dropVersion(ref(1));
    assert.equal(await store.count(NAME, 'docs'), 3_001);
    const meta = new Database(file, { readonly: true });
    try {
      const tables = meta.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'v_*'").pluck().all();
      assert.deepEqual(tables, [], 'the old tables are dropped');
    } finally {
      meta.close();
    }
    assert.ok(statSync(file).size < legacyBytes / 4, `views.db vacuumed: ${statSync(file).size} bytes against ${legacyBytes}`);
  }));

test('a store follows a switch and a drop made by another store (another process) and reads the new file', () =>
  withDir(async (file, open) => {
    const server = open(true);
    const cli = open();
    await server.ensureProjection(spec(1));
    const live = await fill(server, 1, 600);
    assert.equal(await server.count(NAME, 'docs'), 600);
    assert.equal((await server.get(NAME, 'docs', { id: 'd1' }))?.n, 1);

    await cli.ensureProjection(spec(2), { deferReadIndexes: true });
    await fill(cli, 2, 700);
    await cli.completeVersion(ref(2));
    await cli.activate(NAME, 2);
    const old = versionFilePath(file, NAME, 1);
    await cli.dropVersion(ref(1));
    assert.ok(old !== null && !existsSync(old));

    assert.equal(await server.count(NAME, 'docs'), 700, 'the threads read the new file');
    assert.equal((await server.get(NAME, 'docs', { id: 'd650' }))?.n, 650);
    await assert.rejects(server.applyBatch(ref(1), pos(live), pos(live + 1), docs(0, 1)), /does not exist/);
    assert.ok(await server.applyBatch(ref(2), pos(2), pos(3), docs(700, 1)));
    assert.equal(await cli.count(NAME, 'docs'), 701);
    // The deleted file's space returns once no connection of this process (main thread or threads) has it open.
    if (process.platform === 'linux') {
      const holding = (): string[] =>
        readdirSync('/proc/self/fd').flatMap((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`).startsWith(old) ? [fd] : [];
          } catch {
            return [];
          }
        });
      for (let i = 0; i < 100 && holding().length > 0; i++) await sleep(20);
      assert.deepEqual(holding(), [], 'no connection keeps the deleted file open');
    }
  }));

test('a store deletes the files in its folder that no version names (a process died while creating one)', () =>
  withDir(async (file, open) => {
    const first = open();
    await first.ensureProjection(spec(1));
    await fill(first, 1, 10);
    const live = versionFilePath(file, NAME, 1);
    assert.ok(live !== null);
    const orphan = join(versionDir(file), 'docs.v2.deadbeef.db');
    writeFileSync(orphan, '');
    writeFileSync(`${orphan}-wal`, '');
    const second = open();
    assert.ok(!existsSync(orphan) && !existsSync(`${orphan}-wal`), 'the orphan is gone');
    assert.ok(existsSync(live), 'the named file stays');
    assert.equal(await second.count(NAME, 'docs'), 10);
  }));

test('a version whose file was deleted from outside comes back empty at ensureProjection and is replayed', () =>
  withDir(async (file, open) => {
    const first = open();
    await first.ensureProjection(spec(1));
    await fill(first, 1, 10);
    await first.close();
    rmSync(versionDir(file), { recursive: true, force: true });
    const second = open();
    await second.ensureProjection(spec(1));
    assert.equal(await second.checkpoint(ref(1)), null, 'no checkpoint: the runner replays the log');
    assert.equal(await second.count(NAME, 'docs'), 0);
    assert.ok(await second.applyBatch(ref(1), null, pos(1), docs(0, 3)));
    assert.equal(await second.count(NAME, 'docs'), 3);
  }));

test('with an index thread, version files are checkpointed there: the WAL is copied into the file while batches go on', () =>
  withDir(async (file, open) => {
    const store = open(true);
    await store.ensureProjection(spec(1));
    const path = versionFilePath(file, NAME, 1) as string;
    // ~6 MB of documents: far more than the 1,000-page WAL after which a connection would checkpoint by itself.
    await fill(store, 1, 20_000);
    for (let i = 0; i < 250 && statSync(path).size < 4_000_000; i++) await sleep(20);
    assert.ok(statSync(path).size >= 4_000_000, `the file holds the documents: ${statSync(path).size} bytes`);
    assert.equal(await store.count(NAME, 'docs'), 20_000);
  }));
