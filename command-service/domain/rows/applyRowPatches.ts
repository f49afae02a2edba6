import { assertPatchList, invalidPatch, isPlainObject, parseJsonPointer, readPatchOperation, setOwn } from '../../../contracts/index.ts';

type Segment = string | number;

const INDEX = /^(0|[1-9][0-9]*)$/;

/**
 * `specs.weight` -> ['specs', 'weight']; `items[0].name` -> ['items', 0, 'name']. Null when malformed.
 * Names may hold any character but `.`, `[` and `]`.
 */
export function parseDotPath(path: string): Segment[] | null {
  const out: Segment[] = [];
  const part = /([^.[\]]+)|\[(0|[1-9][0-9]*)\]/y;
  let expectName = true;
  let i = 0;
  while (i < path.length) {
    if (!expectName && path[i] === '.') {
      i++;
      expectName = true;
      if (i === path.length) return null;
      continue;
    }
    part.lastIndex = i;
    const match = part.exec(path);
    if (match === null) return null;
    if (match[1] !== undefined) {
      if (!expectName) return null;
      out.push(match[1]);
    } else {
      if (out.length === 0) return null;
      out.push(Number(match[2]));
    }
    expectName = false;
    i = part.lastIndex;
  }
  return out.length > 0 && !expectName ? out : null;
}

/** A JSON Pointer (starting with `/`) or a dot/bracket path; null when malformed or empty. */
function parseRowPath(path: string): Segment[] | null {
  if (path.startsWith('/')) return parseJsonPointer(path);
  return parseDotPath(path);
}

function hasOwn(value: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

/** Replaces the value at an existing location; false when the location does not exist. */
function replaceExisting(root: unknown, segments: readonly Segment[], value: unknown): boolean {
  let current = root;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as Segment;
    const isLast = i === segments.length - 1;
    if (Array.isArray(current)) {
      const text = String(segment);
      if (!INDEX.test(text) || Number(text) >= current.length) return false;
      if (isLast) current[Number(text)] = value;
      else current = current[Number(text)];
    } else if (isPlainObject(current) && typeof segment === 'string' && hasOwn(current, segment)) {
      if (isLast) setOwn(current, segment, value);
      else current = current[segment];
    } else {
      return false;
    }
  }
  return true;
}

/**
 * Applies row patch operations (system-api.md §3.3): `{op: "replace", path, value}` where `path` is a JSON Pointer
 * (`/specs/weight`) or dot/bracket notation (`specs.weight`, `items[0].name`) that must exist in the current data.
 * Returns new data; the input is not changed. Throws BAD_USER_INPUT (not 1 to 1000 operations) or INVALID_PATCH
 * `{index, path, message}`. The caller validates the patched row as a whole.
 */
export function applyRowPatches(data: unknown, patches: unknown): unknown {
  assertPatchList(patches);
  const out = structuredClone(data);
  patches.forEach((raw, index) => {
    const op = readPatchOperation(raw, index, ['replace']);
    const segments = parseRowPath(op.path);
    if (segments === null || segments.length === 0) {
      throw invalidPatch(index, op.path, `Invalid path: ${op.path === '' ? '(empty)' : op.path}`);
    }
    if (!replaceExisting(out, segments, structuredClone(op.value))) {
      throw invalidPatch(index, op.path, `Path not found: ${op.path}`);
    }
  });
  return out;
}
