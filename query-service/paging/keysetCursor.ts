import { createHash } from 'node:crypto';
import { AppError, canonicalJson, isJsonTextTooDeep } from '../../contracts/index.ts';
import type { Scalar } from '../../contracts/index.ts';

/**
 * Opaque keyset cursors: base64url of `[queryHash, ...sortValues]`. The query hash binds a cursor to the query it
 * came from (collection, parent ids, where, orderBy): a cursor of another query, or a tampered one, is refused.
 * Cursors carry no secret, so a forged cursor can at most start a page at another position of the same query.
 */
export function queryHashOf(queryKey: unknown): string {
  return createHash('sha256').update(canonicalJson(queryKey)).digest('base64url').slice(0, 16);
}

export function encodeCursor(queryHash: string, values: readonly Scalar[]): string {
  return Buffer.from(JSON.stringify([queryHash, ...values]), 'utf8').toString('base64url');
}

function invalidCursor(): AppError {
  const message = 'after is not a cursor of this query';
  return new AppError('BAD_USER_INPUT', message, [{ path: '/after', message }]);
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function isScalar(value: unknown): value is Scalar {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * The sort values of a cursor of the query `queryHash` whose values each fit their sort key (`accepts`, one per
 * key); BAD_USER_INPUT otherwise. A forged value of another type would compare across types in the store.
 */
export function decodeCursor(cursor: string, queryHash: string, keys: readonly { readonly accepts: (value: Scalar) => boolean }[]): Scalar[] {
  const length = keys.length;
  if (!BASE64URL.test(cursor) || cursor.length > 16_384) throw invalidCursor();
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (isJsonTextTooDeep(text, 2)) throw invalidCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== length + 1 || parsed[0] !== queryHash) throw invalidCursor();
  const values: Scalar[] = [];
  for (const [i, value] of parsed.slice(1).entries()) {
    if (!isScalar(value) || keys[i]?.accepts(value) !== true) throw invalidCursor();
    values.push(value);
  }
  return values;
}
