import type { FieldRef } from '../ports/viewStore.ts';

/**
 * The sort/compare casts of generated-api.md §3.2 in plain TypeScript, shared by readers (cursor values, operand
 * checks) and view-store adapters so that every side agrees on which values are castable.
 */
export type Cast = NonNullable<FieldRef['cast']>;

/** A cast result: text, a number, or null when the value cannot be cast. */
export type CastResult = string | number | null;

const CASTS: ReadonlySet<string> = new Set<Cast>(['text', 'int', 'float', 'boolean', 'timestamp']);

const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;

export function isCast(value: unknown): value is Cast {
  return typeof value === 'string' && CASTS.has(value);
}

function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && NUMERIC.test(value)) {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/**
 * Milliseconds since the epoch of an ISO 8601 date-time (a time part is required; no offset means UTC).
 * Parsed by hand because Date.parse accepts impossible dates such as February 30.
 */
export function parseTimestamp(value: string): number | null {
  const m = DATE_TIME.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number, number];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const check = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC maps years 0-99 to 1900-1999; such timestamps are not worth supporting.
  if (year < 100 || check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return null;
  if (m[9] === undefined) return utc;
  const offsetHours = Number(m[10]);
  const offsetMinutes = Number(m[11]);
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  const offset = (offsetHours * 60 + offsetMinutes) * 60_000;
  return m[9] === '+' ? utc - offset : utc + offset;
}

/**
 * Casts a value per generated-api.md §3.2: text (strings as is, numbers and booleans as their JSON text), int
 * (numbers or numeric strings, truncated), float (numbers or numeric strings), boolean (booleans only, as 0/1 so
 * false < true), timestamp (ISO 8601 date-time strings as epoch milliseconds). Null when uncastable.
 */
export function castValue(cast: Cast, value: unknown): CastResult {
  switch (cast) {
    case 'text':
      if (typeof value === 'string') return value;
      if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : null;
      if (typeof value === 'boolean') return value ? 'true' : 'false';
      return null;
    case 'int': {
      const n = toNumber(value);
      // `+ 0` turns -0 into 0 so that -0.5 and 0.4 compare equal after truncation on every backend.
      return n === null ? null : Math.trunc(n) + 0;
    }
    case 'float':
      return toNumber(value);
    case 'boolean':
      return typeof value === 'boolean' ? (value ? 1 : 0) : null;
    case 'timestamp':
      return typeof value === 'string' ? parseTimestamp(value) : null;
    default: {
      const unknownCast: never = cast;
      throw new Error(`unknown cast ${String(unknownCast)}`);
    }
  }
}
