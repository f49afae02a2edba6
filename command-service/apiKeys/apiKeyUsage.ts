/** `lastUsedAt` is written at most this often per key (operations.md §7). */
export const API_KEY_USAGE_INTERVAL_MS = 60_000;

/**
 * Ephemeral `lastUsedAt` state of API keys (operations.md §3: not event-sourced). In memory here; a Redis
 * implementation (SET with a compare in a script, or a hash per key) shares it between replicas later.
 */
export interface ApiKeyUsageStore {
  /**
   * Records a successful use at `nowMs` unless one was recorded less than `minIntervalMs` earlier. Resolves true
   * when this call recorded it.
   */
  touch(keyId: string, nowMs: number, minIntervalMs: number): Promise<boolean>;
  /** Last recorded use (ms) of each listed key that has one. */
  lastUsedAt(keyIds: readonly string[]): Promise<Map<string, number>>;
}

export function createInMemoryApiKeyUsageStore(): ApiKeyUsageStore {
  const used = new Map<string, number>();
  return {
    async touch(keyId, nowMs, minIntervalMs) {
      const last = used.get(keyId);
      if (last !== undefined && nowMs - last < minIntervalMs) return false;
      used.set(keyId, nowMs);
      return true;
    },
    async lastUsedAt(keyIds) {
      const found = new Map<string, number>();
      for (const id of keyIds) {
        const last = used.get(id);
        if (last !== undefined) found.set(id, last);
      }
      return found;
    },
  };
}
