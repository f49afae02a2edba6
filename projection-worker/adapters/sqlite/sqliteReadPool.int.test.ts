import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { isAppError } from '../../../contracts/index.ts';
import { createSqliteThreads } from './sqliteReadPool.ts';

/** A statement that runs for seconds on any machine and calls no JavaScript (nothing interrupts it early). */
const SLOW = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5000000) SELECT count(*) FROM c';
/** The same, ~0.5 s long on a quiet core: past a 100 ms budget and its grace (at 1,000,000 rows it ended within them: 112 ms), yet short enough to repeat. */
const SLOWISH = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 4000000) SELECT count(*) FROM c';

test('a statement past its budget fails with QUERY_TIMEOUT at the budget, the event loop runs meanwhile, a thread that cannot stop it is replaced', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'strata-read-pool-'));
  const file = join(dir, 'views.db');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec("CREATE TABLE t (a TEXT); INSERT INTO t VALUES ('x'), ('y')");
  const threads = createSqliteThreads({ file, threads: 1, budgetMs: 250, writable: false });
  try {
    // The first statement waits for the thread's start (not counted against the budget).
    assert.deepEqual(await threads.rows(file, 'SELECT a, strata_lower(:v) FROM t ORDER BY a', { v: 'ÄB' }), [
      ['x', 'äb'],
      ['y', 'äb'],
    ]);
    let ticks = 0;
    const ticking = setInterval(() => (ticks += 1), 10);
    const started = Date.now();
    const slow = threads.value(file, SLOW, {});
    // Queued behind the slow statement on the only thread: it shares the caller's budget and times out too.
    const queued = threads.value(file, 'SELECT 1', {});
    const [slowOutcome, queuedOutcome] = await Promise.allSettled([slow, queued]);
    const waited = Date.now() - started;
    clearInterval(ticking);
    for (const outcome of [slowOutcome, queuedOutcome]) {
      assert.equal(outcome.status, 'rejected');
      assert.ok(isAppError(outcome.reason, 'QUERY_TIMEOUT'), String(outcome.reason));
      assert.equal((outcome.reason as Error).message, 'The query ran longer than 250 ms');
    }
    assert.ok(waited >= 240 && waited < 2000, `answered after ${waited} ms`);
    assert.ok(ticks >= 5, `the event loop ran ${ticks} timers of 10 ms while the statement ran`);
    // It calls no JavaScript, so it cannot stop when cancelled: past the grace its thread is set aside to finish it.
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(threads.stats().abandoned, 1);
    // The abandoned thread still finishes its statement; a new one serves at once.
    assert.equal(await threads.value(file, 'SELECT count(*) FROM t', {}), 2);
  } finally {
    await threads.close();
    db.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('a thread set aside past the grace is never terminated inside its statement: it finishes it, drops the result and serves again', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'strata-read-pool-'));
  const file = join(dir, 'views.db');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const threads = createSqliteThreads({ file, threads: 1, budgetMs: 100, writable: false });
  try {
    assert.equal(await threads.value(file, 'SELECT 1', {}), 1);
    const exits: number[] = [];
    for (let round = 0; round < 3; round++) {
      const outcome = await Promise.allSettled([threads.value(file, SLOWISH, {})]);
      assert.ok(outcome[0].status === 'rejected' && isAppError(outcome[0].reason, 'QUERY_TIMEOUT'), String(outcome[0]));
      await new Promise((resolve) => setTimeout(resolve, 60));
      // Set aside (counted), a replacement serves meanwhile; the pool never holds more than `threads` aside.
      assert.equal(threads.stats().abandoned, 1);
      assert.equal(await threads.value(file, 'SELECT 2', {}), 2);
      // The set-aside thread ends its statement and is terminated idle (the pool is full): no thread is left aside.
      const deadline = Date.now() + 30_000;
      while (threads.stats().abandoned > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      exits.push(threads.stats().abandoned);
      assert.ok(threads.stats().live <= 1, JSON.stringify(threads.stats()));
    }
    assert.deepEqual(exits, [0, 0, 0]);
    assert.equal(await threads.value(file, 'SELECT 3', {}), 3);
  } finally {
    await threads.close();
    db.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('a statement past its budget that calls a strata_* function stops when cancelled: its thread serves on', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'strata-read-pool-'));
  const file = join(dir, 'views.db');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const threads = createSqliteThreads({ file, threads: 1, budgetMs: 200, writable: false });
  try {
    assert.equal(await threads.value(file, 'SELECT 1', {}), 1);
    // Seconds of work, each row through strata_lower (as case-insensitive filters do).
    const slow =
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50000000) SELECT count(*) FROM c WHERE strata_lower('A' || x) = 'b'";
    const started = Date.now();
    await assert.rejects(threads.value(file, slow, {}), (err: unknown) => isAppError(err, 'QUERY_TIMEOUT'));
    assert.ok(Date.now() - started < 1500, `answered after ${Date.now() - started} ms`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(threads.stats(), { live: 1, abandoned: 0, queued: 0 });
    assert.equal(await threads.value(file, 'SELECT 2', {}), 2);
    // The same thread answered: none was abandoned or started meanwhile.
    assert.deepEqual(threads.stats(), { live: 1, abandoned: 0, queued: 0 });
  } finally {
    await threads.close();
    db.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('errors of a statement reach the caller with their SQLite code; the thread keeps serving', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'strata-read-pool-'));
  const file = join(dir, 'views.db');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (a TEXT)');
  const threads = createSqliteThreads({ file, threads: 1, budgetMs: null, writable: false });
  try {
    await assert.rejects(threads.rows(file, 'SELECT * FROM missing', {}), /no such table: missing/);
    // Read-only connection: writes are refused.
    await assert.rejects(threads.exec(file, 'CREATE TABLE u (a)'), (err: unknown) => (err as { code?: string }).code === 'SQLITE_READONLY');
    db.exec("INSERT INTO t VALUES ('later')");
    assert.deepEqual(await threads.rows(file, 'SELECT a FROM t', {}), [['later']]);
  } finally {
    await threads.close();
    db.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('threads that cannot start are given up after three attempts: queued statements fail, the pool says it is unavailable', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'strata-read-pool-'));
  const file = join(dir, 'views.db');
  new Database(file).close();
  const source = 'throw new Error("no body here")';
  const threads = createSqliteThreads({ file, threads: 1, budgetMs: 60_000, writable: false, source });
  try {
    await assert.rejects(threads.value(file, 'SELECT 1', {}), /no body here/);
    assert.equal(threads.available(), false);
    assert.equal(threads.stats().live, 0);
    await assert.rejects(threads.value(file, 'SELECT 1', {}), /no body here/);
  } finally {
    await threads.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('a lazy pool ends its threads after idleMs idle and starts one again for the next statement', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'strata-read-pool-'));
  const file = join(dir, 'views.db');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec("CREATE TABLE t (a TEXT); INSERT INTO t VALUES ('x')");
  const threads = createSqliteThreads({ file, threads: 1, budgetMs: null, writable: false, lazy: true, idleMs: 150 });
  try {
    assert.equal(threads.stats().live, 0, 'no thread before the first statement');
    assert.equal(await threads.value(file, 'SELECT count(*) FROM t', {}), 1);
    assert.equal(threads.stats().live, 1);
    // Busy (statements keep coming within idleMs): the thread stays.
    for (let i = 0; i < 4; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 75));
      assert.equal(await threads.value(file, 'SELECT 1', {}), 1);
    }
    assert.equal(threads.stats().live, 1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.equal(threads.stats().live, 0, 'ended after idleMs idle');
    db.exec("INSERT INTO t VALUES ('y')");
    assert.equal(await threads.value(file, 'SELECT count(*) FROM t', {}), 2);
    assert.equal(threads.stats().live, 1);
    assert.equal(threads.available(), true);
  } finally {
    await threads.close();
    db.close();
    await rm(dir, { recursive: true, force: true });
  }
});
