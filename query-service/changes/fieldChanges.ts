import { isPlainObject, jsonDeepEqual, toJsonPointer } from '../../contracts/index.ts';

/** A leaf difference of row data (changes.md §1.2): a JSON Pointer into `data`, null for a missing value. */
export type FieldChange = { readonly path: string; readonly before: unknown; readonly after: unknown };

/** At most this many field changes are listed per row (changes.md §1.2). */
export const MAX_FIELD_CHANGES = 100;

/**
 * Leaf differences between two data values: objects compare property by property (key order ignored), arrays
 * element by element by index (a missing element is null), anything else (or a change of kind) is one leaf.
 */
export function fieldChangesOf(before: unknown, after: unknown): FieldChange[] {
  const out: FieldChange[] = [];
  walk(before, after, [], out);
  return out;
}

function walk(before: unknown, after: unknown, path: (string | number)[], out: FieldChange[]): void {
  if (out.length >= MAX_FIELD_CHANGES) return;
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const key of keys) walk(before[key], after[key], [...path, key], out);
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const length = Math.max(before.length, after.length);
    for (let i = 0; i < length; i++) walk(before[i], after[i], [...path, i], out);
    return;
  }
  if (before === undefined && after === undefined) return;
  if (jsonDeepEqual(before ?? null, after ?? null) && (before === undefined) === (after === undefined)) return;
  out.push({ path: toJsonPointer(path), before: before ?? null, after: after ?? null });
}
