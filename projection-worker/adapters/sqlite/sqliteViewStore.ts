import Database from 'better-sqlite3';
import type { Logger } from 'pino';
import { createBoundedCache, systemClock } from '../../../contracts/index.ts';
import type {
  Clock,
  Filter,
  FindQuery,
  ProjectionRef,
  ProjectionSpec,
  ProjectionStatus,
  Scalar,
  VersionedRead,
  ViewDoc,
  ViewStore,
} from '../../../contracts/index.ts';
import { createApplyGroup } from './sqliteApplyGroup.ts';
import { applyViewChanges } from './sqliteViewChanges.ts';
import { sqlCast } from './sqliteViewCast.ts';
import { createSqlBuilder } from './sqliteViewSql.ts';
import type { Params } from './sqliteViewSql.ts';
import { fromColumn } from './sqliteViewTable.ts';
import type { TableInfo } from './sqliteViewTable.ts';
import { createSqliteViewMeta } from './sqliteViewMeta.ts';
import { sortIndexSql } from './sqliteViewIndex.ts';
import { completeSqliteVersion } from './sqliteViewComplete.ts';
import { createSqliteUpserts } from './sqliteViewUpserts.ts';
import { byIdSql, layeredCountSql, layeredSelectSql, nonNegative, topRow } from './sqliteViewLayers.ts';
import { createSqliteThreads, type SqliteReadOptions } from './sqliteReadPool.ts';
import { pinnedIdentity } from '../layeredRead.ts';

type Row = readonly unknown[];

/** A read by id that found nothing visible. */
const NONE = Symbol('none');

/** Prepared statements kept per connection: entries, and bytes (each counted as 2 KiB plus 4 bytes per SQL character). */
const STATEMENTS_CACHE = { maxEntries: 1_000, maxBytes: 16 * 1024 * 1024 };

/** The SQLite view store: the ViewStore port plus a look at how SQLite runs a find (for index tests and tuning). */
export type SqliteViewStore = ViewStore & {
  /** The `EXPLAIN QUERY PLAN` lines (`detail` column) of the statement `find` runs for `query`. */
  explainFind(projection: string, collection: string, query: FindQuery): Promise<string[]>;
};

/**
 * ViewStore on an embedded SQLite file: one table per (projection, version, collection), checkpoints and leases
 * in meta tables. Several processes may share the file (WAL, busy timeout; every check-and-set is one statement
 * or one BEGIN IMMEDIATE transaction). With `reads`, finds and counts (all but reads by key or by id) run on
 * read-only connections in worker threads under a time budget, and index builds on a connection of their own
 * thread; the writes of this store wait for an index build of this process instead of meeting its lock.
 */
