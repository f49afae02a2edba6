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
  ViewChange,
  ViewDoc,
  ViewStore,
} from '../../../contracts/index.ts';
import { createApplyGroup } from './sqliteApplyGroup.ts';
import { sqlCast } from './sqliteViewCast.ts';
import { createSqlBuilder } from './sqliteViewSql.ts';
import type { Params } from './sqliteViewSql.ts';
import { conflictSql, fromColumn, insertIfAbsentSql, quoteId, toColumn } from './sqliteViewTable.ts';
import type { TableInfo } from './sqliteViewTable.ts';
import { createSqliteViewMeta } from './sqliteViewMeta.ts';
import { sortIndexSql } from './sqliteViewIndex.ts';
import { completeSqliteVersion } from './sqliteViewComplete.ts';
import { createSqliteUpserts } from './sqliteViewUpserts.ts';
import { byIdSql, layeredCountSql, layeredSelectSql, nonNegative, topRow } from './sqliteViewLayers.ts';

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
 * or one BEGIN IMMEDIATE transaction).
 */
export function createSqliteViewStore(options: {
  file: string;
  log?: Logger;
  clock?: Clock;
  /** Page cache ceiling in KiB (default 65,536: 64 MiB); a store read only by key needs less. */
  cacheKiB?: number;
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

  function writeTable(tables: ReadonlyMap<string, TableInfo>, ref: ProjectionRef, collection: string): TableInfo {
    const table = tables.get(collection);
    if (table === undefined) throw new Error(`projection ${ref.name} v${ref.version} has no collection "${collection}"`);
    return table;
  }

  function applyChanges(tables: ReadonlyMap<string, TableInfo>, ref: ProjectionRef, changes: readonly ViewChange[]): void {
    let i = 0;
    while (i < changes.length) {
      const change = changes[i] as ViewChange;
      if (change.op !== 'upsert') {
        applyChange(tables, ref, change);
        i += 1;
        continue;
      }
      let end = i + 1;
      while (end < changes.length && changes[end]?.op === 'upsert' && changes[end]?.collection === change.collection) end += 1;
      upserts.run(writeTable(tables, ref, change.collection), changes, i, end);
      i = end;
    }
  }

  function applyChange(
    tables: ReadonlyMap<string, TableInfo>,
    ref: ProjectionRef,
    change: Exclude<ViewChange, { op: 'upsert' }>,
  ): void {
    const table = writeTable(tables, ref, change.collection);
    const b = createSqlBuilder(table);
    switch (change.op) {
      case 'update': {
        const sets = [...b.assign(change.set)].map(([name, value]) => `${quoteId(name)} = ${value}`);
        for (const [name, amount] of Object.entries(change.inc ?? {})) {
          const type = table.types.get(name);
          if ((type !== 'integer' && type !== 'real') || typeof amount !== 'number' || !Number.isFinite(amount)) {
            throw new Error(`${table.collection}.${name}: inc needs a number field and a finite amount`);
          }
          sets.push(`${quoteId(name)} = COALESCE(${quoteId(name)}, 0) + ${b.param(amount)}`);
        }
        if (sets.length === 0) return;
        prepare(`UPDATE ${table.table} SET ${sets.join(', ')} WHERE ${b.where(change.filter)}`).run(b.params);
        return;
      }
      case 'delete':
        prepare(`DELETE FROM ${table.table} WHERE ${b.where(change.filter)}`).run(b.params);
        return;
      case 'insertIfAbsent':
        prepare(insertIfAbsentSql(table)).run(table.fields.map(([name, type]) => toColumn(table, name, type, change.doc[name])));
        return;
      case 'copy': {
        const overrides = b.assign(change.set);
        const select = table.fields.map(([name]) => overrides.get(name) ?? quoteId(name)).join(', ');
        // SQLite reads the source rows into a temporary table first when inserting into the table it selects from.
        const sql =
          `INSERT INTO ${table.table} (${table.columns}) SELECT ${select} FROM ${table.table} ` +
          `WHERE ${b.where(change.filter)} ${conflictSql(table)}`;
        prepare(sql).run(b.params);
        return;
      }
      default: {
        const unknownChange: never = change;
        throw new Error(`unknown view change ${JSON.stringify(unknownChange)}`);
      }
    }
  }

  const applies = createApplyGroup(
    db,
    (ref, expected, next, changes) => {
      if (!meta.moveCheckpoint(ref, expected, next)) return false;
      applyChanges(writeTables(ref), ref, changes);
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
  function read<T>(projection: string, collection: string, empty: T, run: (table: TableInfo) => T): T {
    for (let attempt = 0; ; attempt++) {
      try {
        const version = meta.activeVersion(projection, 'shared');
        if (version === null) return empty;
        const table = meta.tables(projection, version, 'shared')?.get(collection);
        if (table === undefined) throw new Error(`projection ${projection} has no collection "${collection}"`);
        return run(table);
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

  function select(table: TableInfo, query: FindQuery): ViewDoc[] {
    const byId = query.versions === undefined ? null : readById(table, query.filter, query.versions);
    if (byId !== null) return byId === NONE || (query.offset ?? 0) > 0 || query.limit === 0 ? [] : [byId];
    const { sql, params } = selectSql(table, query);
    const rows = prepare(sql).raw(true).all(params) as Row[];
    return rows.map((row) => decode(table, row));
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
    ensureProjection: async (spec: ProjectionSpec, ensureOptions) => meta.ensure(spec, ensureOptions?.deferReadIndexes === true),
    completeVersion: async (ref) => completeSqliteVersion(db, meta, ref, log),
    applyBatch: (ref, expected, next, changes) => applies.apply(ref, expected, next, changes),
    checkpoint: async (ref) => meta.checkpoint(ref),
    recordError: async (ref, message) => meta.recordError(ref, message),
    acquireLease: async (name, owner, ttlMs) => meta.acquireLease(name, owner, ttlMs),
    releaseLease: async (name, owner) => meta.releaseLease(name, owner),
    activeVersion: async (name) => meta.activeVersion(name, 'shared'),
    activate: async (name, version) => meta.activate(name, version),
    dropVersion: async (ref) => meta.dropVersion(ref),
    projectionStatuses: async (): Promise<ProjectionStatus[]> => meta.statuses(),
    get: async (projection: string, collection: string, key: Readonly<Record<string, Scalar>>) =>
      read(projection, collection, null, (table) => {
        for (const name of table.key) {
          if (!Object.hasOwn(key, name)) throw new Error(`${collection}: key field "${name}" is missing`);
        }
        const filter: Filter = { kind: 'and', filters: table.key.map((name) => keyFilter(name, key[name] ?? null)) };
        return select(table, { filter, limit: 1 })[0] ?? null;
      }),
    find: async (projection, collection, query = {}) => read(projection, collection, [], (table) => select(table, query)),
    count: async (projection, collection, filter = { kind: 'all' }, versions) =>
      read(projection, collection, 0, (table) => {
        if (versions !== undefined) {
          const byId = readById(table, filter, versions);
          if (byId !== null) return byId === NONE ? 0 : 1;
          const { sql, params } = layeredCountSql(table, filter, versions);
          return prepare(sql).pluck(true).get(params) as number;
        }
        const b = createSqlBuilder(table);
        const sql = `SELECT COUNT(*) FROM ${table.table} WHERE ${b.where(filter)}`;
        return prepare(sql).pluck(true).get(b.params) as number;
      }),
    explainFind: async (projection, collection, query) =>
      read(projection, collection, [], (table) => {
        const { sql, params } = selectSql(table, query);
        return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((row) => row.detail);
      }),
    ensureIndex: async (projection, collection, index) =>
      read(projection, collection, undefined, (table) => {
        const { name, sql } = sortIndexSql(table, index);
        if (ensuredIndexes.has(sql)) return;
        const existed = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(name) !== undefined;
        db.exec(sql);
        // Without statistics the planner takes a range on fromSeq for the most selective constraint and sorts in a
        // temporary B-tree; with them it sees that (branchId, tableKey) is the selective part and reads the new index.
        if (!existed) db.exec(`ANALYZE ${table.table}`);
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
      if (db.open) applies.flush();
      if (db.open) db.close();
    },
  };
}

function keyFilter(field: string, value: Scalar): Filter {
  return value === null ? { kind: 'isNull', ref: { field } } : { kind: 'compare', ref: { field }, op: 'eq', value };
}
