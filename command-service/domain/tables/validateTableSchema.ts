import {
  AppError,
  CONTENT_MEDIA_TYPES,
  MAX_ERROR_DETAILS,
  MAX_INDEXED_FIELDS,
  MAX_SCHEMA_BYTES,
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_NODES,
  STRING_FORMATS,
  escapePointerToken,
  isContentMediaType,
  isPlainObject,
  isStringFormat,
  isSystemRefUrn,
  isValidPropertyName,
  type TableSchema,
} from '../../../contracts/index.ts';
import { createFormatCheckers, type FormatChecker } from './formatCheckers.ts';
import { compileLinearPattern, type LinearPattern } from './linearPattern.ts';
import { INDEX_KEYWORDS, checkBounds, checkIndexKeywords, checkNumberNode, isLength, type Report } from './schemaKeywordChecks.ts';

export type TableSchemaContext = {
  /** Ids of the tables of the revision (the table itself included when it exists). */
  readonly existingTableIds: readonly string[];
  /** Id of the table the schema belongs to: a `foreignKey` may not name it. */
  readonly selfTableId: string;
};

type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';
type Role = 'root' | 'property' | 'items';
type Node = Readonly<Record<string, unknown>>;

const ANNOTATIONS = ['title', 'description', 'deprecated'];
const KEYS: Readonly<Record<Kind | 'systemRef', { required: readonly string[]; optional: readonly string[] }>> = {
  string: {
    required: ['type', 'default'],
    optional: [
      'readOnly',
      'minLength',
      'maxLength',
      'pattern',
      'enum',
      'format',
      'contentMediaType',
      'foreignKey',
      ...INDEX_KEYWORDS,
      ...ANNOTATIONS,
    ],
  },
  number: { required: ['type', 'default'], optional: ['readOnly', 'minimum', 'maximum', ...INDEX_KEYWORDS, ...ANNOTATIONS] },
  integer: { required: ['type', 'default'], optional: ['readOnly', 'minimum', 'maximum', ...INDEX_KEYWORDS, ...ANNOTATIONS] },
  boolean: { required: ['type', 'default'], optional: ['readOnly', 'x-index', ...ANNOTATIONS] },
  object: { required: ['type', 'properties', 'additionalProperties', 'required'], optional: ANNOTATIONS },
  array: { required: ['type', 'items'], optional: ['minItems', 'maxItems', ...ANNOTATIONS] },
  systemRef: { required: ['$ref'], optional: ANNOTATIONS },
};
const KINDS: readonly string[] = ['string', 'number', 'integer', 'boolean', 'object', 'array'];
const hasOwn = (node: Node, key: string): boolean => Object.prototype.hasOwnProperty.call(node, key);
const quoteList = (values: readonly string[]): string => values.map((v) => `"${v}"`).join(', ');

type Walker = {
  readonly context: TableSchemaContext;
  readonly formats: Readonly<Record<string, FormatChecker>>;
  readonly details: { path: string; message: string }[];
  count: number;
  nodes: number;
  /** Arrays enclosing the node being walked: `x-unique` / `x-index` are not allowed inside one. */
  arrays: number;
  /** Properties marked `x-index` or `x-unique`, at most MAX_INDEXED_FIELDS. */
  indexed: number;
};

function report(w: Walker, path: string, message: string): void {
  w.count++;
  if (w.details.length < MAX_ERROR_DETAILS) w.details.push({ path, message });
}

const reporter =
  (w: Walker): Report =>
  (path, message) =>
    report(w, path, message);

function checkKeys(w: Walker, node: Node, path: string, kind: Kind | 'systemRef'): void {
  const { required, optional } = KEYS[kind];
  const label = kind === 'systemRef' ? 'a system ref' : `a ${kind} node`;
  for (const key of Object.keys(node)) {
    if (!required.includes(key) && !optional.includes(key)) {
      report(w, `${path}/${escapePointerToken(key)}`, `keyword "${key}" is not allowed on ${label}`);
    }
  }
  for (const key of required) if (!hasOwn(node, key)) report(w, `${path}/${key}`, `is required on ${label}`);
  if (hasOwn(node, 'title') && typeof node.title !== 'string') report(w, `${path}/title`, 'must be a string');
  if (hasOwn(node, 'description') && typeof node.description !== 'string') report(w, `${path}/description`, 'must be a string');
  if (hasOwn(node, 'deprecated') && typeof node.deprecated !== 'boolean') report(w, `${path}/deprecated`, 'must be a boolean');
  if (hasOwn(node, 'readOnly') && typeof node.readOnly !== 'boolean') report(w, `${path}/readOnly`, 'must be a boolean');
}

