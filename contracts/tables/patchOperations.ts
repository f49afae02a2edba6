import { AppError } from '../errors/appError.ts';
import { isPlainObject } from './jsonValue.ts';

/** Operations per row patch or `updateTable` call (operations.md §7). */
export const MAX_PATCH_OPERATIONS = 1000;

export type PatchOperation = {
  readonly op: string;
  readonly path: string;
  readonly from?: string;
  readonly value?: unknown;
};

/** INVALID_PATCH naming the failing operation (errors.md §4). */
export function invalidPatch(index: number, path: string, message: string): AppError {
  return new AppError('INVALID_PATCH', message, [{ index, path, message }]);
}

/** 1 to 1000 operations, else BAD_USER_INPUT. */
export function assertPatchList(patches: unknown): asserts patches is readonly unknown[] {
  if (!Array.isArray(patches) || patches.length === 0 || patches.length > MAX_PATCH_OPERATIONS) {
    const message = `patches must be an array of 1 to ${MAX_PATCH_OPERATIONS} operations`;
    throw new AppError('BAD_USER_INPUT', message, [{ path: '/patches', message }]);
  }
}

const NEEDS_VALUE = new Set(['add', 'replace']);
const NEEDS_FROM = new Set(['move', 'copy']);

/** Reads one operation object; `allowed` lists the supported ops (others, `test` included, are INVALID_PATCH). */
export function readPatchOperation(raw: unknown, index: number, allowed: readonly string[]): PatchOperation {
  if (!isPlainObject(raw)) throw invalidPatch(index, '', 'A patch operation must be an object');
  const { op, path, from } = raw;
  const shownPath = typeof path === 'string' ? path : '';
  if (typeof op !== 'string' || !allowed.includes(op)) {
    const name = typeof op === 'string' ? `"${op}"` : 'missing';
    const list = allowed.map((a) => `"${a}"`).join(', ');
    throw invalidPatch(index, shownPath, `Unsupported operation ${name}: op must be one of ${list}`);
  }
  if (typeof path !== 'string') throw invalidPatch(index, '', 'path must be a string');
  if (NEEDS_VALUE.has(op) && (!Object.prototype.hasOwnProperty.call(raw, 'value') || raw.value === undefined)) {
    throw invalidPatch(index, path, `"${op}" needs a value`);
  }
  if (NEEDS_FROM.has(op)) {
    if (typeof from !== 'string') throw invalidPatch(index, path, `"${op}" needs a from path`);
    return { op, path, from };
  }
  return NEEDS_VALUE.has(op) ? { op, path, value: raw.value } : { op, path };
}
