import { invariant } from '../errors/appError.ts';
import type { JsonValue } from './jsonValue.ts';
import { isSystemRefUrn, type ContentMediaType, type PropertySchema, type StringFormat, type SystemRefUrn, type TableSchema } from './tableSchema.ts';

/**
 * The compiled form of a (valid) table schema shared by validation, GraphQL, REST, OpenAPI and MCP. Object
 * properties keep their schema order.
 */
type NodeAnnotations = {
  readonly title?: string;
  readonly description?: string;
  readonly deprecated?: boolean;
};

/** `x-unique` / `x-index` of domain.md §5.5, set only when true. */
type IndexFlags = {
  readonly unique?: true;
  readonly indexed?: true;
};

export type StringNode = NodeAnnotations &
  IndexFlags & {
    readonly kind: 'string';
    readonly default: string;
    readonly readOnly?: boolean;
    readonly minLength?: number;
    readonly maxLength?: number;
    readonly pattern?: string;
    readonly enum?: readonly string[];
    readonly format?: StringFormat;
    readonly contentMediaType?: ContentMediaType;
    readonly foreignKey?: string;
  };

/**
 * A `number` or an `integer` schema node. Both are JSON numbers in rows, so every reader that compares, filters or
 * sorts them treats them alike; only the surfaces that name a type (GraphQL `Int`, OpenAPI `integer`) and the
 * conversions read `integer`.
 */
export type NumberNode = NodeAnnotations &
  IndexFlags & {
    readonly kind: 'number';
    readonly integer?: true;
    readonly default: number;
    readonly readOnly?: boolean;
    readonly minimum?: number;
    readonly maximum?: number;
  };

export type BooleanNode = NodeAnnotations & {
  readonly kind: 'boolean';
  readonly default: boolean;
  readonly readOnly?: boolean;
  readonly indexed?: true;
};

export type TableProperty = { readonly name: string; readonly node: TableModelNode };

export type ObjectNode = NodeAnnotations & {
  readonly kind: 'object';
  /** In schema `properties` order. */
  readonly properties: readonly TableProperty[];
  readonly byName: ReadonlyMap<string, TableModelNode>;
};

export type ArrayNode = NodeAnnotations & {
  readonly kind: 'array';
  readonly items: TableModelNode;
  readonly minItems?: number;
  readonly maxItems?: number;
};

export type SystemRefNode = NodeAnnotations & { readonly kind: 'systemRef'; readonly ref: SystemRefUrn };

export type TableModelNode = StringNode | NumberNode | BooleanNode | ObjectNode | ArrayNode | SystemRefNode;

/** A path into row data: property names, and `'*'` for "every element" of an array. */
export type DataPath = readonly string[];

export type ForeignKeyField = { readonly dataPath: DataPath; readonly tableId: string };
export type SystemRefField = { readonly dataPath: DataPath; readonly ref: SystemRefUrn };
/**
 * A field the views index (domain.md §5.5): `x-index`, or `x-unique` (a unique field is also indexed). Its data path
 * never crosses an array.
 */
export type IndexedField = { readonly dataPath: DataPath; readonly kind: 'string' | 'number' | 'boolean'; readonly unique: boolean };

export type TableModel = {
  readonly root: ObjectNode;
  /** Every string node with a `foreignKey`, in schema order. */
  readonly foreignKeys: readonly ForeignKeyField[];
  /** Every system-ref property, in schema order. */
  readonly systemRefs: readonly SystemRefField[];
  /** Every `x-index` or `x-unique` field, in schema order. */
  readonly indexedFields: readonly IndexedField[];
};

type Collected = { foreignKeys: ForeignKeyField[]; systemRefs: SystemRefField[]; indexedFields: IndexedField[] };

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function indexFlags(raw: Readonly<Record<string, unknown>>, kind: IndexedField['kind'], path: string[], collected: Collected): IndexFlags {
  const unique = raw['x-unique'] === true;
  const indexed = unique || raw['x-index'] === true;
  if (!indexed) return {};
  collected.indexedFields.push({ dataPath: path, kind, unique });
  return unique ? { unique: true, indexed: true } : { indexed: true };
}

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
      const node: Mutable<StringNode> = { kind: 'string', default: schema.default, ...annotations, ...indexFlags(raw, 'string', path, collected) };
      if (schema.readOnly !== undefined) node.readOnly = schema.readOnly;
      if (schema.minLength !== undefined) node.minLength = schema.minLength;
      if (schema.maxLength !== undefined) node.maxLength = schema.maxLength;
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
    case 'integer': {
      // -0 is stored as 0 (domain.md §5.1 rule 9).
      const node: Mutable<NumberNode> = {
        kind: 'number',
        default: Object.is(schema.default, -0) ? 0 : schema.default,
        ...annotations,
        ...indexFlags(raw, 'number', path, collected),
      };
      if (schema.type === 'integer') node.integer = true;
      if (schema.readOnly !== undefined) node.readOnly = schema.readOnly;
      if (schema.minimum !== undefined) node.minimum = schema.minimum;
      if (schema.maximum !== undefined) node.maximum = schema.maximum;
      return node;
    }
    case 'boolean':
      return {
        kind: 'boolean',
        default: schema.default,
        ...annotations,
        ...(schema.readOnly !== undefined ? { readOnly: schema.readOnly } : {}),
        ...(raw['x-index'] === true ? indexFlags(raw, 'boolean', path, collected) : {}),
      };
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
    case 'array': {
      const node: Mutable<ArrayNode> = { kind: 'array', items: compileNode(schema.items, [...path, '*'], collected), ...annotations };
      if (schema.minItems !== undefined) node.minItems = schema.minItems;
      if (schema.maxItems !== undefined) node.maxItems = schema.maxItems;
      return node;
    }
    default:
      invariant(false, 'compileTableModel needs a valid schema');
  }
}

/** Compiles an already valid schema (see assertValidTableSchema); an invalid one is a bug of the caller. */
export function compileTableModel(schema: TableSchema): TableModel {
  const collected: Collected = { foreignKeys: [], systemRefs: [], indexedFields: [] };
  const root = compileNode(schema, [], collected);
  invariant(root.kind === 'object', 'a table schema root is an object node');
  return { root, foreignKeys: collected.foreignKeys, systemRefs: collected.systemRefs, indexedFields: collected.indexedFields };
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
