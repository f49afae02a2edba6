import { Redis } from 'ioredis';

export type RedisTestClients = {
  /** A fail-fast client (no retries, 1 s command timeout, errors surface as rejected commands). */
  open(url: string): Redis;
  /** Disconnects every client opened so far. */
  disconnectAll(): void;
};

/** The ioredis clients of a test file: one per simulated replica, all closed in its `after`. */
export function redisTestClients(): RedisTestClients {
  const clients: Redis[] = [];
  return {
    open(url) {
      const redis = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null, commandTimeout: 1000 });
      redis.on('error', () => undefined);
      clients.push(redis);
      return redis;
    },
    disconnectAll() {
      for (const redis of clients.splice(0)) redis.disconnect();
    },
  };
}
