import { AppError } from '../../contracts/index.ts';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/** Validated forward-pagination arguments (system-api.md §2). */
export type PageRequest = { readonly first: number; readonly after: string | null };

/**
 * `first` 0-1000 (default 100) and an optional `after` string; anything else -> BAD_USER_INPUT with a
 * `{path, message}` detail (paths are JSON Pointers into the request's arguments).
 */
export function parsePageArgs(args: { readonly first?: unknown; readonly after?: unknown }): PageRequest {
  const { first, after } = args;
  let size = DEFAULT_PAGE_SIZE;
  if (first !== undefined && first !== null) {
    if (typeof first !== 'number' || !Number.isInteger(first) || first < 0 || first > MAX_PAGE_SIZE) {
      const message = `first must be an integer between 0 and ${MAX_PAGE_SIZE}`;
      throw new AppError('BAD_USER_INPUT', message, [{ path: '/first', message }]);
    }
    size = first;
  }
  if (after !== undefined && after !== null && typeof after !== 'string') {
    const message = 'after must be a cursor string';
    throw new AppError('BAD_USER_INPUT', message, [{ path: '/after', message }]);
  }
  return { first: size, after: after ?? null };
}
