import type { Filter, FindQuery, VersionedRead } from '../../../contracts/index.ts';
import { layeredCountSql, layeredSelectSql, nonNegative } from './sqliteViewLayers.ts';
import { createSqlBuilder, type Params } from './sqliteViewSql.ts';
import type { ViewConnection } from './sqliteViewConnections.ts';
import type { TableInfo } from './sqliteViewTable.ts';

/** The statement `find` runs for `query` (a layered read when it has `versions`; reads by id are answered before). */
export function selectSql(table: TableInfo, query: FindQuery): { sql: string; params: Params } {
  if (query.versions !== undefined) return layeredSelectSql(table, { ...query, versions: query.versions });
  const b = createSqlBuilder(table);
  let sql = `SELECT ${table.columns} FROM ${table.table} WHERE ${b.where(query.filter ?? { kind: 'all' })}`;
  if (query.orderBy !== undefined && query.orderBy.length > 0) sql += ` ORDER BY ${b.orderBy(query.orderBy)}`;
  if (query.limit !== undefined || query.offset !== undefined) {
    sql += ` LIMIT ${b.param(nonNegative(query.limit, -1))} OFFSET ${b.param(nonNegative(query.offset, 0))}`;
  }
  return { sql, params: b.params };
}

/** The statement `count` runs for `filter` (a layered read when it has `versions`; reads by id are answered before). */
export function countSql(table: TableInfo, filter: Filter, versions: VersionedRead | undefined): { sql: string; params: Params } {
  if (versions !== undefined) return layeredCountSql(table, filter, versions);
  const b = createSqlBuilder(table);
  return { sql: `SELECT COUNT(*) FROM ${table.table} WHERE ${b.where(filter)}`, params: b.params };
}

/** `EXPLAIN QUERY PLAN` of `sql` on `c` (the `detail` column). */
export function explainPlan(c: ViewConnection, sql: string, params: Params): string[] {
  // EXPLAIN does not check the schema cookie: a statement that reads first loads indexes other connections (the
  // index thread) made since this connection last read the file.
  c.db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get();
  return (c.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((row) => row.detail);
}
