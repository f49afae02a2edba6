import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ApiKeyUsageStore } from '../apiKeys/apiKeyUsage.ts';
import { redisScript } from './redisScript.ts';

export type RedisApiKeyUsageStoreDeps = {
  readonly redis: Redis;
  /** Key prefix; default `strata`. */
  readonly prefix?: string;
  readonly log: Logger;
};

/** Records `now` unless the stored use is less than `minInterval` older: one compare-and-set across replicas. */
const TOUCH = redisScript(`
local last = tonumber(redis.call('HGET', KEYS[1], ARGV[1]))
if last ~= nil and tonumber(ARGV[2]) - last < tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
`);

/**
 * `lastUsedAt` of API keys shared by every replica (auth.md §8.9, operations.md §3): one Redis hash, key id ->
 * last recorded use in ms. Usage is best effort: when Redis is unreachable, reads answer "never used" and the
 * failure is logged, so key listings keep working.
 */
export function createRedisApiKeyUsageStore(deps: RedisApiKeyUsageStoreDeps): ApiKeyUsageStore {
  const { redis, log } = deps;
  const key = `${deps.prefix ?? 'strata'}:apikey:lastUsedAt`;
  return {
    async touch(keyId, nowMs, minIntervalMs) {
      return (await TOUCH(redis, [key], [keyId, nowMs, minIntervalMs])) === 1;
    },
    async lastUsedAt(keyIds) {
      const found = new Map<string, number>();
      if (keyIds.length === 0) return found;
      let values: (string | null)[];
      try {
        values = await redis.hmget(key, ...keyIds);
      } catch (err) {
        log.warn({ err }, 'lastUsedAt unavailable');
        return found;
      }
      keyIds.forEach((id, i) => {
        const value = values[i];
        if (value !== null && value !== undefined) found.set(id, Number(value));
      });
      return found;
    },
  };
}
