import { isPlainObject } from './jsonValue.ts';
import type { TableModel, TableModelNode } from './tableModel.ts';
import { SYSTEM_REFS, type SystemRefUrn } from './tableSchema.ts';

/**
 * A value in stored form for its schema node: object keys in schema `properties` order (stores compare objects by
 * their stored JSON text), `-0` as `0`, system-ref strings as `""`. Used for row data (validated: a system-ref field
 * holds a string) and for the equality operands of row queries, which must match the stored form; a value that does
 * not fit the node is returned unchanged (as an operand it simply never matches).
 */
export function normalizeValue(node: TableModelNode, value: unknown): unknown {
  switch (node.kind) {
    case 'systemRef':
      return typeof value === 'string' ? '' : value;
    case 'number':
      return Object.is(value, -0) ? 0 : value;
    case 'string':
    case 'boolean':
      return value;
    case 'array':
      return Array.isArray(value) ? value.map((item: unknown) => normalizeValue(node.items, item)) : value;
    case 'object': {
      if (!isPlainObject(value)) return value;
      const out: Record<string, unknown> = {};
      for (const { name, node: child } of node.properties) {
        if (Object.prototype.hasOwnProperty.call(value, name)) out[name] = normalizeValue(child, value[name]);
      }
      // Validated data has no other keys; keep any anyway rather than lose data silently.
      for (const key of Object.keys(value)) if (!node.byName.has(key)) out[key] = value[key];
      return out;
    }
  }
}

/**
 * The stored form of (validated) row data: object keys in schema `properties` order, `-0` as `0`, system-ref
 * fields as `""`. Returns a new value; the input is not changed.
 */
export function normalizeRowData(model: TableModel, data: unknown): unknown {
  return normalizeValue(model.root, data);
}

/** Values of the system refs for one row; the hashes may be computed lazily (only when the table uses them). */
export type SystemRefValues = {
  readonly id: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly hash: string | (() => string);
  readonly schemaHash: string | (() => string);
};

function setAt(value: unknown, path: readonly string[], index: number, fill: string): unknown {
  const segment = path[index];
  if (segment === undefined) return fill;
  if (segment === '*') {
    return Array.isArray(value) ? value.map((item: unknown) => setAt(item, path, index + 1, fill)) : value;
  }
  if (!isPlainObject(value)) return value;
  const isLast = index === path.length - 1;
  if (!isLast && !Object.prototype.hasOwnProperty.call(value, segment)) return value;
  return { ...value, [segment]: setAt(value[segment], path, index + 1, fill) };
}

/**
 * The read form of stored row data (domain.md §5.3): every system-ref field filled. Copies only the objects and
 * arrays on the way to a system-ref field and shares the rest; returns `data` itself when the table has none.
 */
export function fillSystemRefs(model: TableModel, data: unknown, values: SystemRefValues): unknown {
  if (model.systemRefs.length === 0) return data;
  const cache = new Map<SystemRefUrn, string>();
  const valueOf = (ref: SystemRefUrn): string => {
    const cached = cache.get(ref);
    if (cached !== undefined) return cached;
    let resolved: string | (() => string);
    switch (ref) {
      case SYSTEM_REFS.rowId:
        resolved = values.id;
        break;
      case SYSTEM_REFS.rowCreatedAt:
        resolved = values.createdAt;
        break;
      case SYSTEM_REFS.rowUpdatedAt:
        resolved = values.updatedAt;
        break;
      case SYSTEM_REFS.rowHash:
        resolved = values.hash;
        break;
      case SYSTEM_REFS.rowSchemaHash:
        resolved = values.schemaHash;
        break;
    }
    const text = typeof resolved === 'function' ? resolved() : resolved;
    cache.set(ref, text);
    return text;
  };
  let out = data;
  for (const field of model.systemRefs) out = setAt(out, field.dataPath, 0, valueOf(field.ref));
  return out;
}
