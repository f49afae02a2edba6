import type Database from 'better-sqlite3';
import { createAfterCommitTasks } from './sqliteViewFiles.ts';

/** How long after a commit on a file its statistics are looked at (later commits meanwhile share that look). */
const STATISTICS_DELAY_MS = 5_000;
/**
 * How long after a commit the WAL checkpoint of a version file starts (commits meanwhile share it). Each checkpoint
 * fsyncs the WAL and the file: at 100 ms the seven version files a write touches were checkpointed several times a
 * second each under single-row creates, ~12 % of the server's CPU per create (paired A/B in bench/RESULTS.md).
 */
const CHECKPOINT_DELAY_MS = 1_000;
/** Commits that bring this many view changes since a file's last checkpoint have it checkpointed sooner. */
const CHECKPOINT_CHANGES = 2_000;
/** ... this much sooner (bulk writes and catch-ups keep the WAL as short as before). */
const BUSY_CHECKPOINT_DELAY_MS = 100;
/** A table is analyzed again once it holds this many times the rows its statistics say (or has none yet). */
const GROWTH = 4;
/** Tables smaller than this are left to the planner's defaults and the statistics made with their indexes. */
const MIN_ROWS = 1_000;

/**
 * Keeps the planner's statistics of view files current, off the event loop. Indexes are analyzed when they are made
 * (ViewStore.ensureIndex, completeVersion), often on a table still empty (the default order's index is ensured when
 * the server starts); once the table has grown those statistics lie, and at 200,000 rows SQLite then read page 1 of
 * a list by a range and a sort (75-160 ms) instead of the index (5 ms). So, at most every STATISTICS_DELAY_MS after
 * commits to a file (the store schedules it), its tables that grew GROWTH-fold since their statistics (rows estimated by `max(rowid)`, O(log
 * n)) are analyzed again in full through `run` (the index thread): `PRAGMA optimize` is not used, because it
 * samples (an analysis limit of 2,000 rows), which at 200,000 rows gave estimates as misleading as none.
 */
export async function refreshStatistics(db: Database.Database, run: (sql: string) => Promise<void>): Promise<readonly string[]> {
  const stale = staleTables(db);
  if (stale.length === 0) return stale;
  // New statistics reach other connections when they reload the schema, which ANALYZE alone does not make them do:
  // a table created and dropped in the same step changes the schema version.
  const analyze = stale.map((table) => `ANALYZE "${table.replaceAll('"', '""')}"`);
  await run([...analyze, RELOAD_STATISTICS].join('; '));
  return stale;
}

/**
 * Makes every connection to the file reload its schema, and with it the statistics, before its next statement:
 * SQLite reads sqlite_stat1 only when it loads the schema, and ANALYZE does not change the schema version. A
 * connection that loaded the schema between a CREATE INDEX and the ANALYZE after it otherwise plans with no
 * statistics for that index until the next schema change (seen: page 1 of a list read through a freshly made
 * `x-index` index and sorted, 1-5 s at 100,000-1,000,000 rows, instead of the default order's index, 3 ms).
 */
export const RELOAD_STATISTICS = 'CREATE TABLE strata_statistics_epoch (x); DROP TABLE strata_statistics_epoch';

/** The tables of `db` whose rows outgrew their statistics GROWTH-fold. */
function staleTables(db: Database.Database): string[] {
  if (!db.open) return [];
  const tables = db
    .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'strata_%'")
    .pluck()
    .all();
  const hasStats = db.prepare<[], number>("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'").pluck().get() !== undefined;
  const statRows = hasStats ? db.prepare<[string], string>('SELECT stat FROM sqlite_stat1 WHERE tbl = ? AND idx IS NOT NULL LIMIT 1').pluck() : null;
  const stale: string[] = [];
  for (const table of tables) {
    const rows =
      (db
        .prepare(`SELECT max(rowid) FROM "${table.replaceAll('"', '""')}"`)
        .pluck()
        .get() as number | null) ?? 0;
    if (rows < MIN_ROWS) continue;
    const known = Number((statRows?.get(table) ?? '0').split(' ')[0]);
    if (!(known > 0) || rows >= known * GROWTH) stale.push(table);
  }
  return stale;
}

type Log = { debug(obj: object, msg: string): void };

/**
 * Upkeep of view files after commits, on the index thread (`exec`), never on the event loop: the WAL checkpoint of a
 * version file (PASSIVE: it never waits for readers or writers), so the event loop's connections never copy and fsync
 * a WAL themselves (sqliteViewConnections.ts `checkpointElsewhere`), which under a rebuild's write volume took
 * seconds; and the refresh of the file's statistics (refreshStatistics).
 */
export function createOffLoopUpkeep(exec: (path: string, sql: string) => Promise<void>, log?: Log) {
  /** View changes committed to a file since its checkpoint last started. */
  const changesSince = new Map<string, number>();
  const checkpoints = createAfterCommitTasks<void>(
    CHECKPOINT_DELAY_MS,
    (path) => {
      changesSince.delete(path);
      return exec(path, 'PRAGMA wal_checkpoint(PASSIVE)');
    },
    (err, path) => log?.debug({ err, path }, 'view file checkpoint skipped'),
    BUSY_CHECKPOINT_DELAY_MS,
  );
  const statistics = createAfterCommitTasks<Database.Database>(
    STATISTICS_DELAY_MS,
    async (path, db) => {
      const tables = await refreshStatistics(db, (sql) => exec(path, sql));
      if (tables.length > 0) log?.debug({ path, tables }, 'view file statistics refreshed');
    },
    (err, path) => log?.debug({ err, path }, 'view file statistics not refreshed'),
  );
  return {
    /** After a commit of `changes` view changes to the connection's file. */
    afterCommit(connection: { readonly path: string; readonly file: string | null; readonly db: Database.Database }, changes: number): void {
      if (connection.file !== null) {
        const since = (changesSince.get(connection.path) ?? 0) + changes;
        changesSince.set(connection.path, since);
        checkpoints.afterCommit(connection.path, undefined, since >= CHECKPOINT_CHANGES);
      }
      statistics.afterCommit(connection.path, connection.db);
    },
  };
}
