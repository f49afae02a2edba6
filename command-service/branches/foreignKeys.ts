import { AppError, isPlainObject, toJsonPointer } from '../../contracts/index.ts';
import type { DataPath, ErrorDetail, ForeignKeyField, JsonObject } from '../../contracts/index.ts';
import { draftRow, draftRows, draftTableById, draftTables, type BranchContent, type DraftTable } from './branchContent.ts';
import type { TableModelCache } from './tableModelCache.ts';

/** Referencing rows listed per table in FOREIGN_KEY_IN_USE details (operations.md §7). */
const MAX_REFERENCING_ROWS = 100;

export type ForeignKeyValue = { readonly pointer: string; readonly value: string };

/**
 * The strings at a foreign-key data path (`'*'` = every array element). Elements of an FK array share the pointer
 * of the array, so one detail lists every missing id of that field.
 */
export function foreignKeyValues(data: unknown, dataPath: DataPath): ForeignKeyValue[] {
  const out: ForeignKeyValue[] = [];
  const groupDepth = dataPath[dataPath.length - 1] === '*' ? dataPath.length - 1 : dataPath.length;
  const walk = (value: unknown, index: number, segments: (string | number)[]): void => {
    const segment = dataPath[index];
    if (segment === undefined) {
      if (typeof value === 'string') out.push({ pointer: toJsonPointer(segments.slice(0, groupDepth)), value });
      return;
    }
    if (segment === '*') {
      if (Array.isArray(value)) value.forEach((item: unknown, i) => walk(item, index + 1, [...segments, i]));
      return;
    }
    if (isPlainObject(value) && Object.prototype.hasOwnProperty.call(value, segment)) {
      walk(value[segment], index + 1, [...segments, segment]);
    }
  };
  walk(data, 0, []);
  return out;
}

export type RowToCheck = { readonly rowId: string; readonly data: JsonObject; readonly index?: number };

/** Whether a row with this id exists in the table with this id (as the check sees the draft). */
export type RowExists = (tableId: string, rowId: string) => boolean;

/** A FOREIGN_KEY_NOT_FOUND refusal in the making: the details and the first failure, for the message. */
export type ForeignKeyFailures = {
  readonly details: ErrorDetail[];
  first: { readonly rowId: string; readonly path: string; readonly tableId: string; readonly missing: readonly string[] } | null;
};

/**
 * Adds to `failures` the foreign-key values of `row` (in `fields`) naming no existing row (`""` never does):
 * `{path, tableId, missingRowIds, rowId?, index?}` details. Returns whether the row had any.
 */
export function collectMissingForeignKeys(
  failures: ForeignKeyFailures,
  row: RowToCheck,
  fields: readonly ForeignKeyField[],
  exists: RowExists,
  withRowId: boolean,
): boolean {
  let found = false;
  for (const field of fields) {
    const missingByPath = new Map<string, string[]>();
    for (const { pointer, value } of foreignKeyValues(row.data, field.dataPath)) {
      if (value !== '' && exists(field.tableId, value)) continue;
      const missing = missingByPath.get(pointer) ?? [];
      if (!missing.includes(value)) missing.push(value);
      missingByPath.set(pointer, missing);
    }
    for (const [path, missing] of missingByPath) {
      found = true;
      failures.first ??= { rowId: row.rowId, path, tableId: field.tableId, missing };
      failures.details.push({
        path,
        tableId: field.tableId,
        missingRowIds: missing,
        ...(withRowId ? { rowId: row.rowId } : {}),
        ...(row.index !== undefined ? { index: row.index } : {}),
      });
    }
  }
  return found;
}

/** The FOREIGN_KEY_NOT_FOUND refusal of the failures collected for rows of `tableId`, or null when there are none. */
export function foreignKeyError(tableId: string, failures: ForeignKeyFailures): AppError | null {
  const { first, details } = failures;
  if (first === null) return null;
  const ids = first.missing.map((id) => `"${id}"`).join(', ');
  const message =
    details.length === 1
      ? `Foreign key error at "${first.path}" in table "${tableId}" for row "${first.rowId}": ${ids} not found in table "${first.tableId}"`
      : `Foreign key check failed with ${details.length} errors in table "${tableId}"`;
  return new AppError('FOREIGN_KEY_NOT_FOUND', message, details);
}

/** Row existence in the draft's tables, looking each target table up once. */
export function draftRowExists(state: BranchContent): RowExists {
  const targets = new Map<string, DraftTable | null>();
  return (tableId, rowId) => {
    let target = targets.get(tableId);
    if (target === undefined) {
      target = draftTableById(state, tableId);
      targets.set(tableId, target);
    }
    return target !== null && draftRow(target, rowId) !== null;
  };
}