function compilePattern(w: Walker, node: Node, path: string): LinearPattern | undefined {
  if (!hasOwn(node, 'pattern')) return undefined;
  if (typeof node.pattern !== 'string') {
    report(w, `${path}/pattern`, 'must be a string');
    return undefined;
  }
  const compiled = compileLinearPattern(node.pattern);
  if (compiled.ok) return compiled.pattern;
  report(w, `${path}/pattern`, compiled.message);
  return undefined;
}

function checkEnum(w: Walker, node: Node, path: string): readonly string[] | undefined {
  if (!hasOwn(node, 'enum')) return undefined;
  const values = node.enum;
  if (!Array.isArray(values) || values.length === 0) {
    report(w, `${path}/enum`, 'must be a non-empty array of unique strings');
    return undefined;
  }
  const seen = new Set<string>();
  let valid = true;
  values.forEach((value: unknown, i) => {
    if (typeof value !== 'string') {
      report(w, `${path}/enum/${i}`, 'must be a string');
      valid = false;
    } else if (seen.has(value)) {
      report(w, `${path}/enum/${i}`, `duplicate value "${value}"`);
    } else {
      seen.add(value);
    }
  });
  return valid ? (values as string[]) : undefined;
}

function checkStringNode(w: Walker, node: Node, path: string): void {
  checkBounds(reporter(w), node, path, ['minLength', 'maxLength'], isLength, 'a non-negative integer');
  const pattern = compilePattern(w, node, path);
  const values = checkEnum(w, node, path);
  let format: FormatChecker | undefined;
  if (hasOwn(node, 'format')) {
    if (isStringFormat(node.format)) format = w.formats[node.format];
    else report(w, `${path}/format`, `must be one of ${quoteList(STRING_FORMATS)}`);
  }
  if (hasOwn(node, 'contentMediaType') && !isContentMediaType(node.contentMediaType)) {
    report(w, `${path}/contentMediaType`, `must be one of ${quoteList(CONTENT_MEDIA_TYPES)}`);
  }
  if (hasOwn(node, 'foreignKey')) {
    const target = node.foreignKey;
    if (typeof target !== 'string' || target === '') report(w, `${path}/foreignKey`, 'must be a table id');
    else if (target === w.context.selfTableId) report(w, `${path}/foreignKey`, 'a table cannot reference itself');
    else if (!w.context.existingTableIds.includes(target)) report(w, `${path}/foreignKey`, `table "${target}" does not exist`);
  }
  if (!hasOwn(node, 'default')) return;
  const value = node.default;
  const at = `${path}/default`;
  if (typeof value !== 'string') return report(w, at, 'must be a string');
  if (values !== undefined && !values.includes(value)) report(w, at, 'must be equal to one of the allowed values');
  if (pattern !== undefined && !pattern.test(value)) report(w, at, `must match pattern "${String(node.pattern)}"`);
  if (format !== undefined && !format(value)) report(w, at, `must match format "${String(node.format)}"`);
}

function checkObjectNode(w: Walker, node: Node, path: string, depth: number): void {
  if (hasOwn(node, 'additionalProperties') && node.additionalProperties !== false) {
    report(w, `${path}/additionalProperties`, 'must be false');
  }
  const properties = node.properties;
  if (hasOwn(node, 'properties') && !isPlainObject(properties)) report(w, `${path}/properties`, 'must be an object');
  const names = isPlainObject(properties) ? Object.keys(properties) : undefined;
  if (isPlainObject(properties)) {
    for (const [name, child] of Object.entries(properties)) {
      const childPath = `${path}/properties/${escapePointerToken(name)}`;
      if (!isValidPropertyName(name)) {
        report(
          w,
          childPath,
          `property name "${name}" must be 1 to 64 characters, start with a letter or underscore, not start with two underscores, and contain only letters, digits and underscores`,
        );
      }
      walk(w, child, childPath, depth + 1, 'property');
    }
  }
  if (!hasOwn(node, 'required')) return;
  const required = node.required;
  if (!Array.isArray(required)) return report(w, `${path}/required`, 'must be an array of the property names');
  const seen = new Set<string>();
  required.forEach((name: unknown, i) => {
    if (typeof name !== 'string') report(w, `${path}/required/${i}`, 'must be a string');
    else if (seen.has(name)) report(w, `${path}/required/${i}`, `duplicate name "${name}"`);
    else if (names !== undefined && !names.includes(name)) report(w, `${path}/required/${i}`, `"${name}" is not a property`);
    if (typeof name === 'string') seen.add(name);
  });
  for (const name of names ?? []) if (!seen.has(name)) report(w, `${path}/required`, `must contain "${name}"`);
}

