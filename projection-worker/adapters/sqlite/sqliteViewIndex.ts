import { createHash } from 'node:crypto';
import type { SortIndex } from '../../../contracts/index.ts';
import { createSqlBuilder } from './sqliteViewSql.ts';
import { quoteId } from './sqliteViewTable.ts';
import type { TableInfo } from './sqliteViewTable.ts';

/**
 * `CREATE INDEX IF NOT EXISTS` over the equality fields, the sort expressions and the included fields of `index`
 * (ViewStore.ensureIndex), named after the table and a hash of its columns so that one index has one name. Expressions are those `find` sorts by
 * (json paths and casts inlined as literals), so SQLite matches them; `strata_cast` is a deterministic function
 * every connection of the view store registers.
 */
export function sortIndexSql(info: TableInfo, index: SortIndex): { readonly name: string; readonly sql: string } {
  if (index.equal.length + index.sort.length === 0) throw new Error('an index needs at least one field');
  const b = createSqlBuilder(info);
  const columns = b.indexColumns(index.equal, index.sort, index.include);
  if (Object.keys(b.params).length > 0) throw new Error('index expressions cannot have parameters');
  return sortIndexOn(info, columns);
}

/**
 * The sort index `stored` (a row of sqlite_master: `name` and `sql`) of `from` as the same index on `to`, a later
 * version of the collection; null when `stored` is not a sort index of `from`.
 */
export function copiedSortIndexSql(
  from: TableInfo,
  to: TableInfo,
  stored: { readonly name: string; readonly sql: string | null },
): { readonly name: string; readonly sql: string } | null {
  if (!stored.name.startsWith(`${from.table.slice(1, -1)}__sort_`) || stored.sql === null) return null;
  // SQLite keeps the statement as written, minus IF NOT EXISTS; the columns never name the table.
  const head = `CREATE INDEX ${quoteId(stored.name)} ON ${from.table} (`;
  if (!stored.sql.startsWith(head) || !stored.sql.endsWith(')')) return null;
  return sortIndexOn(to, stored.sql.slice(head.length, -1));
}

function sortIndexOn(info: TableInfo, columns: string): { readonly name: string; readonly sql: string } {
  const hash = createHash('sha256').update(columns).digest('hex').slice(0, 16);
  const name = `${info.table.slice(1, -1)}__sort_${hash}`;
  return { name, sql: `CREATE INDEX IF NOT EXISTS ${quoteId(name)} ON ${info.table} (${columns})` };
}
