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
