import type { JsonSchema } from '../api/types.ts';

export type LeafKind = 'string' | 'number' | 'boolean';

/** A primitive field of a table, addressable by a data path (generated-api.md §3 `path`). */
export type LeafColumn = {
  readonly path: readonly string[];
  readonly label: string;
  readonly kind: LeafKind;
  /** The `SortType` that orders this field correctly. */
  readonly sortType: 'text' | 'float' | 'boolean' | 'timestamp';
  /** The table a foreign-key field refers to (domain.md §7). */
  readonly foreignKey?: string;
};

function isLeafKind(type: unknown): type is LeafKind | 'integer' {
  return type === 'string' || type === 'number' || type === 'integer' || type === 'boolean';
}

/**
 * Primitive fields of a schema in property order, nested objects flattened (`address.city`); arrays and system
 * refs are skipped (they cannot be filtered or sorted by a single path).
 */
export function leafColumns(schema: JsonSchema, prefix: readonly string[] = []): LeafColumn[] {
  const out: LeafColumn[] = [];
  for (const [name, node] of Object.entries(schema.properties ?? {})) {
    const path = [...prefix, name];
    if (node.$ref !== undefined) continue;
    if (node.type === 'object') out.push(...leafColumns(node, path));
    else if (isLeafKind(node.type)) {
      // An integer is a number to filters and sorts.
      const kind: LeafKind = node.type === 'integer' ? 'number' : node.type;
      const sortType = kind === 'number' ? 'float' : kind === 'boolean' ? 'boolean' : node.format === 'date-time' ? 'timestamp' : 'text';
      const foreignKey = node.type === 'string' && typeof node.foreignKey === 'string' ? { foreignKey: node.foreignKey } : {};
      out.push({ path, label: path.join('.'), kind, sortType, ...foreignKey });
    }
  }
  return out;
}

/** The value a new row starts with: every property at its default (object: nested defaults, array: []). */
export function defaultValue(node: JsonSchema): unknown {
  if (node.$ref !== undefined) return '';
  switch (node.type) {
    case 'object':
      return Object.fromEntries(Object.entries(node.properties ?? {}).map(([name, child]) => [name, defaultValue(child)]));
    case 'array':
      return [];
    case 'number':
    case 'integer':
      return typeof node.default === 'number' ? node.default : 0;
    case 'boolean':
      return typeof node.default === 'boolean' ? node.default : false;
    default:
      return typeof node.default === 'string' ? node.default : '';
  }
}

export function valueAt(data: unknown, path: readonly string[]): unknown {
  let current = data;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** A short display form of a cell value. */
export function cellText(value: unknown, max = 80): string {
  if (value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
