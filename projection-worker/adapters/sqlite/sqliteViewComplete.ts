import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import type { ProjectionRef } from '../../../contracts/index.ts';
import { copiedSortIndexSql } from './sqliteViewIndex.ts';
import type { SqliteViewMeta } from './sqliteViewMeta.ts';
import { createIndexSqls, type TableInfo } from './sqliteViewTable.ts';
import { RELOAD_STATISTICS } from './sqliteViewStatistics.ts';
import { copiedStatisticsSql, hasTable, indexNamesMadeBy } from './sqliteViewStatsCopy.ts';

type StoredIndex = { readonly name: string; readonly sql: string | null };

/**
 * One DDL statement of completeVersion; a failing `carried` one (a copied sort index) is logged, not thrown. `label`
 * names it in the log line of the completion (the index's name, `statistics` or `analyze <table>`).
 */
type VersionDdl = { readonly sql: string; readonly carried: string | null; readonly label: string };

/**
 * ViewStore.completeVersion on SQLite: the declared indexes of the version (in `db`, its file), then the sort indexes
 * of the active version (in `activeDb`, the active version's file) copied onto it. Each CREATE INDEX is its own statement (SQLite builds it from one sort of the table), so
 * the write lock is released between them. Then ANALYZE of every table, as ensureIndex does after creating an
 * index: without statistics the planner does not pick the sort indexes. `exec` runs each statement: on the index
 * thread in the server (the builds take minutes at a million rows), on the connection itself elsewhere.
 */
export async function completeSqliteVersion(
  db: Database.Database,
  activeDb: Database.Database | null,
  meta: SqliteViewMeta,
  ref: ProjectionRef,
  exec: (sql: string) => void | Promise<void>,
  log?: Logger,
): Promise<void> {
  // Milliseconds per step (the rebuild's log line names them: at a million rows each sort index takes seconds).
  const took: Record<string, number> = {};
  const timed = async (label: string, sql: string) => {
    const started = performance.now();
    await exec(sql);
    took[label] = (took[label] ?? 0) + Math.round(performance.now() - started);
  };
  for (const step of versionDdl(db, activeDb, meta, ref)) {
    try {
      await timed(step.label, step.sql);
    } catch (err) {
      if (step.carried === null) throw err;
      // A later spec may lack a column the old sort used; the query side asks again on first use.
      log?.warn({ err, projection: ref.name, version: ref.version, index: step.carried }, 'sort index not carried over');
    }
  }
  // The fill's WAL (it can outgrow the usual 1,000 pages when checkpoints run on another thread than the writes)
  // is copied into the file and cut to nothing before readers switch to it.
  await timed('checkpoint', 'PRAGMA wal_checkpoint(TRUNCATE)');
  log?.info({ projection: ref.name, version: ref.version, stepsMs: took }, 'view version completed');
}

function versionDdl(db: Database.Database, activeDb: Database.Database | null, meta: SqliteViewMeta, ref: ProjectionRef): VersionDdl[] {
  const spec = meta.spec(ref.name, ref.version);
  const tables = meta.tables(ref.name, ref.version);
  if (spec === null || tables === null) throw new Error(`projection ${ref.name} v${ref.version} does not exist`);
  const steps: VersionDdl[] = [];
  for (const collection of spec.collections) {
    const info = tables.get(collection.name);
    if (info === undefined) continue;
    for (const { name, sql } of createIndexSqls(info, collection)) steps.push({ sql, carried: null, label: indexLabel(info, name) });
  }

  const active = meta.activeVersion(ref.name);
  const from = active === null || active === ref.version ? null : meta.tables(ref.name, active);
  if (from !== null && activeDb !== null) steps.push(...copiedSortIndexes(db, activeDb, tables, from));
  // Statistics of the filled tables before readers switch (the planner does not pick sort indexes without them, and
  // the statistics refresh would come only after commits to the new version), read by every connection opened since:
  // the active version's where it has them for every index (sqliteViewStatsCopy.ts), else an ANALYZE.
  const made = steps.map((step) => step.sql);
  const copies: string[] = [];
  for (const [collection, info] of tables) {
    const source = from?.get(collection);
    const name = info.table.slice(1, -1);
    const copy =
      source === undefined || activeDb === null
        ? null
        : copiedStatisticsSql(activeDb, source.table.slice(1, -1), name, [...existingIndexes(db, name), ...indexNamesMadeBy(made, name)]);
    if (copy === null) steps.push({ sql: `ANALYZE ${info.table}`, carried: null, label: `analyze ${collection}` });
    else copies.push(copy);
  }
  // The statistics tables exist once any ANALYZE ran in the file (here: of a one-row table of ours, if none has).
  // Written rows of sqlite_stat1 reach no connection's planner by themselves, not even the writing one's (the schema
  // change of RELOAD_STATISTICS does not make it reload): `ANALYZE sqlite_schema` loads them into it.
  if (copies.length > 0) {
    steps.push({ sql: [...statisticsTables(db), ...copies, 'ANALYZE sqlite_schema'].join('; '), carried: null, label: 'statistics' });
  }
  steps.push({ sql: RELOAD_STATISTICS, carried: null, label: 'statistics' });
  return steps;
}

/** `<collection>:<index>` for the index `name` on `info` (its name without the table's). */
function indexLabel(info: TableInfo, name: string): string {
  const table = info.table.slice(1, -1);
  return `${info.collection}:${name.startsWith(`${table}__`) ? name.slice(table.length + 2) : name}`;
}

/** An ANALYZE that makes SQLite create its statistics tables in `db`, if they are not there yet. */
function statisticsTables(db: Database.Database): string[] {
  if (hasTable(db, 'sqlite_stat1')) return [];
  return [hasTable(db, 'strata_view_checkpoint') ? 'ANALYZE strata_view_checkpoint' : 'ANALYZE strata_view_versions'];
}

/** The indexes `table` has in `db` now (its key's among them). */
function existingIndexes(db: Database.Database, table: string): string[] {
  return db.prepare<[string], string>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?").pluck().all(table);
}

/** The sort indexes of the active version (in `activeDb`) the version (in `db`) does not have yet. */
function copiedSortIndexes(
  db: Database.Database,
  activeDb: Database.Database,
  tables: ReadonlyMap<string, TableInfo>,
  from: ReadonlyMap<string, TableInfo>,
): VersionDdl[] {
  const steps: VersionDdl[] = [];
  const indexesOf = activeDb.prepare<[string], StoredIndex>("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?");
  const exists = db.prepare<[string], number>("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").pluck();
  for (const [collection, info] of tables) {
    const source = from.get(collection);
    if (source === undefined) continue;
    for (const stored of indexesOf.all(source.table.slice(1, -1))) {
      const copy = copiedSortIndexSql(source, info, stored);
      if (copy === null || exists.get(copy.name) !== undefined) continue;
      steps.push({ sql: copy.sql, carried: stored.name, label: indexLabel(info, copy.name) });
    }
  }
  return steps;
}
