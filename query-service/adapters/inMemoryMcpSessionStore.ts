import { idleTimeoutOf, type McpBinding, type McpSessionLimits, type McpSessionRecord, type McpSessionStore } from '../mcp/mcpSessionStore.ts';

/** McpSessionStore for a single process (no REDIS_URL). Expiry is checked on every access and by `sweep`. */
export function createInMemoryMcpSessionStore(limits: McpSessionLimits): McpSessionStore {
  const records = new Map<string, McpSessionRecord>();

  const isExpired = (record: McpSessionRecord, now: number): boolean =>
    now - record.lastSeenAt >= idleTimeoutOf(record, limits) || now - record.createdAt >= limits.maxAgeMs;

  function sweepExpired(now: number): string[] {
    const expired: string[] = [];
    for (const record of records.values()) {
      if (isExpired(record, now)) {
        records.delete(record.id);
        expired.push(record.id);
      }
    }
    return expired;
  }

  function live(id: string, now: number): McpSessionRecord | null {
    const record = records.get(id);
    if (record === undefined) return null;
    if (!isExpired(record, now)) return record;
    records.delete(id);
    return null;
  }

  return {
    async create(record) {
      const now = record.createdAt;
      if (record.binding === null) {
        let anonymous = 0;
        for (const other of records.values()) {
          if (other.binding === null && other.clientIp === record.clientIp && !isExpired(other, now)) anonymous++;
        }
        if (anonymous >= limits.maxAnonymousPerIp) return 'anonymousLimit';
      }
      if (records.size >= limits.maxSessions) sweepExpired(now);
      if (records.size >= limits.maxSessions) return 'full';
      records.set(record.id, record);
      return 'created';
    },

    async get(id, now) {
      return live(id, now);
    },

    async touch(id, now) {
      const record = live(id, now);
      if (record !== null) records.set(id, { ...record, lastSeenAt: Math.max(record.lastSeenAt, now) });
    },

    async bind(id: string, binding: McpBinding) {
      const record = records.get(id);
      if (record === undefined) return [];
      records.set(id, { ...record, binding });
      const others = [...records.values()]
        .filter((other) => other.id !== id && other.binding?.principalKey === binding.principalKey)
        .sort((a, b) => a.lastSeenAt - b.lastSeenAt);
      const excess = others.length + 1 - limits.maxPerPrincipal;
      const evicted = excess > 0 ? others.slice(0, excess).map((other) => other.id) : [];
      for (const evictedId of evicted) records.delete(evictedId);
      return evicted;
    },

    async delete(id) {
      records.delete(id);
    },

    async sweep(now) {
      return sweepExpired(now);
    },

    async count(now) {
      sweepExpired(now);
      return records.size;
    },
  };
}
