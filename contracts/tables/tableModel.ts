import { invariant } from '../errors/appError.ts';
import type { JsonValue } from './jsonValue.ts';
import {
  isSystemRefUrn,
  type ContentMediaType,
  type PropertySchema,
  type StringFormat,
  type SystemRefUrn,
  type TableSchema,
} from './tableSchema.ts';

/**
 * The compiled form of a (valid) table schema shared by validation, GraphQL, REST, OpenAPI and MCP. Object
 * properties keep their schema order.
 */
type NodeAnnotations = {
  readonly title?: string;
  readonly description?: string;
  readonly deprecated?: boolean;
};

export type StringNode = NodeAnnotations & {
  readonly kind: 'string';
  readonly default: string;
  readonly readOnly?: boolean;
  readonly pattern?: string;
  readonly enum?: readonly string[];
  readonly format?: StringFormat;
  readonly contentMediaType?: ContentMediaType;
  readonly foreignKey?: string;
};

export type NumberNode = NodeAnnotations & { readonly kind: 'number'; readonly default: number; readonly readOnly?: boolean };

export type BooleanNode = NodeAnnotations & { readonly kind: 'boolean'; readonly default: boolean; readonly readOnly?: boolean };

export type TableProperty = { readonly name: string; readonly node: TableModelNode };

export type ObjectNode = NodeAnnotations & {
  readonly kind: 'object';
  /** In schema `properties` order. */
  readonly properties: readonly TableProperty[];
  readonly byName: ReadonlyMap<string, TableModelNode>;
};

export type ArrayNode = NodeAnnotations & { readonly kind: 'array'; readonly items: TableModelNode };

export type SystemRefNode = NodeAnnotations & { readonly kind: 'systemRef'; readonly ref: SystemRefUrn };

export type TableModelNode = StringNode | NumberNode | BooleanNode | ObjectNode | ArrayNode | SystemRefNode;

/** A path into row data: property names, and `'*'` for "every element" of an array. */
export type DataPath = readonly string[];

export type ForeignKeyField = { readonly dataPath: DataPath; readonly tableId: string };
export type SystemRefField = { readonly dataPath: DataPath; readonly ref: SystemRefUrn };

export type TableModel = {
  readonly root: ObjectNode;
  /** Every string node with a `foreignKey`, in schema order. */
  readonly foreignKeys: readonly ForeignKeyField[];
  /** Every system-ref property, in schema order. */
  readonly systemRefs: readonly SystemRefField[];
};

type Collected = { foreignKeys: ForeignKeyField[]; systemRefs: SystemRefField[] };

function annotationsOf(schema: Readonly<Record<string, unknown>>): NodeAnnotations {
  const out: { title?: string; description?: string; deprecated?: boolean } = {};
  if (typeof schema.title === 'string') out.title = schema.title;
  if (typeof schema.description === 'string') out.description = schema.description;
  if (typeof schema.deprecated === 'boolean') out.deprecated = schema.deprecated;
  return out;
}

function compileNode(schema: PropertySchema, path: string[], collected: Collected): TableModelNode {
  const raw = schema as Readonly<Record<string, unknown>>;
  const annotations = annotationsOf(raw);
  if ('$ref' in schema) {
    invariant(isSystemRefUrn(schema.$ref), 'compileTableModel needs a valid schema');
    collected.systemRefs.push({ dataPath: path, ref: schema.$ref });
    return { kind: 'systemRef', ref: schema.$ref, ...annotations };
  }
  switch (schema.type) {
    case 'string': {
      const node: { -readonly [K in keyof StringNode]: StringNode[K] } = { kind: 'string', default: schema.default, ...annotations };
      if (schema.readOnly !== undefined) node.readOnly = schema.readOnly;
      if (schema.pattern !== undefined) node.pattern = schema.pattern;
      if (schema.enum !== undefined) node.enum = [...schema.enum];
      if (schema.format !== undefined) node.format = schema.format;
      if (schema.contentMediaType !== undefined) node.contentMediaType = schema.contentMediaType;
      if (schema.foreignKey !== undefined) {
        node.foreignKey = schema.foreignKey;
        collected.foreignKeys.push({ dataPath: path, tableId: schema.foreignKey });
      }
      return node;
    }
    case 'number':
      // -0 is stored as 0 (domain.md §5.1 rule 9).
      return { kind: 'number', default: Object.is(schema.default, -0) ? 0 : schema.default, ...annotations, ...(schema.readOnly !== undefined ? { readOnly: schema.readOnly } : {}) };
    case 'boolean':
      return { kind: 'boolean', default: schema.default, ...annotations, ...(schema.readOnly !== undefined ? { readOnly: schema.readOnly } : {}) };
    case 'object': {
      const properties: TableProperty[] = [];
      const byName = new Map<string, TableModelNode>();
      for (const [name, child] of Object.entries(schema.properties)) {
        const node = compileNode(child, [...path, name], collected);
        properties.push({ name, node });
        byName.set(name, node);
      }
      return { kind: 'object', properties, byName, ...annotations };
    }
    case 'array':
      return { kind: 'array', items: compileNode(schema.items, [...path, '*'], collected), ...annotations };
    default:
      invariant(false, 'compileTableModel needs a valid schema');
  }
}

/** Compiles an already valid schema (see assertValidTableSchema); an invalid one is a bug of the caller. */
export function compileTableModel(schema: TableSchema): TableModel {
  const collected: Collected = { foreignKeys: [], systemRefs: [] };
  const root = compileNode(schema, [], collected);
  invariant(root.kind === 'object', 'a table schema root is an object node');
  return { root, foreignKeys: collected.foreignKeys, systemRefs: collected.systemRefs };
}

/** Foreign-key fields with their data paths, e.g. `['author']`, `['tags', '*']`, `['address', 'city']`. */
export function foreignKeyFields(model: TableModel): readonly ForeignKeyField[] {
  return model.foreignKeys;
}

/**
 * The node at a data path: property names in objects; a numeric index, a digit string or `'*'` in arrays.
 * Null when the path leaves the schema.
 */
export function nodeAtDataPath(model: TableModel, segments: readonly (string | number)[]): TableModelNode | null {
  let node: TableModelNode = model.root;
  for (const segment of segments) {
    if (node.kind === 'object') {
      if (typeof segment !== 'string') return null;
      const child = node.byName.get(segment);
      if (child === undefined) return null;
      node = child;
    } else if (node.kind === 'array') {
      const isIndex =
        (typeof segment === 'number' && Number.isInteger(segment) && segment >= 0) ||
        segment === '*' ||
        (typeof segment === 'string' && /^(0|[1-9][0-9]*)$/.test(segment));
      if (!isIndex) return null;
      node = node.items;
    } else {
      return null;
    }
  }
  return node;
}

/** A fresh default value: the node's `default`; objects from nested defaults; arrays `[]`; system refs `""`. */
export function defaultValueOf(node: TableModelNode): JsonValue {
  switch (node.kind) {
    case 'string':
    case 'number':
    case 'boolean':
      return node.default;
    case 'systemRef':
      return '';
    case 'array':
      return [];
    case 'object': {
      const out: { [key: string]: JsonValue } = {};
      for (const { name, node: child } of node.properties) out[name] = defaultValueOf(child);
      return out;
    }
  }
}
