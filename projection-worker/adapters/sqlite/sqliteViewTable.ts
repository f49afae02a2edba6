import type { CollectionSpec, FieldType } from '../../../contracts/index.ts';
import { assertCollectionSpec, assertFieldValue, versionedCollectionName } from '../viewCollectionSpec.ts';

/** The SQLite table of one view collection: its columns, DDL, upsert statement and column value conversions. */

/** What SQL building needs to know about one stored collection. */
export type TableInfo = {
  readonly collection: string;
  /** Quoted table name. */
  readonly table: string;
  readonly fields: readonly (readonly [name: string, type: FieldType])[];
  readonly types: ReadonlyMap<string, FieldType>;
  readonly key: readonly string[];
  /** Quoted, comma-separated column list in field order. */
  readonly columns: string;
};

const COLUMN_TYPES: Readonly<Record<FieldType, string>> = {
  text: 'TEXT',
  integer: 'INTEGER',
  real: 'REAL',
  boolean: 'INTEGER',
  json: 'TEXT',
};

export function quoteId(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export function tableInfo(projection: string, version: number, spec: CollectionSpec): TableInfo {
  assertCollectionSpec(spec);
  const fields = Object.entries(spec.fields);
  return {
    collection: spec.name,
    table: quoteId(versionedCollectionName(projection, version, spec.name)),
    fields,
    types: new Map(fields),
    key: spec.key,
    columns: fields.map(([name]) => quoteId(name)).join(', '),
  };
}

export function createTableSql(info: TableInfo): string {
  const keys = new Set(info.key);
  const columns = info.fields.map(([n, t]) => `${quoteId(n)} ${COLUMN_TYPES[t]}${keys.has(n) ? ' NOT NULL' : ''}`);
  const key = info.key.map(quoteId).join(', ');
  return `CREATE TABLE IF NOT EXISTS ${info.table} (${columns.join(', ')}, PRIMARY KEY (${key}))`;
}

export function addColumnSql(info: TableInfo, field: string, type: FieldType): string {
  return `ALTER TABLE ${info.table} ADD COLUMN ${quoteId(field)} ${COLUMN_TYPES[type]}`;
}

/** `CREATE INDEX IF NOT EXISTS` per declared index, with its name; with `deferReadIndexes`, none for `readersOnly` indexes. */
export function createIndexSqls(info: TableInfo, spec: CollectionSpec, deferReadIndexes = false): { readonly name: string; readonly sql: string }[] {
  const table = info.table.slice(1, -1);
  const indexes = (spec.indexes ?? []).filter((index) => !(deferReadIndexes && index.readersOnly === true));
  return indexes.map((index) => {
    const name = `${table}__${index.fields.join('__')}${index.unique === true ? '__u' : ''}`;
    const unique = index.unique === true ? 'UNIQUE ' : '';
    return { name, sql: `CREATE ${unique}INDEX IF NOT EXISTS ${quoteId(name)} ON ${info.table} (${index.fields.map(quoteId).join(', ')})` };
  });
}

/** Upsert that replaces every non-key column of an existing document with the same key. */
export function conflictSql(info: TableInfo): string {
  const keys = new Set(info.key);
  const others = info.fields.filter(([name]) => !keys.has(name)).map(([name]) => quoteId(name));
  const updates = others.map((c) => `${c} = excluded.${c}`).join(', ');
  const action = others.length === 0 ? 'DO NOTHING' : `DO UPDATE SET ${updates}`;
  return `ON CONFLICT (${info.key.map(quoteId).join(', ')}) ${action}`;
}

/** Upsert of `rows` documents in one statement (a later row with the same key wins, as in separate statements). */
export function upsertSql(info: TableInfo, rows = 1): string {
  const row = `(${info.fields.map(() => '?').join(', ')})`;
  const values = Array.from({ length: rows }, () => row).join(', ');
  return `INSERT INTO ${info.table} (${info.columns}) VALUES ${values} ${conflictSql(info)}`;
}

/** Insert of one document that leaves an existing document with the same key as it is. */
export function insertIfAbsentSql(info: TableInfo): string {
  return `INSERT INTO ${info.table} (${info.columns}) VALUES (${info.fields.map(() => '?').join(', ')}) ON CONFLICT (${info.key.map(quoteId).join(', ')}) DO NOTHING`;
}

/** Converts a document value to what its column stores; throws on a value of the wrong type. */
export function toColumn(info: TableInfo, field: string, type: FieldType, value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  assertFieldValue(info.collection, field, type, value);
  if (type === 'json') return JSON.stringify(value);
  if (type === 'boolean') return value === true ? 1 : 0;
  return value as string | number;
}

export function fromColumn(type: FieldType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'boolean') return value !== 0;
  if (type === 'json') return JSON.parse(value as string) as unknown;
  return value;
}

/** A document from a row of its columns in field order (raw statement results). */
export function decodeRow(table: TableInfo, row: readonly unknown[]): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  for (let i = 0; i < table.fields.length; i++) {
    const [name, type] = table.fields[i] as TableInfo['fields'][number];
    doc[name] = fromColumn(type, row[i]);
  }
  return doc;
}