export function createSqliteViewStore(options: {
  file: string;
  log?: Logger;
  clock?: Clock;
  /** Page cache ceiling in KiB (default 65,536: 64 MiB); a store read only by key needs less. */
  cacheKiB?: number;
  reads?: SqliteReadOptions;
}): SqliteViewStore {
  const clock = options.clock ?? systemClock;
  const log = options.log;
  const db = new Database(options.file, { timeout: 5000 });
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  // Views can be rebuilt from the log and each checkpoint commits with its view changes, so losing the last
  // transactions on power loss only makes a projection replay them: NORMAL (no fsync per commit) is enough.
  db.pragma('synchronous = NORMAL');
  // Up to 64 MiB of page cache (allocated as used): with the 2 MiB default, batches into a view larger than the
  // cache re-read index pages from the OS on every commit (measured +20-40 % upserts/s in bench/viewStoreBench.ts).
  db.pragma(`cache_size = -${Math.max(1024, Math.floor(options.cacheKiB ?? 65_536))}`);
  db.function('strata_cast', { deterministic: true }, sqlCast);
  // SQLite's lower() folds ASCII only; `insensitive` json tests compare Unicode lower-case forms.
  db.function('strata_lower', { deterministic: true }, (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v));
  const meta = createSqliteViewMeta(db, clock);
  log?.debug({ file: options.file }, 'view store opened');

  const statements = createBoundedCache<string, Database.Statement>(STATEMENTS_CACHE);
  const upserts = createSqliteUpserts(db);
  const offLoop = options.reads !== undefined && options.file !== ':memory:';
  const threadOptions = { file: options.file, preload: options.reads?.preload ?? [], ...(log === undefined ? {} : { log }) };
  const readThreads = !offLoop
    ? null
    : createSqliteThreads({ ...threadOptions, threads: options.reads?.threads ?? 2, budgetMs: options.reads?.timeoutMs ?? null, writable: false });
  const threadedProjections = options.reads?.projections === undefined ? null : new Set(options.reads.projections);
  const indexThread = !offLoop ? null : createSqliteThreads({ ...threadOptions, threads: 1, budgetMs: null, writable: true, lazy: true });
  // Index builds of this process in flight: this connection's writes wait for them rather than for their lock.
  let building = 0;
  let built: Promise<unknown> = Promise.resolve();
  async function afterIndexBuilds(): Promise<void> {
    while (building > 0) await built.catch(() => undefined);
  }
  function buildIndex(sql: string): Promise<void> {
    building += 1;
    const run = (indexThread as NonNullable<typeof indexThread>).exec(sql).finally(() => {
      building -= 1;
    });
    built = Promise.allSettled([built, run]);
    return run;
  }

  function prepare(sql: string): Database.Statement {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      statements.set(sql, statement, 2048 + 3 * sql.length);
    }
    return statement;
  }

  // Index statements already run on this connection (a version switch or drop forgets them).
  const ensuredIndexes = new Set<string>();
  meta.onInvalidate(() => {
    statements.clear();
    ensuredIndexes.clear();
  });

  function writeTables(ref: ProjectionRef): ReadonlyMap<string, TableInfo> {
    const tables = meta.tables(ref.name, ref.version);
    if (tables === null) throw new Error(`projection ${ref.name} v${ref.version} does not exist`);
    return tables;
  }

  const applies = createApplyGroup(
    db,
    (ref, expected, next, changes) => {
      if (!meta.moveCheckpoint(ref, expected, next)) return false;
      applyViewChanges(prepare, upserts, writeTables(ref), ref, changes);
      return true;
    },
    () => meta.refresh(),
  );

  function decode(table: TableInfo, row: Row): ViewDoc {
    const doc: Record<string, unknown> = {};
    for (let i = 0; i < table.fields.length; i++) {
      const [name, type] = table.fields[i] as TableInfo['fields'][number];
      doc[name] = fromColumn(type, row[i]);
    }
    return doc;
  }

  /** Runs a read on the active version; retries once when another process switched versions meanwhile. */
  async function read<T>(projection: string, collection: string, empty: T, run: (table: TableInfo) => T | Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        const version = meta.activeVersion(projection, 'shared');
        if (version === null) return empty;
        const table = meta.tables(projection, version, 'shared')?.get(collection);
        if (table === undefined) throw new Error(`projection ${projection} has no collection "${collection}"`);
        return await run(table);
      } catch (err) {
        if (attempt > 0 || !(err instanceof Error) || !/no such table|has no collection/.test(err.message)) throw err;
        log?.debug({ projection, collection }, 'view version changed during read, retrying');
        meta.invalidate();
      }
    }
  }

  function selectSql(table: TableInfo, query: FindQuery): { sql: string; params: Params } {
    if (query.versions !== undefined) return layeredSelectSql(table, { ...query, versions: query.versions });
    const b = createSqlBuilder(table);
    let sql = `SELECT ${table.columns} FROM ${table.table} WHERE ${b.where(query.filter ?? { kind: 'all' })}`;
    if (query.orderBy !== undefined && query.orderBy.length > 0) sql += ` ORDER BY ${b.orderBy(query.orderBy)}`;
    if (query.limit !== undefined || query.offset !== undefined) {
      sql += ` LIMIT ${b.param(nonNegative(query.limit, -1))} OFFSET ${b.param(nonNegative(query.offset, 0))}`;
    }
    return { sql, params: b.params };
  }

  /** Whether a read of `projection` runs on this thread (no threads, or not a projection of theirs). */
  function onThisThread(projection: string): boolean {
    return readThreads === null || !readThreads.available() || (threadedProjections !== null && !threadedProjections.has(projection));
  }

  /**
   * A find; reads by id (every identity field pinned: a probe of the key) and by key (`onLoop`) stay on this thread,
   * others go to the read threads if the projection has them.
   */
  async function select(projection: string, table: TableInfo, query: FindQuery, onLoop = false): Promise<ViewDoc[]> {
    const byId = query.versions === undefined ? null : readById(table, query.filter, query.versions);
    if (byId !== null) return byId === NONE || (query.offset ?? 0) > 0 || query.limit === 0 ? [] : [byId];
    const { sql, params } = selectSql(table, query);
    const pinned = query.versions !== undefined && pinnedIdentity(query.filter, query.versions.identity) !== null;
    const threads = onLoop || pinned || onThisThread(projection) ? null : readThreads;
    const rows = (threads === null ? prepare(sql).raw(true).all(params) : await threads.rows(sql, params)) as Row[];
    return rows.map((row) => decode(table, row));
  }

  async function countOf(projection: string, sql: string, params: Params): Promise<number> {
    if (readThreads === null || onThisThread(projection)) return prepare(sql).pluck(true).get(params) as number;
    return (await readThreads.value(sql, params)) as number;
  }

  /** A layered read by id (sqliteViewLayers.ts `byIdSql`): the visible document, NONE, or null when not by id. */
  function readById(table: TableInfo, filter: Filter | undefined, versions: VersionedRead): ViewDoc | typeof NONE | null {
    const byId = byIdSql(table, filter, versions);
    if (byId === null) return null;
    const row = topRow(table, prepare(byId.sql).raw(true).all(byId.params) as Row[], versions.layers);
    return row === null ? NONE : decode(table, row);
  }

  return {
    backend: 'sqlite',
    ensureProjection: async (spec: ProjectionSpec, ensureOptions) => {
      await afterIndexBuilds();
      return meta.ensure(spec, ensureOptions?.deferReadIndexes === true);
    },
    completeVersion: async (ref) => {
      await afterIndexBuilds();
      const exec = indexThread === null || !indexThread.available() ? (sql: string) => void db.exec(sql) : buildIndex;
      return completeSqliteVersion(db, meta, ref, exec, log);
    },
    applyBatch: async (ref, expected, next, changes) => {
      await afterIndexBuilds();
      return applies.apply(ref, expected, next, changes);
    },
    checkpoint: async (ref) => meta.checkpoint(ref),
    recordError: async (ref, message) => {
      await afterIndexBuilds();
      return meta.recordError(ref, message);
    },
    acquireLease: async (name, owner, ttlMs) => {
      await afterIndexBuilds();
      return meta.acquireLease(name, owner, ttlMs);
    },
    releaseLease: async (name, owner) => {
      await afterIndexBuilds();
      return meta.releaseLease(name, owner);
    },
    activeVersion: async (name) => meta.activeVersion(name, 'shared'),
    activate: async (name, version) => {
      await afterIndexBuilds();
      return meta.activate(name, version);
    },
    dropVersion: async (ref) => {
      await afterIndexBuilds();
      return meta.dropVersion(ref);
    },
    projectionStatuses: async (): Promise<ProjectionStatus[]> => meta.statuses(),
    get: async (projection: string, collection: string, key: Readonly<Record<string, Scalar>>) =>
      read(projection, collection, null, async (table) => {
        for (const name of table.key) {
          if (!Object.hasOwn(key, name)) throw new Error(`${collection}: key field "${name}" is missing`);
        }
        const filter: Filter = { kind: 'and', filters: table.key.map((name) => keyFilter(name, key[name] ?? null)) };
        return (await select(projection, table, { filter, limit: 1 }, true))[0] ?? null;
      }),
    find: async (projection, collection, query = {}) => read(projection, collection, [], (table) => select(projection, table, query)),
    count: async (projection, collection, filter = { kind: 'all' }, versions) =>
      read(projection, collection, 0, (table) => {
        if (versions !== undefined) {
          const byId = readById(table, filter, versions);
          if (byId !== null) return byId === NONE ? 0 : 1;
          const { sql, params } = layeredCountSql(table, filter, versions);
          return countOf(projection, sql, params);
        }
        const b = createSqlBuilder(table);
        return countOf(projection, `SELECT COUNT(*) FROM ${table.table} WHERE ${b.where(filter)}`, b.params);
      }),
    explainFind: async (projection, collection, query) =>
      read(projection, collection, [], (table) => {
        const { sql, params } = selectSql(table, query);
        return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((row) => row.detail);
      }),
    ensureIndex: async (projection, collection, index) =>
      read(projection, collection, undefined, async (table) => {
        const { name, sql } = sortIndexSql(table, index);
        if (ensuredIndexes.has(sql)) return;
        const existed = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(name) !== undefined;
        // Without statistics the planner takes a range on fromSeq for the most selective constraint and sorts in a
        // temporary B-tree; with them it sees that (branchId, tableKey) is the selective part and reads the new index.
        const ddl = existed ? sql : `${sql}; ANALYZE ${table.table}`;
        if (indexThread === null || !indexThread.available()) db.exec(ddl);
        else if (!existed) await buildIndex(ddl);
        ensuredIndexes.add(sql);
        log?.debug({ projection, collection, sql, created: !existed }, 'view index ensured');
      }),
    ping: async () => {
      try {
        return db.prepare('SELECT 1').pluck().get() === 1;
      } catch {
        return false;
      }
    },
    close: async () => {
      await Promise.all([readThreads?.close(), indexThread?.close()]);
      if (db.open) applies.flush();
      if (db.open) db.close();
    },
  };
}

function keyFilter(field: string, value: Scalar): Filter {
  return value === null ? { kind: 'isNull', ref: { field } } : { kind: 'compare', ref: { field }, op: 'eq', value };
}
