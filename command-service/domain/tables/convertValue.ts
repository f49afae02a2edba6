import { isPlainObject } from '../../../contracts/index.ts';
import { setOwn } from './jsonPatchValue.ts';

/**
 * Data conversions of domain.md §6 for `replace` at a node path. They work on raw (not yet validated) schema
 * nodes, because a patch may pass through invalid intermediate schemas; the final schema and rows are validated
 * afterwards. The old kind is read from the value itself, which equals the old node's kind for valid rows.
 */

type NodeKind = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'systemRef' | 'unknown';

export function nodeKind(node: unknown): NodeKind {
  if (!isPlainObject(node)) return 'unknown';
  if (Object.prototype.hasOwnProperty.call(node, '$ref')) return 'systemRef';
  const { type } = node;
  return type === 'string' || type === 'number' || type === 'boolean' || type === 'object' || type === 'array'
    ? type
    : 'unknown';
}

/** The node's default as `add` fills it in: objects from nested defaults, arrays `[]`, system refs `""`. */
export function rawDefault(node: unknown): unknown {
  const kind = nodeKind(node);
  const raw = isPlainObject(node) ? node : {};
  switch (kind) {
    case 'string':
      return typeof raw.default === 'string' ? raw.default : '';
    case 'number':
      return typeof raw.default === 'number' && Number.isFinite(raw.default) ? zeroFix(raw.default) : 0;
    case 'boolean':
      return typeof raw.default === 'boolean' ? raw.default : false;
    case 'systemRef':
      return '';
    case 'array':
      return [];
    case 'object': {
      const out: Record<string, unknown> = {};
      if (isPlainObject(raw.properties)) {
        for (const [name, child] of Object.entries(raw.properties)) setOwn(out, name, rawDefault(child));
      }
      return out;
    }
    case 'unknown':
      return null;
  }
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function zeroFix(n: number): number {
  return n === 0 ? 0 : n;
}

/** string -> number: a non-empty finite decimal literal after trimming, else 0. */
export function parseDecimal(text: string): number {
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed)) return 0;
  const n = Number(trimmed);
  return Number.isFinite(n) ? zeroFix(n) : 0;
}

function convertPrimitive(value: string | number | boolean, to: 'string' | 'number' | 'boolean'): string | number | boolean {
  switch (to) {
    case 'string':
      return typeof value === 'string' ? value : String(value);
    case 'number':
      if (typeof value === 'number') return zeroFix(value);
      return typeof value === 'boolean' ? (value ? 1 : 0) : parseDecimal(value);
    case 'boolean':
      if (typeof value === 'boolean') return value;
      return typeof value === 'number' ? value !== 0 : value === 'true';
  }
}

function isPrimitive(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** Converts a stored value to the kind of node `to` (the conversion table of domain.md §6). */
export function convertValue(value: unknown, to: unknown): unknown {
  const kind = nodeKind(to);
  const node = isPlainObject(to) ? to : {};
  switch (kind) {
    case 'unknown':
      return value;
    case 'systemRef':
      return '';
    case 'object': {
      if (!isPlainObject(value)) return rawDefault(to);
      const out: Record<string, unknown> = {};
      if (isPlainObject(node.properties)) {
        for (const [name, child] of Object.entries(node.properties)) {
          const has = Object.prototype.hasOwnProperty.call(value, name);
          setOwn(out, name, has ? convertValue(value[name], child) : rawDefault(child));
        }
      }
      return out;
    }
    case 'array':
      if (Array.isArray(value)) return value.map((item: unknown) => convertValue(item, node.items));
      return isPrimitive(value) ? [convertValue(value, node.items)] : [];
    case 'string':
    case 'number':
    case 'boolean':
      if (Array.isArray(value)) return value.length > 0 ? convertValue(value[0], to) : rawDefault(to);
      return isPrimitive(value) ? convertPrimitive(value, kind) : rawDefault(to);
  }
}
