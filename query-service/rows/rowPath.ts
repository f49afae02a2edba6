import type { JsonPathSegment, TableModel, TableModelNode } from '../../contracts/index.ts';
import { badInput, type InputPath } from './rowQueryError.ts';

/** A data path checked against the table schema: store segments (indexes as numbers, `*`) and the node reached. */
export type ResolvedPath = { readonly segments: readonly JsonPathSegment[]; readonly node: TableModelNode };

const INDEX = /^(0|[1-9][0-9]*)$/;
const NAME = /^[^.[\]]+/;
const BRACKET = /^\[(\*|0|[1-9][0-9]*)\]/;

/** `items[0].price` -> `['items', '0', 'price']`; `tags[*]` -> `['tags', '*']`; null when malformed. */
export function splitDotBracket(text: string): string[] | null {
  const out: string[] = [];
  let rest = text;
  while (rest.length > 0) {
    const bracket = BRACKET.exec(rest);
    if (bracket) {
      out.push(bracket[1] as string);
      rest = rest.slice(bracket[0].length);
      continue;
    }
    if (out.length > 0) {
      if (!rest.startsWith('.')) return null;
      rest = rest.slice(1);
    }
    const name = NAME.exec(rest);
    if (!name) return null;
    out.push(name[0]);
    rest = rest.slice(name[0].length);
  }
  return out.length === 0 ? null : out;
}

/** The path argument of a JsonFilter/JsonOrderByInput as raw segments (a single string is a one-item list). */
export function parsePathInput(input: unknown, at: InputPath): string[] {
  const list: unknown[] = typeof input === 'string' ? [input] : Array.isArray(input) ? input : [];
  if (typeof input !== 'string' && !Array.isArray(input)) throw badInput(at, 'path must be a string or a list of strings');
  const out: string[] = [];
  for (const [i, item] of list.entries()) {
    if (typeof item === 'number' && Number.isSafeInteger(item) && item >= 0) {
      out.push(String(item));
      continue;
    }
    if (typeof item !== 'string' || item === '') throw badInput([...at, i], 'path segments must be non-empty strings');
    if (item.includes('.') || item.includes('[')) {
      const split = splitDotBracket(item);
      if (split === null) throw badInput([...at, i], `"${item}" is not a valid dot/bracket path`);
      out.push(...split);
    } else {
      out.push(item);
    }
  }
  if (out.length === 0) throw badInput(at, 'path must not be empty');
  return out;
}

/**
 * Resolves raw segments in the table schema: property names in objects, decimal indexes or (when `allowStar`)
 * `*` in arrays. Paths leaving the schema, entering a system-ref field or going below a scalar are refused.
 */
export function resolveDataPath(model: TableModel, raw: readonly string[], at: InputPath, allowStar: boolean): ResolvedPath {
  let node: TableModelNode = model.root;
  const segments: JsonPathSegment[] = [];
  const shown = (): string => raw.join('.');
  for (const segment of raw) {
    if (node.kind === 'object') {
      const child = node.byName.get(segment);
      if (child === undefined) throw badInput(at, `path "${shown()}" does not exist in the table schema`);
      node = child;
      segments.push(segment);
    } else if (node.kind === 'array') {
      if (segment === '*' && allowStar) segments.push('*');
      else if (INDEX.test(segment) && Number.isSafeInteger(Number(segment))) segments.push(Number(segment));
      else throw badInput(at, `path "${shown()}": "${segment}" is not ${allowStar ? 'an array index or *' : 'an array index'}`);
      node = node.items;
    } else {
      throw badInput(at, `path "${shown()}" does not exist in the table schema`);
    }
    if (node.kind === 'systemRef') throw badInput(at, `path "${shown()}" enters a system-ref field`);
  }
  return { segments, node };
}

/** The raw value of `data` at a resolved path without `*` (undefined when the row lacks it). */
export function valueAtPath(data: unknown, segments: readonly JsonPathSegment[]): unknown {
  let value = data;
  for (const segment of segments) {
    if (typeof segment === 'number') {
      if (!Array.isArray(value)) return undefined;
      value = value[segment] as unknown;
    } else {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
      if (!Object.prototype.hasOwnProperty.call(value, segment)) return undefined;
      value = (value as Record<string, unknown>)[segment];
    }
  }
  return value;
}
