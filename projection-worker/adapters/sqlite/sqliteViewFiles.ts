import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import Database from 'better-sqlite3';
import type { Position } from '../../../contracts/index.ts';
import { sqlCast } from './sqliteViewCast.ts';

/**
 * The files of a SQLite view store. views.db holds the meta (versions, the active one, leases, and the file of each
 * version); each projection version created since holds its collections in a file of its own,
 * `<dir>/<stem>/<projection>.v<version>.<random>.db` (views.db: `DATA_DIR/views/`), with that version's checkpoint
 * in the same file so that a batch and its checkpoint commit in one transaction. A rebuild fills its shadow file
 * without ever taking the live file's write lock; dropping a version deletes its file, so its space returns at once.
 * Versions created before this layout keep their tables in views.db (meta `file` NULL).
 */

/** How long a connection of the event loop's thread waits for another connection's write lock before SQLITE_BUSY. */
export const BUSY_WAIT_MS = 50;

/** The folder of the version files of the view store at `file` (views.db: `views/` beside it). */
export function versionDir(file: string): string {
  const ext = extname(file);
  const stem = ext === '' ? `${basename(file)}.d` : basename(file, ext);
  return join(dirname(file), stem);
}

/** A new, unused file name for a version (the random part keeps a reused version number from meeting an old file). */
export function versionFileName(projection: string, version: number): string {
  return `${projection}.v${version}.${randomBytes(4).toString('hex')}.db`;
}

/** Opens a view database with the store's settings and SQL functions. */
export function openViewDatabase(
  path: string,
  options: { readonly cacheKiB: number; readonly busyMs: number; readonly mustExist?: boolean },
): Database.Database {
  const db = new Database(path, { timeout: options.busyMs, fileMustExist: options.mustExist === true });
  try {
    db.pragma(`busy_timeout = ${options.busyMs}`);
    db.pragma('journal_mode = WAL');
    // Views can be rebuilt from the log and each checkpoint commits with its view changes, so losing the last
    // transactions on power loss only makes a projection replay them: NORMAL (no fsync per commit) is enough.
    db.pragma('synchronous = NORMAL');
    // A WAL that grew while a rebuild wrote faster than checkpoints copied it back is cut to 64 MiB when it restarts,
    // instead of keeping its largest size on disk.
    db.pragma('journal_size_limit = 67108864');
    // A page cache (allocated as used) per connection: with the 2 MiB default, batches into a view larger than the
    // cache re-read index pages from the OS on every commit (measured +20-40 % upserts/s in bench/viewStoreBench.ts).
    db.pragma(`cache_size = -${Math.max(1024, Math.floor(options.cacheKiB))}`);
    db.function('strata_cast', { deterministic: true }, sqlCast);
    // SQLite's lower() folds ASCII only; `insensitive` json tests compare Unicode lower-case forms.
    db.function('strata_lower', { deterministic: true }, (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v));
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

const VERSION_FILE_SUFFIXES = ['', '-wal', '-shm', '-journal'];

/** Deletes a version file and its WAL and shared-memory files (connections still open keep reading what they had). */
export function deleteVersionFile(path: string): void {
  for (const suffix of VERSION_FILE_SUFFIXES) rmSync(`${path}${suffix}`, { force: true });
}

/**
 * deleteVersionFile off the event loop (libuv's thread pool): unlinking a 720 MB version file (a rebuilt
 * 1,000,000-row `rows`) took 160 ms on this machine's ext4 (mounted with `discard`), which every request waited for.
 */
export async function deleteVersionFileOffLoop(path: string): Promise<void> {
  await Promise.all(VERSION_FILE_SUFFIXES.map((suffix) => rm(`${path}${suffix}`, { force: true })));
}

/**
 * Deletes the files in `dir` that no version names (`named`): left by a process that died between creating a
 * version's file and committing the meta row naming it, or by a views.db deleted without its folder. Call under the
 * meta's write lock: files are only created under it, so every file of a version being created is named by then.
 */
export function sweepVersionFiles(dir: string, named: ReadonlySet<string>): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const orphans = new Set(names.map((name) => name.replace(/-(wal|shm|journal)$/, '')).filter((name) => name.endsWith('.db') && !named.has(name)));
  for (const name of orphans) deleteVersionFile(join(dir, name));
  return [...orphans];
}

export function ensureVersionDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
}

const CHECKPOINT_SCHEMA = `
CREATE TABLE IF NOT EXISTS strata_view_checkpoint (
  id INTEGER PRIMARY KEY CHECK (id = 1), position TEXT, updated_at INTEGER, error TEXT);
INSERT OR IGNORE INTO strata_view_checkpoint (id) VALUES (1);`;

export type FileCheckpoint = {
  readonly position: Position | null;
  readonly updatedAt: number | null;
  readonly error: string | null;
};

