import { canonicalJson } from '../tables/jsonValue.ts';
import type { MergeConflict } from './mergeTypes.ts';

/** 53-bit string hash (cyrb53), pure and stable across processes. */
function hash53(text: string, seed: number): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/**
 * A conflict's id (merge.md §2.4): stable for the same source, base, draft content and conflict, because it is a
 * hash of exactly those (the values in conflict stand for the draft's content at the conflict).
 */
export function conflictIdOf(parts: readonly unknown[]): string {
  const text = canonicalJson(parts);
  return `mc_${hash53(text, 1)}${hash53(text, 2)}`;
}

export function hasLeaf(data: Record<string, unknown>, pointer: string): boolean {
  let current: unknown = data;
  for (const token of pointer.split('/').slice(1)) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof current !== 'object' || current === null || !(key in current)) return false;
    current = (current as Record<string, unknown>)[key];
  }
  return true;
}

const compareText = (a: string | null, b: string | null): number => ((a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0);

/** merge.md §2.4: by (tableId, rowId, path), then kind and id so equal locations keep one order. */
export function orderConflicts(conflicts: readonly MergeConflict[]): MergeConflict[] {
  return [...conflicts].sort(
    (a, b) =>
      compareText(a.tableId, b.tableId) ||
      compareText(a.rowId, b.rowId) ||
      compareText(a.path, b.path) ||
      compareText(a.kind, b.kind) ||
      compareText(a.id, b.id),
  );
}
