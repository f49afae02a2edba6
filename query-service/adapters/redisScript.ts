import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A Lua script run atomically by Redis: EVALSHA, falling back to EVAL once the server does not know the script. */
export type RedisScript = (redis: Redis, keys: readonly string[], args: readonly (string | number)[]) => Promise<unknown>;

export function redisScript(source: string): RedisScript {
  const sha = createHash('sha1').update(source).digest('hex');
  return async (redis, keys, args) => {
    try {
      return await redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.includes('NOSCRIPT')) throw err;
      return redis.eval(source, keys.length, ...keys, ...args);
    }
  };
}
