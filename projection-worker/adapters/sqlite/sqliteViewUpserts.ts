import type Database from 'better-sqlite3';
import { invariant } from '../../../contracts/index.ts';
import type { ViewChange } from '../../../contracts/index.ts';
import { toColumn, upsertSql } from './sqliteViewTable.ts';
import type { TableInfo } from './sqliteViewTable.ts';

/**
 * Largest number of documents one upsert statement writes. Consecutive upserts into one collection go out in
 * statements of 64, 32, ... 1 rows (at most 7 cached statements per table): one statement per row costs ~15 %
 * more on bulk row writes. SQLite allows 32,766 parameters per statement.
 */
const MAX_UPSERT_ROWS = 64;
const MAX_PARAMETERS = 32_766;

export type SqliteUpserts = {
  run(table: TableInfo, changes: readonly ViewChange[], from: number, to: number): void;
  /** Upserts documents already converted to column values (`encodeUpserts`). */
  runEncoded(table: TableInfo, values: readonly ColumnValue[]): void;
};

export type ColumnValue = string | number | null;

/**
 * The column values of the upserts `changes[from..to)` (all into `table`), document after document in field order.
 * A batch handed to a writing thread carries these flat arrays instead of the documents: copying nested documents
 * to a thread cost more than converting them here (JSON.stringify of `json` fields is done once either way).
 */
export function encodeUpserts(table: TableInfo, changes: readonly ViewChange[], from: number, to: number): ColumnValue[] {
  const { fields } = table;
  const width = fields.length;
  const values: ColumnValue[] = new Array((to - from) * width);
  for (let r = 0; r < to - from; r++) {
    const change = changes[from + r];
    invariant(change?.op === 'upsert', 'an upsert run holds upserts only');
    const doc = change.doc;
    for (let i = 0; i < width; i++) {
      const field = fields[i] as TableInfo['fields'][number];
      values[r * width + i] = toColumn(table, field[0], field[1], doc[field[0]]);
    }
  }
  return values;
}

/** Multi-row upsert statements of one SQLite view database, prepared once per table and row count. */
export function createSqliteUpserts(db: Database.Database): SqliteUpserts {
  /** Per table: the upsert statement writing 2^i documents at index i. */
  const upserts = new WeakMap<TableInfo, Database.Statement[]>();

  function upsertStatement(table: TableInfo, log2: number): Database.Statement {
    let list = upserts.get(table);
    if (list === undefined) {
      list = [];
      upserts.set(table, list);
    }
    let statement = list[log2];
    if (statement === undefined) {
      statement = db.prepare(upsertSql(table, 2 ** log2));
      list[log2] = statement;
    }
    return statement;
  }

  /**
   * Upserts encoded documents (`encodeUpserts`) in order. ON CONFLICT DO UPDATE rather than INSERT OR REPLACE:
   * REPLACE would silently delete other documents that collide on a unique secondary index (and costs a delete plus
   * an insert).
   */
  function runEncoded(table: TableInfo, values: readonly ColumnValue[]): void {
    const width = table.fields.length;
    const most = Math.max(1, Math.min(MAX_UPSERT_ROWS, Math.floor(MAX_PARAMETERS / width)));
    const count = values.length / width;
    let next = 0;
    while (next < count) {
      const log2 = Math.floor(Math.log2(Math.min(most, count - next)));
      const rows = 2 ** log2;
      upsertStatement(table, log2).run(values.slice(next * width, (next + rows) * width));
      next += rows;
    }
  }

  return { run: (table, changes, from, to) => runEncoded(table, encodeUpserts(table, changes, from, to)), runEncoded };
}
