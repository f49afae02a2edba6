import type { Logger } from 'pino';
import { createKeyedLock, systemClock } from '../../../contracts/index.ts';
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
import { applyViewChanges } from './sqliteViewChanges.ts';
import type { Params } from './sqliteViewSql.ts';
import { decodeRow } from './sqliteViewTable.ts';
import type { TableInfo } from './sqliteViewTable.ts';
import { createSqliteViewMeta } from './sqliteViewMeta.ts';
import { sortIndexSql } from './sqliteViewIndex.ts';
import { completeSqliteVersion } from './sqliteViewComplete.ts';
import { byIdSql, topRow } from './sqliteViewLayers.ts';
import { countSql, explainPlan, selectSql } from './sqliteViewStatements.ts';
import { createSqliteThreads, readThreadOptions, type SqliteReadOptions } from './sqliteReadPool.ts';
import { createViewConnections, type ViewConnection } from './sqliteViewConnections.ts';
import { RELOAD_STATISTICS, createOffLoopUpkeep } from './sqliteViewStatistics.ts';
import { isBusy, retryBusy, sweepVersionFiles, versionFileName } from './sqliteViewFiles.ts';
import { createShadowWrites } from './sqliteShadowWrites.ts';
import { pinnedIdentity } from '../layeredRead.ts';

type Row = readonly unknown[];

/** Scheduling niceness of the index thread and a rebuild's writing thread: the event loop's (see below). */
const WRITING_NICENESS = 0;
/** A read by id that found nothing visible. */
const NONE = Symbol('none');

/** The SQLite view store: the ViewStore port plus a look at how SQLite runs a find or a count (for index tests and tuning). */
export type SqliteViewStore = ViewStore & {
  /** The `EXPLAIN QUERY PLAN` lines (`detail` column) of the statement `find` runs for `query`. */
  explainFind(projection: string, collection: string, query: FindQuery): Promise<string[]>;
  /** The `EXPLAIN QUERY PLAN` lines of the statement `count` runs for `filter` and `versions` (not a read by id). */
  explainCount(projection: string, collection: string, filter: Filter, versions?: VersionedRead): Promise<string[]>;
};

/**
 * ViewStore on embedded SQLite files: views.db holds the versions, leases and active versions; each projection
 * version has a file of its own with its tables and checkpoint (sqliteViewFiles.ts; versions stored before that
 * layout keep their tables in views.db; `:memory:` keeps everything in one connection). Several processes may share
 * the files (WAL; every check-and-set is one statement or one BEGIN IMMEDIATE transaction); a write that meets
 * another connection's lock is retried after an asynchronous backoff rather than waiting in SQLite's busy handler.
 * With `reads`, finds and counts (all but reads by key or by id) run on read-only connections in worker threads
 * under a time budget, and index builds and drops of old tables on a connection of their own thread; the writes of
 * this store into a file wait for an index build of this process on that file instead of meeting its lock.
 */
