import type Database from 'better-sqlite3';
import type { ProjectionRef, ViewChange } from '../../../contracts/index.ts';
import { createSqlBuilder } from './sqliteViewSql.ts';
import { conflictSql, insertIfAbsentSql, quoteId, toColumn } from './sqliteViewTable.ts';
import type { TableInfo } from './sqliteViewTable.ts';
import { encodeUpserts, type ColumnValue, type SqliteUpserts } from './sqliteViewUpserts.ts';

/** A run of upserts into one collection as column values (`encodeUpserts`), as batches reach a writing thread. */
export type EncodedUpserts = { readonly op: 'encoded'; readonly collection: string; readonly values: readonly ColumnValue[] };
export type StoredChange = ViewChange | EncodedUpserts;

/** `changes` with each run of upserts into one collection encoded (what a batch for a writing thread carries). */
export function encodeViewChanges(tables: ReadonlyMap<string, TableInfo>, ref: ProjectionRef, changes: readonly ViewChange[]): StoredChange[] {
  const out: StoredChange[] = [];
  forEachRun(
    changes,
    (change) => out.push(change),
    (collection, from, to) => {
      out.push({ op: 'encoded', collection, values: encodeUpserts(writeTable(tables, ref, collection), changes, from, to) });
    },
  );
  return out;
}

/** Calls `single` for each change that is not an upsert and `run` for each run of upserts into one collection. */
function forEachRun<C extends { readonly op: string; readonly collection: string }>(
  changes: readonly C[],
  single: (change: C) => void,
  run: (collection: string, from: number, to: number) => void,
): void {
  let i = 0;
  while (i < changes.length) {
    const change = changes[i] as C;
    if (change.op !== 'upsert') {
      single(change);
      i += 1;
      continue;
    }
    let end = i + 1;
    while (end < changes.length && changes[end]?.op === 'upsert' && changes[end]?.collection === change.collection) end += 1;
    run(change.collection, i, end);
    i = end;
  }
}

/** The view changes of one batch on the writing connection (inside the caller's transaction). */
export function applyViewChanges(
  prepare: (sql: string) => Database.Statement,
  upserts: SqliteUpserts,
  tables: ReadonlyMap<string, TableInfo>,
  ref: ProjectionRef,
  changes: readonly StoredChange[],
): void {
  forEachRun(
    changes,
    (change) => {
      if (change.op === 'encoded') upserts.runEncoded(writeTable(tables, ref, change.collection), change.values);
      else if (change.op !== 'upsert') applyChange(prepare, tables, ref, change);
    },
    (collection, from, to) => upserts.run(writeTable(tables, ref, collection), changes as readonly ViewChange[], from, to),
  );
}

function applyChange(
  prepare: (sql: string) => Database.Statement,
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

function writeTable(tables: ReadonlyMap<string, TableInfo>, ref: ProjectionRef, collection: string): TableInfo {
  const table = tables.get(collection);
  if (table === undefined) throw new Error(`projection ${ref.name} v${ref.version} has no collection "${collection}"`);
  return table;
}
