import { defaultValueOf } from '../../contracts/index.ts';
import type { JsonObject, JsonValue, TableModel, TableModelNode } from '../../contracts/index.ts';

/**
 * One CSV column of a table (portability.md §1): a leaf of the schema named by its data path without the leading
 * slash (`address/city`). Strings, numbers and booleans are plain cells; arrays, system refs and objects without
 * properties hold their JSON text.
 */
export type CsvColumn = {
  readonly name: string;
  readonly path: readonly string[];
  readonly kind: 'string' | 'number' | 'boolean' | 'json';
  readonly node: TableModelNode;
};

/** The columns after `id`, in `properties` order, depth first. */
export function csvColumnsOf(model: TableModel): CsvColumn[] {
  const columns: CsvColumn[] = [];
  const visit = (node: TableModelNode, path: readonly string[]): void => {
    if (node.kind === 'object' && node.properties.length > 0 && path.length > 0) {
      for (const property of node.properties) visit(property.node, [...path, property.name]);
      return;
    }
    if (node.kind === 'object' && path.length === 0) {
      for (const property of node.properties) visit(property.node, [property.name]);
      return;
    }
    const kind = node.kind === 'string' || node.kind === 'number' || node.kind === 'boolean' ? node.kind : 'json';
    columns.push({ name: path.join('/'), path, kind, node });
  };
  visit(model.root, []);
  return columns;
}

function valueAt(data: unknown, path: readonly string[]): unknown {
  let at = data;
  for (const key of path) {
    if (at === null || typeof at !== 'object' || Array.isArray(at)) return undefined;
    at = Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined;
  }
  return at;
}

/** A row as CSV cells: `id`, then each column (numbers in JavaScript's shortest round-trip form). */
export function csvCellsOf(columns: readonly CsvColumn[], id: string, data: unknown): string[] {
  const cells = [id];
  for (const column of columns) {
    const value = valueAt(data, column.path);
    if (value === undefined) cells.push('');
    else if (column.kind === 'json') cells.push(JSON.stringify(value));
    else if (typeof value === 'string') cells.push(value);
    else if (typeof value === 'number' || typeof value === 'boolean') cells.push(String(value));
    else cells.push(JSON.stringify(value));
  }
  return cells;
}

const NUMBER_TEXT = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/** Why a cell cannot be its column's value (a line error), or the value. */
export type CellValue = { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly message: string };

/**
 * A cell read back: strings as they are; an empty cell of a number, boolean or JSON column takes the schema
 * default (a spreadsheet's blank); numbers in any JSON-like decimal form; booleans `true`/`false`; JSON columns
 * parsed.
 */
export function cellValue(column: CsvColumn, cell: string): CellValue {
  if (column.kind === 'string') return { ok: true, value: cell };
  if (cell === '') return { ok: true, value: defaultValueOf(column.node) };
  switch (column.kind) {
    case 'number': {
      const value = NUMBER_TEXT.test(cell) ? Number(cell) : Number.NaN;
      return Number.isFinite(value) ? { ok: true, value } : { ok: false, message: `"${column.name}" must be a number, got "${cell}"` };
    }
    case 'boolean':
      if (cell === 'true' || cell === 'false') return { ok: true, value: cell === 'true' };
      return { ok: false, message: `"${column.name}" must be true or false, got "${cell}"` };
    case 'json':
      try {
        return { ok: true, value: JSON.parse(cell) as JsonValue };
      } catch {
        return { ok: false, message: `"${column.name}" must hold JSON text` };
      }
  }
}

/** Sets `value` at `path` in `data`, creating the objects on the way. */
export function setAtPath(data: JsonObject, path: readonly string[], value: JsonValue): void {
  let at = data as Record<string, JsonValue>;
  for (const [i, key] of path.entries()) {
    if (i === path.length - 1) {
      at[key] = value;
      return;
    }
    const next = at[key];
    if (next === undefined || next === null || typeof next !== 'object' || Array.isArray(next)) at[key] = {};
    at = at[key] as Record<string, JsonValue>;
  }
}
