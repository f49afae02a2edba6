/** A bounded map that forgets the least recently used entry first (Map keeps insertion order). */
export type LruCache<K, V> = {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  readonly size: number;
};

export function createLruCache<K, V>(max: number): LruCache<K, V> {
  const entries = new Map<K, V>();
  return {
    get(key) {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > max) entries.delete(entries.keys().next().value as K);
    },
    get size() {
      return entries.size;
    },
  };
}
