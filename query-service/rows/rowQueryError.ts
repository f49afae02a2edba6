import { AppError, toJsonPointer } from '../../contracts/index.ts';

/** Where in the request arguments an input sits, e.g. `['where', 'OR', 0, 'data', 'path']`. */
export type InputPath = readonly (string | number)[];

/** BAD_USER_INPUT with one `{path, message}` detail (errors.md §4): `path` is a JSON Pointer into the arguments. */
export function badInput(at: InputPath, message: string): AppError {
  const path = toJsonPointer(at);
  return new AppError('BAD_USER_INPUT', `Invalid ${path === '' ? 'input' : path}: ${message}`, [{ path, message }]);
}

export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** GraphQL passes explicit nulls for optional fields that were given as null: treat them as absent. */
export function given<T>(value: T | null | undefined): value is T {
  return value !== undefined && value !== null;
}