/**
 * domain.md §7: every foreign-key value must name an existing row of the target table in the draft (`""` never
 * does). Throws FOREIGN_KEY_NOT_FOUND with `{path, tableId, missingRowIds, rowId?, index?}` details. `only`
 * restricts the check to some foreign-key fields of the schema.
 */
export function assertForeignKeysExist(
  state: BranchContent,
  table: { readonly tableId: string; readonly schema: JsonObject },
  rows: readonly RowToCheck[],
  models: TableModelCache,
  withRowId: boolean,
  only?: readonly ForeignKeyField[],
): void {
  const fields = only ?? models(table.schema).foreignKeys;
  if (fields.length === 0) return;
  const exists = draftRowExists(state);
  const failures: ForeignKeyFailures = { details: [], first: null };
  for (const row of rows) collectMissingForeignKeys(failures, row, fields, exists, withRowId);
  const error = foreignKeyError(table.tableId, failures);
  if (error) throw error;
}

export type ReferencingTable = { readonly table: DraftTable; readonly fields: readonly ForeignKeyField[] };

/** Other draft tables whose schema has a foreign key to `tableId`. */
export function referencingTables(state: BranchContent, tableId: string, models: TableModelCache): ReferencingTable[] {
  const out: ReferencingTable[] = [];
  for (const table of draftTables(state)) {
    if (table.tableId === tableId) continue;
    const fields = models(table.schema).foreignKeys.filter((field) => field.tableId === tableId);
    if (fields.length > 0) out.push({ table, fields });
  }
  return out;
}

/** Whether any foreign-key value of the row (in the given fields) is in `rowIds`. */
export function referencesAny(data: JsonObject, fields: readonly ForeignKeyField[], rowIds: ReadonlySet<string>): boolean {
  return fields.some((field) => foreignKeyValues(data, field.dataPath).some(({ value }) => rowIds.has(value)));
}

/**
 * Deleting `rowIds` of `table` must leave no dangling reference: FOREIGN_KEY_IN_USE with `[{tableId, rowIds}]`
 * (referencing table and up to 100 referencing rows).
 */
export function assertRowsNotReferenced(state: BranchContent, table: DraftTable, rowIds: ReadonlySet<string>, models: TableModelCache): void {
  const details: ErrorDetail[] = [];
  let total = 0;
  for (const { table: other, fields } of referencingTables(state, table.tableId, models)) {
    const referencing: string[] = [];
    for (const [rowId, row] of draftRows(other)) {
      if (!referencesAny(row.data, fields, rowIds)) continue;
      total++;
      if (referencing.length < MAX_REFERENCING_ROWS) referencing.push(rowId);
    }
    if (referencing.length > 0) details.push({ tableId: other.tableId, rowIds: referencing });
  }
  if (details.length === 0) return;
  const rows = total === 1 ? '1 row' : `${total} rows`;
  const [only] = rowIds;
  const message =
    rowIds.size === 1 && only !== undefined
      ? `Row "${only}" in table "${table.tableId}" is referenced by ${rows}`
      : `Rows of table "${table.tableId}" are referenced by ${rows}`;
  throw new AppError('FOREIGN_KEY_IN_USE', message, details);
}

/** `data` with every value `from` at the data path replaced by `to`; the same object when nothing matched. */
export function rewriteForeignKeyValue(data: unknown, dataPath: DataPath, from: string, to: string): unknown {
  const walk = (value: unknown, index: number): unknown => {
    const segment = dataPath[index];
    if (segment === undefined) return value === from ? to : value;
    if (segment === '*') {
      if (!Array.isArray(value)) return value;
      let changed = false;
      const items = value.map((item: unknown) => {
        const next = walk(item, index + 1);
        if (next !== item) changed = true;
        return next;
      });
      return changed ? items : value;
    }
    if (!isPlainObject(value) || !Object.prototype.hasOwnProperty.call(value, segment)) return value;
    const next = walk(value[segment], index + 1);
    return next === value[segment] ? value : { ...value, [segment]: next };
  };
  return walk(data, 0);
}

/** A schema with every `foreignKey: from` replaced by `to` (key order kept); the same object when none matched. */
export function rewriteSchemaForeignKeys(schema: JsonObject, from: string, to: string): JsonObject {
  const walk = (node: unknown): unknown => {
    if (!isPlainObject(node)) return node;
    let out: Record<string, unknown> | null = null;
    const set = (key: string, value: unknown): void => {
      out ??= { ...node };
      out[key] = value;
    };
    if (node.foreignKey === from) set('foreignKey', to);
    if (isPlainObject(node.properties)) {
      const properties = node.properties;
      let changed = false;
      const next: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(properties)) {
        next[name] = walk(child);
        if (next[name] !== child) changed = true;
      }
      if (changed) set('properties', next);
    }
    if ('items' in node) {
      const items = walk(node.items);
      if (items !== node.items) set('items', items);
    }
    return out ?? node;
  };
  return walk(schema) as JsonObject;
}
