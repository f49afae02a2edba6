/**
 * The one bounded cache of the product: every in-process cache that could grow with what clients ask for is one of
 * these, capped by entry count AND by an estimate of the bytes it holds, least recently used entry out first.
 *
 * An entry's size is settled once, when it is stored: the caller passes it (`set(key, value, bytes)`, when it knows
 * the size better or more cheaply, e.g. the length of a text it just serialised), or the cache estimates it with
 * `options.sizeOf` (default `estimateBytes`). A hit never measures anything again: it costs a Map look-up and a
 * re-insertion (the Map's insertion order is the recency order).
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

type Entry<V> = { readonly value: V; readonly bytes: number };

const NONE: unique symbol = Symbol('none');

export function createBoundedCache<K, V>(options: BoundedCacheOptions<K, V>): BoundedCache<K, V> {
  const maxEntries = Math.max(1, Math.floor(options.maxEntries));
  const maxBytes = Math.max(0, options.maxBytes);
  const sizeOf: (value: V, key: K) => number = options.sizeOf ?? estimateBytes;
  const { onEvict } = options;
  const entries = new Map<K, Entry<V>>();
  let bytes = 0;
  /** The most recent key (nothing to move when it is hit again); NONE when unknown. */
  let newest: K | typeof NONE = NONE;

  function drop(key: K, entry: Entry<V>): void {
    entries.delete(key);
    bytes -= entry.bytes;
    if (newest === key) newest = NONE;
    onEvict?.(key, entry.value);
  }

  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (newest !== key) {
        entries.delete(key);
        entries.set(key, entry);
        newest = key;
      }
      return entry.value;
    },
    has: (key) => entries.has(key),
    set(key, value, known) {
      const size = ENTRY_OVERHEAD_BYTES + keyBytes(key) + Math.max(0, known ?? sizeOf(value, key));
      const previous = entries.get(key);
      if (previous !== undefined) {
        entries.delete(key);
        bytes -= previous.bytes;
      }
      if (size > maxBytes) {
        if (newest === key) newest = NONE;
        return;
      }
      entries.set(key, { value, bytes: size });
      bytes += size;
      newest = key;
      while (entries.size > maxEntries || bytes > maxBytes) {
        const oldest = entries.entries().next().value as [K, Entry<V>];
        drop(oldest[0], oldest[1]);
      }
    },
    delete(key) {
      const entry = entries.get(key);
      if (entry === undefined) return false;
      drop(key, entry);
      return true;
    },
    clear() {
      const all = [...entries];
      entries.clear();
      bytes = 0;
      newest = NONE;
      if (onEvict !== undefined) for (const [key, entry] of all) onEvict(key, entry.value);
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
    keys: () => entries.keys(),
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
