import { parseTimestamp } from '../../contracts/index.ts';
import { badInput, type InputPath } from './rowQueryError.ts';

/** Most values one `in`/`notIn` list may hold (operations.md §7). */
export const MAX_IN_VALUES = 1000;

export function stringOperand(value: unknown, at: InputPath): string {
  if (typeof value !== 'string') throw badInput(at, 'must be a string');
  return value;
}

/** A list operand; a single value is accepted as a one-item list (GraphQL input coercion). */
export function listOperand(value: unknown, at: InputPath): unknown[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.length > MAX_IN_VALUES) throw badInput(at, `at most ${MAX_IN_VALUES} values are allowed`);
  return list;
}

/** An ISO 8601 date-time as stored timestamps are written (`toISOString`), so text comparison orders instants. */
export function dateTimeOperand(value: unknown, at: InputPath): string {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'string' ? parseTimestamp(value) : null;
  if (ms === null || !Number.isFinite(ms)) throw badInput(at, 'must be an ISO 8601 date-time');
  const date = new Date(ms);
  if (date.getUTCFullYear() > 9999) throw badInput(at, 'must be an ISO 8601 date-time');
  return date.toISOString();
}
