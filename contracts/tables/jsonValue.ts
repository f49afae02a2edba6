/** A JSON value as parsed by `JSON.parse`. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Canonical JSON of domain.md §5.3: object keys sorted by UTF-16 code units, no whitespace, numbers as
 * `JSON.stringify` writes them (so `-0` is `0`). `undefined` members are skipped like `JSON.stringify` does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number' || typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) {
    const parts = value.map((item: unknown) => (item === undefined || typeof item === 'function' ? 'null' : canonicalJson(item)));
    return `[${parts.join(',')}]`;
  }
  if (isPlainObject(value)) {
    const parts: string[] = [];
    for (const key of Object.keys(value).sort()) {
      const member = value[key];
      if (member === undefined || typeof member === 'function') continue;
      parts.push(`${JSON.stringify(key)}:${canonicalJson(member)}`);
    }
    return `{${parts.join(',')}}`;
  }
  return 'null';
}

/**
 * Content equality of domain.md §4: object key order ignored, array order significant, numbers compared by value
 * (`0` equals `-0`).
 */
export function jsonDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonDeepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const objA = a as Record<string, unknown>;
  const objB = b as Record<string, unknown>;
  const keys = Object.keys(objA);
  if (keys.length !== Object.keys(objB).length) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(objB, key) || !jsonDeepEqual(objA[key], objB[key])) return false;
  }
  return true;
}