export function createSqliteViewStore(options: {
  file: string;
  log?: Logger;
  clock?: Clock;
  /** Page cache ceiling per open file in KiB (default 65,536: 64 MiB); a store read only by key needs less. */
  cacheKiB?: number;
  /** Page cache of the rebuild's writing thread (a shadow's batches, its index builds), KiB; default `cacheKiB`. */
  shadowCacheKiB?: number;
  reads?: SqliteReadOptions;
}): SqliteViewStore {
  const clock = options.clock ?? systemClock;
  const log = options.log;
  const offLoop = options.reads !== undefined && options.file !== ':memory:';
  const threadOptions = {
    file: options.file,
    ...(options.reads?.source === undefined ? {} : { source: options.reads.source }),
    ...(log === undefined ? {} : { log }),
  };
  const readThreads = !offLoop ? null : createSqliteThreads({ ...threadOptions, ...readThreadOptions(options.reads), writable: false });
  const threadedProjections = options.reads?.projections === undefined ? null : new Set(options.reads.projections);
  // Writing threads run at the event loop's priority (nice 0), read threads below it (sqliteReadThread.ts): live writes
  // wait for what the index thread holds (an index build, a statistics refresh: the file's write lock), and at nice
  // 10 beside a busy event loop on one core such a build held that lock for 20 s (writes waiting 5 s each).
  const indexThread = !offLoop
    ? null
    : createSqliteThreads({ ...threadOptions, threads: 1, budgetMs: null, writable: true, lazy: true, niceness: WRITING_NICENESS });

  const connections = createViewConnections({
    file: options.file,
    cacheKiB: options.cacheKiB ?? 65_536,
    applyIn: (connection) => (ref, expected, next, changes) => {
      if (!meta.moveCheckpoint(ref, expected, next)) return false;
      applyViewChanges(connection.prepare, connection.upserts, writeTables(ref), ref, changes);
      return true;
    },
    beforeWrite: () => meta.refresh(),
    checkpointElsewhere: indexThread !== null,
    onClose: (path) => {
      readThreads?.forget(path);
      indexThread?.forget(path);
      shadow?.thread.forget(path);
    },
    ...(log === undefined ? {} : { log }),
  });
  const main = connections.main;
  const upkeep = indexThread === null ? null : createOffLoopUpkeep((path, sql) => indexThread.exec(path, sql), log);
  const db = main.db;
  const files = connections.dir === null ? null : { name: versionFileName, db: (file: string, create?: boolean) => connections.of(file, create).db };
  const meta = createSqliteViewMeta(db, clock, files);
  const shadow = offLoop
    ? createShadowWrites(
        { ...threadOptions, cacheKiB: options.shadowCacheKiB ?? options.cacheKiB ?? 65_536, niceness: WRITING_NICENESS },
        meta,
        clock,
      )
    : null;
  const batchOrder = createKeyedLock();
  log?.debug({ file: options.file, versions: connections.dir }, 'view store opened');
  const versionFolder = connections.dir;
  if (versionFolder !== null) {
    try {
      const orphans = db.transaction(() => sweepVersionFiles(versionFolder, meta.files())).immediate();
      if (orphans.length > 0) log?.info({ files: orphans }, 'view version files no version names deleted');
    } catch (err) {
      // Another process holds the meta's lock: the next start sweeps.
      if (!isBusy(err)) throw err;
    }
  }

  // Index statements already run on this connection (a version switch or drop forgets them).
  const ensuredIndexes = new Set<string>();
  let sweeping = false;
  meta.onInvalidate(() => {
    ensuredIndexes.clear();
    // Versions changed (maybe in another process): close the connections of version files dropped meanwhile.
    if (sweeping || connections.dir === null) return;
    sweeping = true;
    setImmediate(() => {
      sweeping = false;
      if (db.open) connections.closeUnreferenced(meta.files());
    });
  });

  async function afterIndexBuilds(...on: ViewConnection[]): Promise<void> {
    for (const connection of on) while (connection.building > 0) await connection.built.catch(() => undefined);
  }
  function buildIndex(connection: ViewConnection, sql: string, on = indexThread): Promise<void> {
    connection.building += 1;
    const run = (on as NonNullable<typeof indexThread>).exec(connection.path, sql).finally(() => {
      connection.building -= 1;
    });
    connection.built = Promise.allSettled([connection.built, run]);
    return run;
  }
  /** Runs DDL on the index thread (off the event loop) when there is one, or on `on`. */
  function execOf(connection: ViewConnection, on = indexThread): (sql: string) => void | Promise<void> {
    return on === null || !on.available() ? (sql) => void connection.db.exec(sql) : (sql) => buildIndex(connection, sql, on);
  }

  function writeTables(ref: ProjectionRef): ReadonlyMap<string, TableInfo> {
    const tables = meta.tables(ref.name, ref.version);
    if (tables === null) throw new Error(`projection ${ref.name} v${ref.version} does not exist`);
    return tables;
  }

  /** The connection of the file holding a version; throws when the version does not exist. */
  function connectionOf(ref: ProjectionRef, look: 'now' | 'shared' = 'now'): ViewConnection {
    const place = meta.place(ref.name, ref.version, look);
    if (place === null) throw new Error(`projection ${ref.name} v${ref.version} does not exist`);
    return connections.of(place.file);
  }
  /** The connection of a version if this process has it open (those an index build can be running on). */
  function openedOf(ref: ProjectionRef): ViewConnection[] {
    const place = meta.place(ref.name, ref.version);
    const connection = place === null ? null : connections.opened(place.file);
    return connection === null ? [] : [connection];
  }

  /** Runs a read on the active version; retries once when another process switched or dropped versions meanwhile. */
  async function read<T>(
    projection: string,
    collection: string,
    empty: T,
    run: (connection: ViewConnection, table: TableInfo) => T | Promise<T>,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        const version = meta.activeVersion(projection, 'shared');
        if (version === null) return empty;
        const connection = connectionOf({ name: projection, version }, 'shared');
        const table = meta.tables(projection, version, 'shared')?.get(collection);
        if (table === undefined) throw new Error(`projection ${projection} has no collection "${collection}"`);
        return await run(connection, table);
      } catch (err) {
        if (attempt > 0 || !(err instanceof Error) || !versionGone(err)) throw err;
        log?.debug({ projection, collection }, 'view version changed during read, retrying');
        meta.invalidate();
      }
    }
  }

  /** Whether a read of `projection` runs on this thread (no threads, or not a projection of theirs). */
  function onThisThread(projection: string): boolean {
    return readThreads === null || !readThreads.available() || (threadedProjections !== null && !threadedProjections.has(projection));
  }

  /**
   * A find; reads by id (every identity field pinned: a probe of the key) and by key (`onLoop`) stay on this thread,
   * others go to the read threads if the projection has them.
   */
  async function select(c: ViewConnection, projection: string, table: TableInfo, query: FindQuery, onLoop = false): Promise<ViewDoc[]> {
    const byId = query.versions === undefined ? null : readById(c, table, query.filter, query.versions);
    if (byId !== null) return byId === NONE || (query.offset ?? 0) > 0 || query.limit === 0 ? [] : [byId];
    const { sql, params } = selectSql(table, query);
    const pinned = query.versions !== undefined && pinnedIdentity(query.filter, query.versions.identity) !== null;
    const threads = onLoop || pinned || onThisThread(projection) ? null : readThreads;
    const rows = (threads === null ? c.prepare(sql).raw(true).all(params) : await threads.rows(c.path, sql, params)) as Row[];
    return rows.map((row) => decodeRow(table, row));
  }

  async function countOf(c: ViewConnection, projection: string, sql: string, params: Params): Promise<number> {
    if (readThreads === null || onThisThread(projection)) return c.prepare(sql).pluck(true).get(params) as number;
    return (await readThreads.value(c.path, sql, params)) as number;
  }

  /** A layered read by id (sqliteViewLayers.ts `byIdSql`): the visible document, NONE, or null when not by id. */
  function readById(c: ViewConnection, table: TableInfo, filter: Filter | undefined, versions: VersionedRead): ViewDoc | typeof NONE | null {
    const byId = byIdSql(table, filter, versions);
    if (byId === null) return null;
    const row = topRow(table, c.prepare(byId.sql).raw(true).all(byId.params) as Row[], versions.layers);
    return row === null ? NONE : decodeRow(table, row);
  }

  /** Removes a dropped version's storage: its file, or (stores from before version files) its tables in views.db. */
  async function removeStorage(dropped: { file: string | null; tables: string[] }): Promise<void> {
    if (dropped.file !== null) return connections.remove(dropped.file);
    const exec = execOf(main);
    for (const table of dropped.tables) await retryBusy(() => exec(`DROP TABLE IF EXISTS ${table}`));
    // Once no version lives in views.db it holds only the meta: VACUUM copies those few pages (quick) and returns
    // the space of the dropped tables to the file system (DROP TABLE only frees pages inside the file).
    if (connections.dir !== null && dropped.tables.length > 0 && !meta.hasLegacyVersions()) {
      await retryBusy(() => exec('VACUUM'));
      // The file shrinks when the WAL is copied back into it (no need to wait for readers: PASSIVE).
      await retryBusy(() => exec('PRAGMA wal_checkpoint(PASSIVE)'));
      log?.info({ file: options.file }, 'views.db vacuumed: no version is stored in it any more');
    }
  }

  return {
    backend: 'sqlite',
    ensureProjection: async (spec: ProjectionSpec, ensureOptions) => {
      await afterIndexBuilds(main, ...openedOf(spec));
      return retryBusy(() => meta.ensure(spec, ensureOptions?.deferReadIndexes === true));
    },
    completeVersion: async (ref) => {
      const target = connectionOf(ref);
      await afterIndexBuilds(target);
      const active = meta.activeVersion(ref.name);
      const source = active === null || active === ref.version ? null : connectionOf({ name: ref.name, version: active });
      return completeSqliteVersion(target.db, source?.db ?? null, meta, ref, execOf(target, shadow?.of(ref) ?? indexThread), log);
    },
    // The batches of one version apply in the order they were handed over (the port's guarantee). A shadow's batch is
    // converted at once (async: before the first await) and its documents are not kept while it waits for its turn.
    applyBatch: async (ref, expected, next, changes) => {
      const connection = connectionOf(ref);
      const key = `${ref.name}\u0000${ref.version}`;
      const send = shadow !== null && shadow.of(ref) !== null ? shadow.prepare(connection.path, ref, expected, next, changes) : null;
      if (send !== null) return batchOrder.run(key, () => afterIndexBuilds(connection).then(send));
      return batchOrder.run(key, async () => {
        await afterIndexBuilds(connection);
        const applied = await connection.applies.apply(ref, expected, next, changes);
        upkeep?.afterCommit(connection, changes.length);
        return applied;
      });
    },
    checkpoint: async (ref) => meta.checkpoint(ref),
    recordError: async (ref, message) => {
      await afterIndexBuilds(...openedOf(ref));
      return retryBusy(() => meta.recordError(ref, message));
    },
    acquireLease: async (name, owner, ttlMs) => retryBusy(() => meta.acquireLease(name, owner, ttlMs)),
    releaseLease: async (name, owner) => retryBusy(() => meta.releaseLease(name, owner)),
    activeVersion: async (name) => meta.activeVersion(name, 'shared'),
    activate: async (name, version) => retryBusy(() => meta.activate(name, version)),
    dropVersion: async (ref) => {
      await afterIndexBuilds(main, ...openedOf(ref));
      const dropped = await retryBusy(() => meta.dropVersion(ref));
      if (dropped !== null) await removeStorage(dropped);
    },
    projectionStatuses: async (): Promise<ProjectionStatus[]> => meta.statuses(),
    get: async (projection: string, collection: string, key: Readonly<Record<string, Scalar>>) =>
      read(projection, collection, null, async (c, table) => {
        for (const name of table.key) {
          if (!Object.hasOwn(key, name)) throw new Error(`${collection}: key field "${name}" is missing`);
        }
        const filter: Filter = { kind: 'and', filters: table.key.map((name) => keyFilter(name, key[name] ?? null)) };
        return (await select(c, projection, table, { filter, limit: 1 }, true))[0] ?? null;
      }),
    find: async (projection, collection, query = {}) => read(projection, collection, [], (c, table) => select(c, projection, table, query)),
    count: async (projection, collection, filter = { kind: 'all' }, versions) =>
      read(projection, collection, 0, (c, table) => {
        const byId = versions === undefined ? null : readById(c, table, filter, versions);
        if (byId !== null) return byId === NONE ? 0 : 1;
        const { sql, params } = countSql(table, filter, versions);
        return countOf(c, projection, sql, params);
      }),
    explainFind: async (projection, collection, query) =>
      read(projection, collection, [], (c, table) => {
        const { sql, params } = selectSql(table, query);
        return explainPlan(c, sql, params);
      }),
    explainCount: async (projection, collection, filter, versions) =>
      read(projection, collection, [], (c, table) => {
        const { sql, params } = countSql(table, filter, versions);
        return explainPlan(c, sql, params);
      }),
    ensureIndex: async (projection, collection, index) =>
      read(projection, collection, undefined, async (c, table) => {
        const { name, sql } = sortIndexSql(table, index);
        if (ensuredIndexes.has(sql)) return;
        const existed = c.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(name) !== undefined;
        // Without statistics the planner takes a range on fromSeq for the most selective constraint and sorts in a
        // temporary B-tree; with them it sees that (branchId, tableKey) is the selective part and reads the new index.
        // One transaction: a connection loading the schema meanwhile would see the index without its statistics and
        // (with the RELOAD_STATISTICS note's consequences) plan page 1 through it and a sort until the ANALYZE ends.
        const ddl = existed ? sql : `BEGIN IMMEDIATE; ${sql}; ANALYZE ${table.table}; COMMIT; ${RELOAD_STATISTICS}`;
        if (indexThread === null || !indexThread.available()) execOrRollBack(c.db, ddl);
        else if (!existed) await buildIndex(c, ddl);
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
      await Promise.all([readThreads?.close(), indexThread?.close(), shadow?.thread.close()]);
      connections.closeAll();
    },
  };
}

/** Runs statements that may open a transaction; one left open by a failure is rolled back. */
function execOrRollBack(db: { exec(sql: string): unknown; readonly inTransaction: boolean }, sql: string): void {
  try {
    db.exec(sql);
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

/** A read met a version that another process switched away from and dropped (its tables or file are gone). */
function versionGone(err: Error): boolean {
  const code = (err as { code?: unknown }).code;
  return code === 'SQLITE_CANTOPEN' || /no such table|has no collection|does not exist|unable to open database/.test(err.message);
}

function keyFilter(field: string, value: Scalar): Filter {
  return value === null ? { kind: 'isNull', ref: { field } } : { kind: 'compare', ref: { field }, op: 'eq', value };
}
