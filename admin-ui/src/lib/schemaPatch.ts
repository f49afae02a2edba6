import type { JsonSchema } from '../api/types.ts';
import { escapePointerSegment } from './jsonPointer.ts';

/** One RFC 6902 operation of the kinds this app sends for schema changes. */
export type JsonPatchOperation =
  | { readonly op: 'add'; readonly path: string; readonly value: unknown }
  | { readonly op: 'replace'; readonly path: string; readonly value: unknown }
  | { readonly op: 'remove'; readonly path: string }
  | { readonly op: 'move'; readonly from: string; readonly path: string };

/** Deep equality of JSON values: object key order ignored, array order significant. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  const ak = Object.keys(a);
  const bk = Object.keys(b);
  const bo = b as Record<string, unknown>;
  const ao = a as Record<string, unknown>;
  return ak.length === bk.length && ak.every((key) => Object.hasOwn(bo, key) && jsonEqual(ao[key], bo[key]));
}

/** Keywords the server maintains itself (domain.md §6 rule 1): never patched directly. */
const MAINTAINED = new Set(['required', 'additionalProperties']);
/** Keywords that hold child nodes: diffed node by node instead of as a whole. */
const CHILDREN = new Set(['properties', 'items']);

function isNode(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameKind(a: JsonSchema, b: JsonSchema): boolean {
  return a.type === b.type && a.$ref === b.$ref;
}

function diffKeywords(before: JsonSchema, after: JsonSchema, path: string, out: JsonPatchOperation[]): void {
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (MAINTAINED.has(key) || CHILDREN.has(key) || key === 'type') continue;
    const target = `${path}/${escapePointerSegment(key)}`;
    const had = Object.hasOwn(before, key);
    const has = Object.hasOwn(after, key);
    if (had && !has) out.push({ op: 'remove', path: target });
    else if (!had && has) out.push({ op: 'add', path: target, value: after[key] });
    else if (!jsonEqual(before[key], after[key])) out.push({ op: 'replace', path: target, value: after[key] });
  }
}

function diffContainer(before: JsonSchema, after: JsonSchema, path: string, out: JsonPatchOperation[]): void {
  diffKeywords(before, after, path, out);
  const oldProps: Record<string, unknown> = isNode(before.properties) ? before.properties : {};
  const newProps: Record<string, unknown> = isNode(after.properties) ? after.properties : {};
  for (const name of Object.keys(oldProps)) {
    if (!Object.hasOwn(newProps, name)) out.push({ op: 'remove', path: `${path}/properties/${escapePointerSegment(name)}` });
  }
  for (const [name, node] of Object.entries(newProps)) {
    const target = `${path}/properties/${escapePointerSegment(name)}`;
    const old = oldProps[name];
    if (old === undefined) out.push({ op: 'add', path: target, value: node });
    else diffNode(old as JsonSchema, node as JsonSchema, target, out);
  }
  if (isNode(before.items) && isNode(after.items)) diffNode(before.items, after.items, `${path}/items`, out);
  else if (!jsonEqual(before.items, after.items)) out.push({ op: 'replace', path: `${path}/items`, value: after.items });
}

function diffNode(before: JsonSchema, after: JsonSchema, path: string, out: JsonPatchOperation[]): void {
  if (jsonEqual(before, after)) return;
  if (!isNode(before) || !isNode(after) || !sameKind(before, after)) {
    out.push({ op: 'replace', path, value: after });
    return;
  }
  // Containers are diffed property by property so untouched fields keep their data; a changed leaf is
  // replaced as a whole (a same-kind replace keeps every row's value, domain.md §6).
  if (after.type === 'object' || after.type === 'array') diffContainer(before, after, path, out);
  else out.push({ op: 'replace', path, value: after });
}

/**
 * The JSON Patch that turns table schema `before` into `after` (domain.md §6): property-level `add`, `remove` and
 * `replace` on node paths, keyword-level operations for annotations of objects and arrays; `required` and
 * `additionalProperties` are left to the server. The root node is never replaced: a changed root `type` is sent
 * as a keyword `replace`, which the server rejects with a readable INVALID_PATCH.
 */
export function diffSchema(before: JsonSchema, after: JsonSchema): JsonPatchOperation[] {
  const out: JsonPatchOperation[] = [];
  if (before.type !== after.type) out.push({ op: 'replace', path: '/type', value: after.type });
  diffContainer(before, after, '', out);
  return out;
}
