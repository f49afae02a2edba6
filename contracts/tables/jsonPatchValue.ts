import { isPlainObject } from './jsonValue.ts';

/** RFC 6902 primitives on a plain JSON value, addressed by unescaped pointer tokens. Mutate in place. */

const INDEX = /^(0|[1-9][0-9]*)$/;
const hasOwn = (value: object, key: string): boolean => Object.prototype.hasOwnProperty.call(value, key);

/** Assignment that also creates an own `__proto__` key instead of changing the prototype. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

export type Found = { readonly found: true; readonly value: unknown } | { readonly found: false };

export function getAt(root: unknown, tokens: readonly string[]): Found {
  let current = root;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      if (!INDEX.test(token) || Number(token) >= current.length) return { found: false };
      current = current[Number(token)];
    } else if (isPlainObject(current)) {
      if (!hasOwn(current, token)) return { found: false };
      current = current[token];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: current };
}

/** Null on success, else why the location does not exist. */
export type PatchFailure = string | null;

function parentOf(root: unknown, tokens: readonly string[]): { parent: unknown; last: string } | null {
  const last = tokens[tokens.length - 1];
  if (last === undefined) return null;
  const parent = getAt(root, tokens.slice(0, -1));
  return parent.found ? { parent: parent.value, last } : null;
}

export function addAt(root: unknown, tokens: readonly string[], value: unknown): PatchFailure {
  const at = parentOf(root, tokens);
  if (at === null) return 'Path not found';
  const { parent, last } = at;
  if (Array.isArray(parent)) {
    if (last === '-') parent.push(value);
    else if (INDEX.test(last) && Number(last) <= parent.length) parent.splice(Number(last), 0, value);
    else return 'Index out of range';
    return null;
  }
  if (!isPlainObject(parent)) return 'Path not found';
  setOwn(parent, last, value);
  return null;
}

export function removeAt(root: unknown, tokens: readonly string[]): PatchFailure {
  const at = parentOf(root, tokens);
  if (at === null) return 'Path not found';
  const { parent, last } = at;
  if (Array.isArray(parent)) {
    if (!INDEX.test(last) || Number(last) >= parent.length) return 'Index out of range';
    parent.splice(Number(last), 1);
    return null;
  }
  if (!isPlainObject(parent) || !hasOwn(parent, last)) return 'Path not found';
  delete parent[last];
  return null;
}

export function replaceAt(root: unknown, tokens: readonly string[], value: unknown): PatchFailure {
  const at = parentOf(root, tokens);
  if (at === null) return 'Path not found';
  const { parent, last } = at;
  if (Array.isArray(parent)) {
    if (!INDEX.test(last) || Number(last) >= parent.length) return 'Index out of range';
    parent[Number(last)] = value;
    return null;
  }
  if (!isPlainObject(parent) || !hasOwn(parent, last)) return 'Path not found';
  setOwn(parent, last, value);
  return null;
}
