import type { Filter, FindQuery, VersionLayer, VersionedRead } from '../../../contracts/index.ts';
import { armFilter, assertVersionedRead, identityPins, upperFilter } from '../layeredRead.ts';
import { createSqlBuilder } from './sqliteViewSql.ts';
import type { Params, SqlBuilder } from './sqliteViewSql.ts';
import { quoteId } from './sqliteViewTable.ts';
import type { TableInfo } from './sqliteViewTable.ts';

/**
 * Layered reads on SQLite (docs/reference/versioned-storage.md §1): one arm per layer, each an index read
 * (`branchId = ? AND tableKey = ? AND fromSeq <= ? AND toSeq > ?` plus the filter, the keyset predicate and the
 * order), each excluding the identities the layers above hold with an uncorrelated `NOT IN (SELECT ...)` (few rows
 * when a branch changed few), merged with `UNION ALL ... ORDER BY ... LIMIT`: SQLite merges the index-ordered arms
 * (`MERGE (UNION ALL)`), so a sorted page reads what it returns. A count is the sum of the arms' counts.
 */

/** SQL of one arm: the layer's candidates that no upper layer hides. */
function armWhere(b: SqlBuilder, table: TableInfo, versions: VersionedRead, depth: number, filter: Filter | undefined): string {
  const layer = versions.layers[depth] as VersionLayer;
  const where = b.where(armFilter(layer, filter));
  if (depth === 0) return where;
  const ids = versions.identity.map(quoteId).join(', ');
  const pins = identityPins(filter, versions.identity);
  const uppers = versions.layers
    .slice(0, depth)
    .map((upper) => `SELECT ${ids} FROM ${table.table} WHERE ${b.where(upperFilter(upper, pins))}`)
    .join(' UNION ALL ');
  const tuple = versions.identity.length === 1 ? ids : `(${ids})`;
  return `${where} AND ${tuple} NOT IN (${uppers})`;
}

function limitSql(b: SqlBuilder, query: FindQuery): string {
  if (query.limit === undefined && query.offset === undefined) return '';
  return ` LIMIT ${b.param(nonNegative(query.limit, -1))} OFFSET ${b.param(nonNegative(query.offset, 0))}`;
}

/** The statement of a find with `versions`; its result rows hold the table's columns first. */
export function layeredSelectSql(table: TableInfo, query: FindQuery & { readonly versions: VersionedRead }): { sql: string; params: Params } {
  const { versions } = query;
  assertVersionedRead(table.collection, table.types, table.key, versions);
  const b = createSqlBuilder(table);
  if (versions.layers.length === 0) return { sql: `SELECT ${table.columns} FROM ${table.table} WHERE 0`, params: b.params };
  const keys = query.orderBy ?? [];
  if (versions.layers.length === 1) {
    let sql = `SELECT ${table.columns} FROM ${table.table} WHERE ${armWhere(b, table, versions, 0, query.filter)}`;
    if (keys.length > 0) sql += ` ORDER BY ${b.orderBy(keys)}`;
    return { sql: sql + limitSql(b, query), params: b.params };
  }
  const order = keys.length > 0 ? b.compoundOrder(keys) : null;
  const columns = [table.columns, ...(order?.columns ?? [])].join(', ');
  const arms = versions.layers.map((_, depth) => `SELECT ${columns} FROM ${table.table} WHERE ${armWhere(b, table, versions, depth, query.filter)}`);
  let sql = arms.join(' UNION ALL ');
  if (order !== null) sql += ` ORDER BY ${order.order}`;
  return { sql: sql + limitSql(b, query), params: b.params };
}

/** The statement of a count with `versions`: the sum of the arms' counts. */
export function layeredCountSql(table: TableInfo, filter: Filter | undefined, versions: VersionedRead): { sql: string; params: Params } {
  assertVersionedRead(table.collection, table.types, table.key, versions);
  const b = createSqlBuilder(table);
  if (versions.layers.length === 0) return { sql: 'SELECT 0', params: b.params };
  const arms = versions.layers.map((_, depth) => `(SELECT COUNT(*) FROM ${table.table} WHERE ${armWhere(b, table, versions, depth, filter)})`);
  return { sql: `SELECT ${arms.join(' + ')}`, params: b.params };
}

export function nonNegative(value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`limit and offset must be integers >= 0, got ${value}`);
  return value;
}
