import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { createSqliteThreads } from '../projection-worker/index.ts';
import { sqliteThreadSource } from './sqliteThreadSource.ts';

test('the bundled thread body runs as a plain script in a thread: statements with the strata_* functions, writes, no module hooks', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'strata-thread-source-'));
  const file = join(dir, 'views.db');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec("CREATE TABLE t (a TEXT); INSERT INTO t VALUES ('x')");
  const source = sqliteThreadSource();
  // One CommonJS script: nothing in it is loaded through hooks (no dynamic import of the TypeScript body).
  assert.doesNotMatch(source, /\bimport\s*\(/);
  const threads = createSqliteThreads({ file, threads: 1, budgetMs: 5_000, writable: true, source });
  try {
    assert.deepEqual(await threads.rows(file, 'SELECT a, strata_lower(:v) FROM t', { v: 'ÄB' }), [['x', 'äb']]);
    await threads.exec(file, "INSERT INTO t VALUES ('y')");
    assert.equal(db.prepare('SELECT count(*) FROM t').pluck().get(), 2);
    assert.equal(threads.available(), true);
  } finally {
    await threads.close();
    db.close();
    await rm(dir, { recursive: true, force: true });
  }
});