function walk(w: Walker, value: unknown, path: string, depth: number, role: Role): void {
  w.nodes++;
  if (w.nodes === MAX_SCHEMA_NODES + 1) report(w, '', `schema must have at most ${MAX_SCHEMA_NODES} nodes`);
  if (w.nodes > MAX_SCHEMA_NODES) return;
  if (depth > MAX_SCHEMA_DEPTH) return report(w, path, `schema nesting depth must be at most ${MAX_SCHEMA_DEPTH}`);
  if (!isPlainObject(value)) {
    return report(w, path, role === 'root' ? 'the root node must be an object node' : 'must be a schema node (an object)');
  }
  if (hasOwn(value, '$ref')) {
    if (role === 'root') return report(w, path, 'the root node must be an object node');
    if (role === 'items') return report(w, `${path}/$ref`, 'array items cannot be a system ref');
    if (!isSystemRefUrn(value.$ref)) report(w, `${path}/$ref`, 'must be one of the system ref URNs');
    return checkKeys(w, value, path, 'systemRef');
  }
  if (!hasOwn(value, 'type')) return report(w, `${path}/type`, 'is required (or a system "$ref")');
  const kind = value.type;
  if (typeof kind !== 'string' || !KINDS.includes(kind)) {
    return report(w, `${path}/type`, `must be one of ${quoteList(KINDS)}`);
  }
  if (role === 'root' && kind !== 'object') return report(w, `${path}/type`, 'the root node must be an object node');
  checkKeys(w, value, path, kind as Kind);
  if (checkIndexKeywords(reporter(w), value, path, role === 'property' && w.arrays === 0)) {
    w.indexed++;
    if (w.indexed === MAX_INDEXED_FIELDS + 1) report(w, path, `a table has at most ${MAX_INDEXED_FIELDS} indexed fields ("x-index" or "x-unique")`);
  }
  switch (kind as Kind) {
    case 'string':
      return checkStringNode(w, value, path);
    case 'number':
    case 'integer':
      return checkNumberNode(reporter(w), value, path, kind === 'integer');
    case 'boolean':
      if (hasOwn(value, 'default') && typeof value.default !== 'boolean') report(w, `${path}/default`, 'must be a boolean');
      return;
    case 'object':
      return checkObjectNode(w, value, path, depth);
    case 'array':
      checkBounds(reporter(w), value, path, ['minItems', 'maxItems'], isLength, 'a non-negative integer');
      if (!hasOwn(value, 'items')) return;
      w.arrays++;
      walk(w, value.items, `${path}/items`, depth + 1, 'items');
      w.arrays--;
      return;
  }
}

/**
 * The JSON Pointer of the first node nested deeper than the limit, found without recursion (and within the node
 * limit), so a schema nested thousands of levels is refused before anything walks it recursively.
 */
function tooDeepNodePath(schema: unknown): string | undefined {
  const stack: [unknown, string, number][] = [[schema, '', 1]];
  let visited = 0;
  for (let next = stack.pop(); next !== undefined && visited <= MAX_SCHEMA_NODES; next = stack.pop()) {
    const [node, path, depth] = next;
    visited++;
    if (!isPlainObject(node)) continue;
    if (depth > MAX_SCHEMA_DEPTH) return path;
    if (isPlainObject(node.properties)) {
      for (const [name, child] of Object.entries(node.properties)) {
        stack.push([child, `${path}/properties/${escapePointerToken(name)}`, depth + 1]);
      }
    }
    if (hasOwn(node, 'items')) stack.push([node.items, `${path}/items`, depth + 1]);
  }
  return undefined;
}

function fail(details: readonly { path: string; message: string }[], count: number): never {
  const [first] = details;
  const message =
    count === 1 && first !== undefined ? `Invalid table schema at "${first.path}": ${first.message}` : `Invalid table schema: ${count} errors`;
  throw new AppError('INVALID_SCHEMA', message, details);
}

/**
 * Checks a table schema against the subset of domain.md §5.1 (including `foreignKey` targets and limits).
 * Throws INVALID_SCHEMA with one `{path, message}` detail per violation (at most 100), path = JSON Pointer.
 */
export function assertValidTableSchema(schema: unknown, context: TableSchemaContext): asserts schema is TableSchema {
  const tooDeep = tooDeepNodePath(schema);
  if (tooDeep !== undefined) fail([{ path: tooDeep, message: `schema nesting depth must be at most ${MAX_SCHEMA_DEPTH}` }], 1);
  let text: string | undefined;
  try {
    text = JSON.stringify(schema);
  } catch {
    text = undefined;
  }
  if (text === undefined) fail([{ path: '', message: 'the schema must be a JSON object' }], 1);
  if (Buffer.byteLength(text, 'utf8') > MAX_SCHEMA_BYTES) {
    fail([{ path: '', message: `serialized schema must be at most ${MAX_SCHEMA_BYTES} bytes` }], 1);
  }
  const w: Walker = { context, formats: createFormatCheckers(), details: [], count: 0, nodes: 0, arrays: 0, indexed: 0 };
  walk(w, schema, '', 1, 'root');
  if (w.count > 0) fail(w.details, w.count);
}
