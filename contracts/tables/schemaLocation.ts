import { isPlainObject } from './jsonValue.ts';

/**
 * Where a schema patch path points (domain.md §6): a node path made of `/properties/<name>` and `/items`
 * segments, or a keyword path (a keyword of an existing node, optionally into its value).
 */
type Json = Record<string, unknown>;

export type NodeLocation = {
  readonly kind: 'node';
  readonly tokens: readonly string[];
  /** Data path: property names and `'*'` for every array element. */
  readonly dataPath: readonly string[];
  /** `root` for `""`, `property` for `/…/properties/<name>`, `items` for `/…/items`. */
  readonly via: 'root' | 'property' | 'items';
  /** The enclosing object node (property) or array node (items); null for the root. */
  readonly parent: Json | null;
  /** The property name (or `items`). */
  readonly name: string;
  /** The node, or undefined for a property that does not exist yet (its parent does). */
  readonly node: unknown;
};

export type KeywordLocation = {
  readonly kind: 'keyword';
  readonly node: Json;
  readonly isRoot: boolean;
  readonly keyword: string;
  /** `[keyword, ...tokens inside the keyword value]`, relative to `node`. */
  readonly tokens: readonly string[];
};

export type SchemaLocation = NodeLocation | KeywordLocation;

const hasOwn = (value: object, key: string): boolean => Object.prototype.hasOwnProperty.call(value, key);

export function isObjectNode(node: unknown): node is Json & { properties: Json } {
  return isPlainObject(node) && !hasOwn(node, '$ref') && node.type === 'object' && isPlainObject(node.properties);
}

export function isArrayNode(node: unknown): node is Json & { items: unknown } {
  return isPlainObject(node) && !hasOwn(node, '$ref') && node.type === 'array' && hasOwn(node, 'items');
}

/** Null when the path is neither a node path nor a keyword path of an existing node. */
export function locateInSchema(root: Json, tokens: readonly string[]): SchemaLocation | null {
  let node: unknown = root;
  let parent: Json | null = null;
  let via: NodeLocation['via'] = 'root';
  let name = '';
  const dataPath: string[] = [];
  let i = 0;
  while (i < tokens.length) {
    if (!isPlainObject(node)) return null;
    const token = tokens[i] as string;
    const next = tokens[i + 1];
    if (isObjectNode(node) && token === 'properties' && next !== undefined) {
      const child = hasOwn(node.properties, next) ? node.properties[next] : undefined;
      if (child === undefined && i + 2 < tokens.length) return null;
      parent = node;
      via = 'property';
      name = next;
      node = child;
      dataPath.push(next);
      i += 2;
    } else if (isArrayNode(node) && token === 'items') {
      parent = node;
      via = 'items';
      name = 'items';
      node = node.items;
      dataPath.push('*');
      i += 1;
    } else {
      return { kind: 'keyword', node, isRoot: i === 0, keyword: token, tokens: tokens.slice(i) };
    }
  }
  return { kind: 'node', tokens, dataPath, via, parent, name, node };
}

/** The array context of a data path: everything up to and including its last `'*'`. */
export function splitArrayContext(dataPath: readonly string[]): { context: readonly string[]; rest: readonly string[] } {
  const last = dataPath.lastIndexOf('*');
  return { context: dataPath.slice(0, last + 1), rest: dataPath.slice(last + 1) };
}
