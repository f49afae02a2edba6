import type { JsonSchema } from '../api/types.ts';

/** One step into a row document: a property name or an array index. */
export type PathSegment = string | number;

/** `value` with `next` put at `path` (copies along the path; the input is never changed). */
export function setIn(value: unknown, path: readonly PathSegment[], next: unknown): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path as [PathSegment, ...PathSegment[]];
  if (typeof head === 'number') {
    const list = Array.isArray(value) ? [...(value as unknown[])] : [];
    list[head] = setIn(list[head], rest, next);
    return list;
  }
  const record = typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {};
  record[head] = setIn(record[head], rest, next);
  return record;
}

/** `list` with the element at `from` moved to `to` (both in range). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

/** A `date-time` value as the `datetime-local` input shows it, in UTC (`2025-03-01T09:30:15`); '' when not one. */
export function toDateTimeInput(value: string): string {
  const time = Date.parse(value);
  return value === '' || Number.isNaN(time) ? '' : new Date(time).toISOString().slice(0, 19);
}

/** A `datetime-local` input's value (read as UTC) as an RFC 3339 `date-time`; '' stays '' (format "not set"). */
export function fromDateTimeInput(value: string): string {
  return value === '' ? '' : `${value.length === 16 ? `${value}:00` : value}Z`;
}

/** Media types edited in a multi-line text area rather than a one-line input. */
const MULTILINE = new Set(['text/plain', 'text/markdown', 'text/html', 'application/json', 'application/schema+json', 'application/yaml']);

/** How a string node is edited: its control follows `enum`, `foreignKey`, `format` and `contentMediaType`. */
export type StringControlKind = 'enum' | 'foreignKey' | 'date' | 'date-time' | 'time' | 'email' | 'multiline' | 'text';

export function stringControlKind(node: JsonSchema): StringControlKind {
  if (Array.isArray(node.enum)) return 'enum';
  if (typeof node.foreignKey === 'string') return 'foreignKey';
  if (node.format === 'date' || node.format === 'date-time' || node.format === 'time' || node.format === 'email') return node.format;
  if (typeof node.contentMediaType === 'string' && MULTILINE.has(node.contentMediaType)) return 'multiline';
  return 'text';
}

/** The first plain string field of a schema (not a foreign key): what a row is recognised by besides its id. */
export function labelField(schema: JsonSchema): string | null {
  for (const [name, node] of Object.entries(schema.properties ?? {})) {
    if (node.type === 'string' && node.foreignKey === undefined && node.$ref === undefined) return name;
  }
  return null;
}

/** Whether a JSON Pointer into a row names a field the form shows (else its error is listed above the form). */
export function isFormPointer(schema: JsonSchema, value: unknown, pointer: string): boolean {
  if (pointer === '') return false;
  let node: JsonSchema | undefined = schema;
  let current = value;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === undefined) return false;
    if (node.type === 'array') {
      const index = Number(token);
      if (!Array.isArray(current) || !Number.isInteger(index) || index < 0 || index >= current.length) return false;
      current = current[index] as unknown;
      node = node.items;
    } else {
      if (node.type !== 'object' || !Object.hasOwn(node.properties ?? {}, token)) return false;
      current = typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[token] : undefined;
      node = node.properties?.[token];
    }
  }
  return node !== undefined;
}

/** What a JSON value is, in words: "a string", "a number", "an object", "null", ... ("nothing" when missing). */
export function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Why the control of `node` cannot show `value` exactly as the row holds it, or null when it can. The form never
 * shows a stand-in (a `0` for `"cheap"`): a value it cannot show is flagged at its field instead.
 */
export function valueMismatch(node: JsonSchema, value: unknown): string | null {
  if (value === undefined) return 'Missing: the row has no value here.';
  const expect = (expected: string, fits: boolean): string | null => (fits ? null : `Expected ${expected}; the row holds ${kindOf(value)}.`);
  if (node.$ref !== undefined) return expect('a string', typeof value === 'string');
  switch (node.type) {
    case 'object':
      return expect('an object', isRecord(value));
    case 'array':
      return expect('an array', Array.isArray(value));
    case 'number':
      return expect('a number', typeof value === 'number');
    case 'integer':
      return expect('a whole number', typeof value === 'number' && Number.isInteger(value));
    case 'boolean':
      return expect('true or false', typeof value === 'boolean');
    default: {
      if (typeof value !== 'string') return expect('a string', false);
      const kind = stringControlKind(node);
      // The pickers can show only what they can parse; anything else would be shown empty while it is still sent.
      if (kind === 'date-time' && value !== '' && toDateTimeInput(value) === '') return 'Not a date and time the picker can show.';
      if (kind === 'date' && value !== '' && !DATE.test(value)) return 'Not a date the picker can show (YYYY-MM-DD).';
      return null;
    }
  }
}

/** The properties of an object value that its schema node does not declare, in the value's order. */
export function extraProperties(node: JsonSchema, value: unknown): string[] {
  if (!isRecord(value)) return [];
  const declared = node.properties ?? {};
  return Object.keys(value).filter((name) => !Object.hasOwn(declared, name));
}

/** `record` without the property `name` (a copy; the input is never changed). */
export function withoutProperty(record: Readonly<Record<string, unknown>>, name: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => key !== name));
}
