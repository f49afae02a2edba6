import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { AppError } from '../../contracts/index.ts';
import type { LoginThrottleStore, ThrottleWindow } from '../sessions/loginThrottle.ts';
import { redisScript } from './redisScript.ts';

export type RedisLoginThrottleStoreDeps = {
  readonly redis: Redis;
  /** Key prefix; default `strata`. */
  readonly prefix?: string;
  readonly log: Logger;
};

/**
 * Opens a window (count 1, resetAt = now + window) when none is open at `now`, else counts one more failure. The
 * window end is stored with the count so every replica judges it by the caller's clock, exactly like the in-memory
 * store; the key's TTL only bounds memory.
 */
const INCREMENT = redisScript(`
local resetAt = tonumber(redis.call('HGET', KEYS[1], 'resetAt'))
local now = tonumber(ARGV[1])
if resetAt == nil or resetAt <= now then
  resetAt = now + tonumber(ARGV[2])
  redis.call('HSET', KEYS[1], 'count', 1, 'resetAt', resetAt)
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {1, resetAt}
end
return {redis.call('HINCRBY', KEYS[1], 'count', 1), resetAt}
`);

/**
 * Failed-login counters shared by every replica through Redis (auth.md §3, operations.md §3). Redis being
 * unreachable refuses logins with 503 rather than letting them through unthrottled.
 */
export function createRedisLoginThrottleStore(deps: RedisLoginThrottleStoreDeps): LoginThrottleStore {
  const { redis, log } = deps;
  const prefix = `${deps.prefix ?? 'strata'}:throttle:`;

  async function guarded<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      log.error({ err, what }, 'login throttle store unavailable');
      throw new AppError('SERVICE_UNAVAILABLE');
    }
  }

  return {
    get: (key, nowMs) =>
      guarded('get', async (): Promise<ThrottleWindow | null> => {
        const [count, resetAt] = await redis.hmget(prefix + key, 'count', 'resetAt');
        if (count === null || count === undefined || resetAt === null || resetAt === undefined) return null;
        const window = { count: Number(count), resetAt: Number(resetAt) };
        return window.resetAt <= nowMs ? null : window;
      }),
    increment: (key, nowMs, windowMs) =>
      guarded('increment', async () => {
        const [count, resetAt] = (await INCREMENT(redis, [prefix + key], [nowMs, windowMs])) as [number, number];
        return { count: Number(count), resetAt: Number(resetAt) };
      }),
    delete: (key) =>
      guarded('delete', async () => {
        await redis.del(prefix + key);
      }),
  };
}
