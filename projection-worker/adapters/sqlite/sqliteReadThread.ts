import Database from 'better-sqlite3';
import { availableParallelism, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { sqlCast } from './sqliteViewCast.ts';
import { createStatementCache } from './sqliteStatementCache.ts';
import { applyViewChanges } from './sqliteViewChanges.ts';
import { fileCheckpoint } from './sqliteViewFiles.ts';
import { createSqliteUpserts, type SqliteUpserts } from './sqliteViewUpserts.ts';
import type { TableInfo } from './sqliteViewTable.ts';
import type { ReadReply, ReadRequest, ReadThreadData, ThreadBatch } from './sqliteReadPool.ts';

/**
 * The body of a view store read thread: a connection per view file (views.db and the version files the requests
 * name, sqliteViewFiles.ts), which runs the statements the main thread built (sqliteReadPool.ts) and posts the raw
 * rows back. Reading connections are opened read-only; the index thread's connections write (CREATE INDEX, ANALYZE,
 * DROP TABLE) and wait for the write lock as long as the busy timeout. The main thread says when a file is dropped
 * (`forget`): its connection closes, so the deleted file's space is returned.
 */
const THREAD_NICENESS = 10;
const data = workerData as ReadThreadData;
// Writing threads build indexes (a table's first lists, a rebuilt version's sort indexes): where the process has a
// second core, SQLite's sorter takes one helper thread. A json-path sort index over 1,000,000 scale-bench rows built
// in 2.2-2.3 s with it against 2.8-3.6 s without; on one core the helper would only add ~10 %.
const SORTER_HELPERS = availableParallelism() > 1 ? 1 : 0;
// Lower priority than the event loop's thread (on Linux a priority set with pid 0 is the calling thread's): where the
// process has one core (a container limit, a pinned benchmark), requests the main thread answers at once — reads by
// id, writes, health probes — are not slowed by a long read sharing the core.
try {
  setPriority(data.niceness ?? THREAD_NICENESS);
} catch {
  // Not permitted on this platform: threads keep the process's priority.
}
// The statement running now; a statement past its budget is cancelled by the main thread writing its id here, and
// stops at its next call of a strata_* function (SQLite aborts a statement whose function throws). Statements that
// call none run to their end while the pool has set this thread aside (it is never terminated inside a statement).
const cancel = new Int32Array(data.cancel);
let current = 0;
function running(): void {
  if (Atomics.load(cancel, 0) === current) throw new Error('statement cancelled: past its time budget');
}

type Connection = {
  readonly db: Database.Database;
  readonly statements: ReturnType<typeof createStatementCache>;
  /** Writing connections: the upserts of `apply` and the tables they were prepared for (by table name). */
  upserts?: SqliteUpserts;
  tables?: Map<string, TableInfo>;
};
const connections = new Map<string, Connection>();

function open(file: string): Connection {
  let connection = connections.get(file);
  if (connection !== undefined) return connection;
  const db = new Database(file, { readonly: !data.writable, fileMustExist: true, timeout: data.busyTimeoutMs });
  db.pragma(`busy_timeout = ${data.busyTimeoutMs}`);
  // Each connection has its own page cache; a small one keeps the threads' memory bounded (the OS caches the file).
  db.pragma(`cache_size = -${data.cacheKiB ?? 16_384}`);
  // As the main thread's connections (openViewDatabase): views are rebuilt from the log, a commit needs no fsync.
  if (data.writable) db.pragma('synchronous = NORMAL');
  if (data.writable) db.pragma(`threads = ${SORTER_HELPERS}`);
  db.function('strata_cast', { deterministic: true }, (cast: unknown, value: unknown, type: unknown) => {
    running();
    return sqlCast(cast, value, type);
  });
  db.function('strata_lower', { deterministic: true }, (v: unknown) => {
    running();
    return typeof v === 'string' ? v.toLowerCase() : v;
  });
  connection = { db, statements: createStatementCache(db) };
  connections.set(file, connection);
  return connection;
}

function prepare(connection: Connection, sql: string): Database.Statement {
  return connection.statements.prepare(sql);
}

function run(request: ReadRequest): unknown {
  const connection = open(request.file);
  switch (request.mode) {
    case 'rows':
      return prepare(connection, request.sql).raw(true).all(request.params);
    case 'value':
      return prepare(connection, request.sql).pluck(true).get(request.params);
    case 'exec':
      connection.db.exec(request.sql);
      return null;
    case 'apply':
      return applyBatch(connection, request.batch as ThreadBatch);
  }
}

/** A batch and its checkpoint move in one transaction, as the main thread's apply group does (sqliteViewStore.ts). */
function applyBatch(connection: Connection, batch: ThreadBatch): boolean {
  const { db } = connection;
  connection.upserts ??= createSqliteUpserts(db);
  // Tables arrive as copies with every batch; the upserts' statements are kept per table object, so reuse the first.
  const known = (connection.tables ??= new Map());
  const tables = new Map<string, TableInfo>();
  for (const [collection, table] of batch.tables) {
    let kept = known.get(table.table);
    if (kept === undefined || kept.columns !== table.columns) known.set(table.table, (kept = table));
    tables.set(collection, kept);
  }
  const upserts = connection.upserts;
  const prepareOn = (sql: string) => prepare(connection, sql);
  return db
    .transaction(() => {
      if (!fileCheckpoint.move(db, batch.expected, batch.next, batch.now)) return false;
      applyViewChanges(prepareOn, upserts, tables, batch.ref, batch.changes);
      return true;
    })
    .immediate();
}

open(data.file);

const port = parentPort;
if (port === null) throw new Error('sqliteReadThread runs in a worker thread');
port.on('message', (request: ReadRequest | { readonly forget: string }) => {
  if ('forget' in request) {
    connections.get(request.forget)?.db.close();
    connections.delete(request.forget);
    return;
  }
  let reply: ReadReply;
  current = request.id;
  try {
    const result = run(request);
    // Cancelled while it ran (it called no strata_* function since): its caller is gone, drop the result.
    reply =
      Atomics.load(cancel, 0) === current
        ? { id: request.id, ok: false, message: 'statement cancelled: past its time budget', code: null }
        : { id: request.id, ok: true, result };
  } catch (err) {
    // Statements that opened a transaction (BEGIN ... COMMIT) and failed inside it leave the connection usable.
    const failed = connections.get(request.file);
    if (failed?.db.inTransaction === true) failed.db.exec('ROLLBACK');
    // A schema change from another connection invalidates cached statements; the next read prepares them again.
    failed?.statements.clear();
    const message = err instanceof Error ? err.message : String(err);
    const code = (err as { code?: unknown } | null)?.code;
    reply = { id: request.id, ok: false, message, code: typeof code === 'string' ? code : null };
  }
  port.postMessage(reply);
});
// Statements are handed out only to threads whose connection is open, so a budget never pays for a thread's start.
port.postMessage({ ready: true });