type CheckpointStatements = {
  readonly get: Database.Statement<[], { position: string | null; updated_at: number | null; error: string | null }>;
  readonly move: Database.Statement;
  readonly error: Database.Statement;
};

const checkpointStatements = new WeakMap<Database.Database, CheckpointStatements>();

function statementsOf(db: Database.Database): CheckpointStatements {
  let statements = checkpointStatements.get(db);
  if (statements === undefined) {
    statements = {
      get: db.prepare('SELECT position, updated_at, error FROM strata_view_checkpoint WHERE id = 1'),
      move: db.prepare('UPDATE strata_view_checkpoint SET position = @next, updated_at = @now, error = NULL WHERE id = 1 AND position IS @expected'),
      error: db.prepare('UPDATE strata_view_checkpoint SET error = ? WHERE id = 1'),
    };
    checkpointStatements.set(db, statements);
  }
  return statements;
}

/** The checkpoint of the version a file holds (in the file itself, committed with the batch it belongs to). */
export const fileCheckpoint = {
  create: (db: Database.Database): void => void db.exec(CHECKPOINT_SCHEMA),
  get(db: Database.Database): FileCheckpoint {
    const row = statementsOf(db).get.get();
    return { position: (row?.position ?? null) as Position | null, updatedAt: row?.updated_at ?? null, error: row?.error ?? null };
  },
  /** Compare-and-set inside the caller's transaction; false on a mismatch. */
  move: (db: Database.Database, expected: Position | null, next: Position, now: number): boolean =>
    statementsOf(db).move.run({ expected, next, now }).changes === 1,
  recordError: (db: Database.Database, message: string | null): void => void statementsOf(db).error.run(message),
};

/** SQLite's busy and locked errors: another connection holds the lock; the operation can be tried again. */
export function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || (typeof code === 'string' && code.startsWith('SQLITE_BUSY_'))) return true;
  return err instanceof Error && /database (table )?is locked/.test(err.message);
}

/** The longest a write of the store keeps retrying a lock held by another connection. */
const BUSY_RETRY_LIMIT_MS = 120_000;

/**
 * Runs a write, and while it meets another connection's lock (SQLITE_BUSY after the short BUSY_WAIT_MS), runs it
 * again after an asynchronous backoff: the event loop never sleeps in SQLite's busy handler for long.
 */
export async function retryBusy<T>(write: () => T): Promise<T> {
  const started = Date.now();
  for (let delay = 5; ; delay = Math.min(delay * 2, 250)) {
    try {
      return write();
    } catch (err) {
      if (!isBusy(err) || Date.now() - started > BUSY_RETRY_LIMIT_MS) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/** retryBusy for a write that runs elsewhere (a thread): tried again while it fails with SQLITE_BUSY. */
export async function retryBusyAsync<T>(write: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (let delay = 5; ; delay = Math.min(delay * 2, 250)) {
    try {
      return await write();
    } catch (err) {
      if (!isBusy(err) || Date.now() - started > BUSY_RETRY_LIMIT_MS) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/**
 * The path of the file holding a version of the view store at `storeFile` (read from its meta), or `storeFile`
 * itself for a version stored before version files; null when the version does not exist. For tools and tests.
 */
export function versionFilePath(storeFile: string, projection: string, version: number): string | null {
  const db = new Database(storeFile, { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare<[string, number], { file: string | null }>('SELECT file FROM strata_view_versions WHERE name = ? AND version = ?')
      .get(projection, version);
    if (row === undefined) return null;
    return row.file === null ? storeFile : join(versionDir(storeFile), row.file);
  } finally {
    db.close();
  }
}

/**
 * A task per view file run `delayMs` after a commit on it (`soonMs` when the commit asks for `soon`: a pending later
 * run is brought forward), at most one pending per file (commits meanwhile share it), never keeping the process
 * alive; a failure is passed to `onError`. The store schedules its off-loop WAL checkpoints and statistics refreshes
 * this way.
 */
export function createAfterCommitTasks<C>(
  delayMs: number,
  task: (path: string, context: C) => Promise<unknown>,
  onError: (err: unknown, path: string) => void,
  soonMs = delayMs,
) {
  /** Per file: the timer of its pending run (null once it runs) and whether it is the soon one. */
  const pending = new Map<string, { timer: NodeJS.Timeout | null; soon: boolean }>();
  return {
    afterCommit(path: string, context: C, soon = false): void {
      const scheduled = pending.get(path);
      if (scheduled !== undefined && (scheduled.timer === null || scheduled.soon || !soon)) return;
      if (scheduled?.timer) clearTimeout(scheduled.timer);
      const run = { timer: null as NodeJS.Timeout | null, soon };
      pending.set(path, run);
      run.timer = setTimeout(
        () => {
          run.timer = null;
          Promise.resolve()
            .then(() => task(path, context))
            .catch((err: unknown) => onError(err, path))
            .finally(() => pending.delete(path));
        },
        soon ? soonMs : delayMs,
      ).unref();
    },
  };
}
