import { isPlainObject } from '../../contracts/index.ts';
import type { TableModelNode } from '../../contracts/index.ts';

/**
 * An equality operand in stored form for the schema node it is compared with: object keys in schema order
 * (stores compare objects by their stored JSON text), `-0` as `0`, system-ref fields as `""`, as normalizeRowData
 * writes row data. Values that do not fit the node are returned unchanged (they simply never match).
 */
export function normalizeOperand(node: TableModelNode, value: unknown): unknown {
  switch (node.kind) {
    case 'systemRef':
      return typeof value === 'string' ? '' : value;
    case 'number':
      return Object.is(value, -0) ? 0 : value;
    case 'string':
    case 'boolean':
      return value;
    case 'array':
      return Array.isArray(value) ? value.map((item: unknown) => normalizeOperand(node.items, item)) : value;
    case 'object': {
      if (!isPlainObject(value)) return value;
      const out: Record<string, unknown> = {};
      for (const { name, node: child } of node.properties) {
        if (Object.prototype.hasOwnProperty.call(value, name)) out[name] = normalizeOperand(child, value[name]);
      }
      for (const key of Object.keys(value)) if (!node.byName.has(key)) out[key] = value[key];
      return out;
    }
  }
}
