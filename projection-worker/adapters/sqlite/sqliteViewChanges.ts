import type Database from 'better-sqlite3';
import type { ProjectionRef, ViewChange } from '../../../contracts/index.ts';
import { createSqlBuilder } from './sqliteViewSql.ts';
import { conflictSql, insertIfAbsentSql, quoteId, toColumn } from './sqliteViewTable.ts';
import type { TableInfo } from './sqliteViewTable.ts';
import type { SqliteUpserts } from './sqliteViewUpserts.ts';

/** The view changes of one batch on the writing connection (inside the caller's transaction). */
export function applyViewChanges(
  prepare: (sql: string) => Database.Statement,
  upserts: SqliteUpserts,
  tables: ReadonlyMap<string, TableInfo>,
  ref: ProjectionRef,
  changes: readonly ViewChange[],
): void {
  let i = 0;
  while (i < changes.length) {
    const change = changes[i] as ViewChange;
    if (change.op !== 'upsert') {
      applyChange(prepare, tables, ref, change);
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
