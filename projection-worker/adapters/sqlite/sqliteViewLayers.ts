import type { Filter, FindQuery, VersionLayer, VersionedRead } from '../../../contracts/index.ts';
import { assertVersionedRead, identityPins, pinnedFilter, pinnedIdentity, topmost } from '../layeredRead.ts';
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

/**
 * The WHERE clauses of the arms, top layer first: each layer's candidates that no upper layer hides. The filter and
 * the identity pins are built once and shared by every arm (named parameters may repeat in a statement).
 */
function armClauses(b: SqlBuilder, table: TableInfo, versions: VersionedRead, filter: Filter | undefined): string[] {
  const { layers, identity } = versions;
  const filterSql = filter === undefined || filter.kind === 'all' ? '' : ` AND ${b.where(filter)}`;
  const visible = (layer: VersionLayer): string => {
    const seq = b.param(layer.seq);
    return `("branchId" = ${b.param(layer.branchId)} AND "fromSeq" <= ${seq} AND "toSeq" > ${seq})`;
  };
  const visibility = layers.map(visible);
  const clauses = visibility.map((layer) => `${layer} AND ("tombstone" = 1) IS NOT TRUE${filterSql}`);
  if (layers.length === 1) return clauses;
  const pins = identityPins(filter, identity);
  const pinsSql = pins.length === 0 ? '' : ` AND ${b.where({ kind: 'and', filters: pins })}`;
  // Identity fields the filter pins by equality need no comparing (a table's rows: only rowId); a single column is
  // also much cheaper to test than a row value.
  const free = identity.filter((field) => !pins.some((pin) => pin.kind === 'compare' && pin.ref.field === field));
  const compared = (free.length === 0 ? identity.slice(-1) : free).map(quoteId);
  const ids = compared.join(', ');
  const tuple = compared.length === 1 ? ids : `(${ids})`;
  const uppers = visibility.map((layer) => `SELECT ${ids} FROM ${table.table} WHERE ${layer}${pinsSql}`);
  return clauses.map((clause, depth) => (depth === 0 ? clause : `${clause} AND ${tuple} NOT IN (${uppers.slice(0, depth).join(' UNION ALL ')})`));
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
  const clauses = armClauses(b, table, versions, query.filter);
  if (versions.layers.length === 1) {
    let sql = `SELECT ${table.columns} FROM ${table.table} WHERE ${clauses[0] as string}`;
    if (keys.length > 0) sql += ` ORDER BY ${b.orderBy(keys)}`;
    return { sql: sql + limitSql(b, query), params: b.params };
  }
  const order = keys.length > 0 ? b.compoundOrder(keys) : null;
  const columns = [table.columns, ...(order?.columns ?? [])].join(', ');
  const arms = clauses.map((clause) => `SELECT ${columns} FROM ${table.table} WHERE ${clause}`);
  let sql = arms.join(' UNION ALL ');
  if (order !== null) sql += ` ORDER BY ${order.order}`;
  return { sql: sql + limitSql(b, query), params: b.params };
}

/** The statement of a count with `versions`: the sum of the arms' counts. */
export function layeredCountSql(table: TableInfo, filter: Filter | undefined, versions: VersionedRead): { sql: string; params: Params } {
  assertVersionedRead(table.collection, table.types, table.key, versions);
  const b = createSqlBuilder(table);
  if (versions.layers.length === 0) return { sql: 'SELECT 0', params: b.params };
  const arms = armClauses(b, table, versions, filter).map((clause) => `(SELECT COUNT(*) FROM ${table.table} WHERE ${clause})`);
  return { sql: `SELECT ${arms.join(' + ')}`, params: b.params };
}

export function nonNegative(value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`limit and offset must be integers >= 0, got ${value}`);
  return value;
}

/**
 * A layered read by id (the filter pins every identity field): one statement reads the identity's versions in all
 * layers through the key (`MULTI-INDEX OR`), the topmost decides (`topRow`). Null when the read is not by id or
 * has one layer.
 */
export function byIdSql(table: TableInfo, filter: Filter | undefined, versions: VersionedRead): { sql: string; params: Params } | null {
  const pinned = versions.layers.length > 1 ? pinnedIdentity(filter, versions.identity) : null;
  if (pinned === null) return null;
  assertVersionedRead(table.collection, table.types, table.key, versions);
  const b = createSqlBuilder(table);
  return { sql: `SELECT ${table.columns} FROM ${table.table} WHERE ${b.where(pinnedFilter(versions.layers, pinned))}`, params: b.params };
}

/** The visible row among those `byIdSql` read (raw columns in field order), or null; only it needs decoding. */
export function topRow<R extends readonly unknown[]>(table: TableInfo, rows: readonly R[], layers: readonly VersionLayer[]): R | null {
  const branch = table.fields.findIndex(([name]) => name === 'branchId');
  const tombstone = table.fields.findIndex(([name]) => name === 'tombstone');
  const top = topmost(
    rows.map((row) => ({ branchId: row[branch], tombstone: row[tombstone] === 1, row })),
    layers,
  );
  return top === null ? null : top.row;
}
