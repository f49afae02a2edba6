import type { FieldChange } from '../api/changeTypes.ts';
import { pointerOf } from './jsonPointer.ts';

/** The server lists at most this many field changes per row (changes.md §1.2); the history diff keeps the same cap. */
const MAX_FIELD_CHANGES = 100;

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && sameJson(a[key], b[key]));
  }
  return false;
}

/**
 * Leaf differences between two versions of row data, read the way the server reads them for `rowChanges`
 * (changes.md §1.2): objects property by property (key order ignored), arrays element by element by index, any
 * other value (or a change of kind) as one leaf; a missing value is null. Used for a row history's diff to the
 * previous version, which the API returns as whole documents.
 */
export function fieldDiff(before: unknown, after: unknown): FieldChange[] {
  const out: FieldChange[] = [];
  const visit = (b: unknown, a: unknown, path: (string | number)[]): void => {
    if (out.length >= MAX_FIELD_CHANGES) return;
    if (isObject(b) && isObject(a)) {
      for (const key of [...new Set([...Object.keys(b), ...Object.keys(a)])].sort()) visit(b[key], a[key], [...path, key]);
    } else if (Array.isArray(b) && Array.isArray(a)) {
      for (let i = 0; i < Math.max(b.length, a.length); i++) visit(b[i], a[i], [...path, i]);
    } else if (b !== a && (b === undefined || a === undefined || !sameJson(b, a))) {
      out.push({ path: pointerOf(path), before: b ?? null, after: a ?? null });
    }
  };
  visit(before, after, []);
  return out;
}

/** The segments of a JSON Pointer, unescaped (`/a~1b/0` → `['a/b', '0']`). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}
