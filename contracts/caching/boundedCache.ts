/**
 * The one bounded cache of the product: every in-process cache that could grow with what clients ask for is one of
 * these, capped by entry count AND by an estimate of the bytes it holds, least recently used entry out first.
 *
 * An entry's size is settled once, when it is stored: the caller passes it (`set(key, value, bytes)`, when it knows
 * the size better or more cheaply, e.g. the length of a text it just serialised), or the cache estimates it with
 * `options.sizeOf` (default `estimateBytes`). A hit never measures anything again: it costs a Map look-up and moving
 * the entry to the front of a linked recency list (a delete and re-insert in a Map costs many times that in V8).
 *
 * An entry larger than `maxBytes` on its own is not kept (and replaces nothing). Keys count too: string keys (query
 * texts, filter JSON) can be as large as the values they find.
 */
export type BoundedCache<K, V> = {
  get(key: K): V | undefined;
  has(key: K): boolean;
  /** Stores `value` (making it the most recent), evicting least recently used entries past either bound. */
  set(key: K, value: V, bytes?: number): void;
  delete(key: K): boolean;
  clear(): void;
  /** Entries held. */
  readonly size: number;
  /** Estimated bytes held (keys, values and a fixed per-entry overhead). */
  readonly bytes: number;
  keys(): IterableIterator<K>;
};

export type BoundedCacheOptions<K, V> = {
  readonly maxEntries: number;
  readonly maxBytes: number;
  /**
   * Estimated bytes of a value beyond its key (default `estimateBytes(value)`); called once per `set` without an
   * explicit size. The key is counted by the cache (its characters for a string key).
   */
  readonly sizeOf?: (value: V, key: K) => number;
  /** Called for every entry that leaves the cache other than by `set` over the same key (eviction, delete, clear). */
  readonly onEvict?: (key: K, value: V) => void;
};

/** What V8 spends per Map entry and on the cache's own record of it, roughly. */
export const ENTRY_OVERHEAD_BYTES = 64;

/** An entry in recency order: a doubly linked list, so a hit moves it with a few field writes (no Map mutation). */
type Entry<K, V> = { readonly key: K; value: V; bytes: number; older: Entry<K, V> | null; newer: Entry<K, V> | null };

export function createBoundedCache<K, V>(options: BoundedCacheOptions<K, V>): BoundedCache<K, V> {
  const maxEntries = Math.max(1, Math.floor(options.maxEntries));
  const maxBytes = Math.max(0, options.maxBytes);
  const sizeOf: (value: V, key: K) => number = options.sizeOf ?? estimateBytes;
  const { onEvict } = options;
  const entries = new Map<K, Entry<K, V>>();
  let bytes = 0;
  let oldest: Entry<K, V> | null = null;
  let newest: Entry<K, V> | null = null;

  function unlink(entry: Entry<K, V>): void {
    if (entry.older === null) oldest = entry.newer;
    else entry.older.newer = entry.newer;
    if (entry.newer === null) newest = entry.older;
    else entry.newer.older = entry.older;
    entry.older = null;
    entry.newer = null;
  }

  function pushNewest(entry: Entry<K, V>): void {
    entry.older = newest;
    if (newest === null) oldest = entry;
    else newest.newer = entry;
    newest = entry;
  }

  /** Removes an entry (not telling onEvict). */
  function remove(entry: Entry<K, V>): void {
    entries.delete(entry.key);
    unlink(entry);
    bytes -= entry.bytes;
  }

  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (entry !== newest) {
        unlink(entry);
        pushNewest(entry);
      }
      return entry.value;
    },
    has: (key) => entries.has(key),
    set(key, value, known) {
      const size = ENTRY_OVERHEAD_BYTES + keyBytes(key) + Math.max(0, known ?? sizeOf(value, key));
      const previous = entries.get(key);
      if (previous !== undefined) remove(previous);
      if (size > maxBytes) return;
      const entry: Entry<K, V> = { key, value, bytes: size, older: null, newer: null };
      entries.set(key, entry);
      pushNewest(entry);
      bytes += size;
      while ((entries.size > maxEntries || bytes > maxBytes) && oldest !== null) {
        const evicted: Entry<K, V> = oldest;
        remove(evicted);
        onEvict?.(evicted.key, evicted.value);
      }
    },
    delete(key) {
      const entry = entries.get(key);
      if (entry === undefined) return false;
      remove(entry);
      onEvict?.(key, entry.value);
      return true;
    },
    clear() {
      const all: Entry<K, V>[] = [];
      for (let entry = oldest; entry !== null; entry = entry.newer) all.push(entry);
      entries.clear();
      bytes = 0;
      oldest = null;
      newest = null;
      if (onEvict !== undefined) for (const entry of all) onEvict(entry.key, entry.value);
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
    *keys() {
      for (let entry = oldest; entry !== null; entry = entry.newer) yield entry.key;
    },
  };
}

function keyBytes(key: unknown): number {
  return typeof key === 'string' ? stringBytes(key) : typeof key === 'object' && key !== null ? 0 : 8;
}

/** Latin-1 strings take one byte per character in V8, others two; plus the string header. */
function stringBytes(text: string): number {
  // eslint-disable-next-line no-control-regex
  return 16 + (/[^\u0000-\u00ff]/.test(text) ? 2 * text.length : text.length);
}

/** Deeper structures are counted as if flat below this depth (keeps the walk bounded on odd values). */
const MAX_DEPTH = 64;

/**
 * Estimated V8 heap bytes of a JSON-like value (strings, numbers, booleans, null, arrays, plain objects): headers,
 * one pointer per slot and the strings' characters. Property names are counted once per object (V8 shares them
 * between objects of one shape, so this over-counts rows of one table a little, which keeps a bound conservative).
 * Anything else (functions, class instances, Maps) counts as a fixed 64 bytes: give those caches their own size.
 */
export function estimateBytes(value: unknown): number {
  return walk(value, 0);
}

function walk(value: unknown, depth: number): number {
  switch (typeof value) {
    case 'string':
      return stringBytes(value);
    case 'number':
      return 16;
    case 'boolean':
    case 'undefined':
      return 8;
    case 'bigint':
      return 24;
    case 'object': {
      if (value === null) return 8;
      if (depth >= MAX_DEPTH) return 64;
      if (Array.isArray(value)) {
        let total = 16 + 8 * value.length;
        for (const item of value) total += walk(item, depth + 1);
        return total;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) return 64;
      let total = 24;
      for (const key in value) {
        total += 8 + stringBytes(key) + walk((value as Record<string, unknown>)[key], depth + 1);
      }
      return total;
    }
    default:
      return 64;
  }
}
