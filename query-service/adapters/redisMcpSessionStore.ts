import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { AppError } from '../../contracts/index.ts';
import { idleTimeoutOf } from '../mcp/mcpSessionStore.ts';
import type { McpBinding, McpSessionCreation, McpSessionLimits, McpSessionRecord, McpSessionStore } from '../mcp/mcpSessionStore.ts';
import { redisScript } from './redisScript.ts';

export type RedisMcpSessionStoreDeps = {
  readonly redis: Redis;
  readonly limits: McpSessionLimits;
  /** Key prefix; default `strata`. */
  readonly prefix?: string;
  readonly log: Logger;
};

/** Records outlive their logical expiry by this much in Redis, so replicas with slightly skewed clocks agree. */
const TTL_MARGIN_MS = 300_000;

// Keys: `{p}mcp:s:{id}` (hash: createdAt, lastSeenAt, protocolVersion, binding JSON, principal, ip), `{p}mcp:live`
// (sorted set: id by expiry time), `{p}mcp:p:{principalKey}` (sorted set: the principal's ids by lastSeenAt) and
// `{p}mcp:a:{ip}` (sorted set: the IP's sessions without a principal, by expiry time).
// Scripts build the per-session keys from the prefix, so the store needs one Redis node (not Redis Cluster).

/** Lua: removes a session record and its entries in the live, principal and anonymous sets. */
const DROP = `
local function drop(p, id)
  local key = p .. 'mcp:s:' .. id
  local principal = redis.call('HGET', key, 'principal')
  local ip = redis.call('HGET', key, 'ip')
  redis.call('DEL', key)
  redis.call('ZREM', p .. 'mcp:live', id)
  if principal and principal ~= '' then redis.call('ZREM', p .. 'mcp:p:' .. principal, id) end
  if ip then redis.call('ZREM', p .. 'mcp:a:' .. ip, id) end
end
`;

// Returns 1 (created), 0 (deployment full) or 2 (the IP's anonymous budget is spent).
const CREATE = redisScript(`${DROP}
local p, now = ARGV[9], ARGV[1]
local anonymous = ARGV[10] == '1'
if anonymous then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[11]) then return 2 end
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)) do drop(p, id) end
  if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
end
redis.call('HSET', KEYS[2], 'createdAt', ARGV[3], 'lastSeenAt', ARGV[4], 'protocolVersion', ARGV[5], 'binding', '', 'principal', '', 'ip', ARGV[12])
redis.call('PEXPIRE', KEYS[2], ARGV[7])
redis.call('ZADD', KEYS[1], ARGV[6], ARGV[8])
if anonymous then
  redis.call('ZADD', KEYS[3], ARGV[6], ARGV[8])
  redis.call('PEXPIRE', KEYS[3], ARGV[7])
end
return 1
`);

const TOUCH = redisScript(`
local createdAt = tonumber(redis.call('HGET', KEYS[1], 'createdAt'))
if createdAt == nil then return 0 end
local last = tonumber(redis.call('HGET', KEYS[1], 'lastSeenAt'))
local principal = redis.call('HGET', KEYS[1], 'principal')
local anonymous = (not principal) or principal == ''
local now, maxAge = tonumber(ARGV[1]), tonumber(ARGV[3])
local idle = tonumber(anonymous and ARGV[7] or ARGV[2])
if now - last >= idle or now - createdAt >= maxAge then return 0 end
if now > last then
  last = now
  redis.call('HSET', KEYS[1], 'lastSeenAt', last)
end
local expiresAt = math.min(last + idle, createdAt + maxAge)
redis.call('ZADD', KEYS[2], expiresAt, ARGV[5])
redis.call('PEXPIRE', KEYS[1], expiresAt - now + tonumber(ARGV[6]))
if anonymous then
  local ip = redis.call('HGET', KEYS[1], 'ip')
  if ip then redis.call('ZADD', ARGV[4] .. 'mcp:a:' .. ip, expiresAt, ARGV[5]) end
else
  redis.call('ZADD', ARGV[4] .. 'mcp:p:' .. principal, last, ARGV[5])
end
return 1
`);

const BIND = redisScript(`${DROP}
if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
local p, id, principal = ARGV[1], ARGV[2], ARGV[4]
local set = p .. 'mcp:p:' .. principal
local old = redis.call('HGET', KEYS[1], 'principal')
if old and old ~= '' and old ~= principal then redis.call('ZREM', p .. 'mcp:p:' .. old, id) end
redis.call('HSET', KEYS[1], 'binding', ARGV[3], 'principal', principal)
-- A bound session leaves its IP's anonymous budget and gets the normal idle timeout.
local ip = redis.call('HGET', KEYS[1], 'ip')
if ip then redis.call('ZREM', p .. 'mcp:a:' .. ip, id) end
local createdAt = tonumber(redis.call('HGET', KEYS[1], 'createdAt'))
local last = tonumber(redis.call('HGET', KEYS[1], 'lastSeenAt'))
local expiresAt = math.min(last + tonumber(ARGV[7]), createdAt + tonumber(ARGV[8]))
redis.call('ZADD', KEYS[2], expiresAt, id)
redis.call('PEXPIRE', KEYS[1], expiresAt - last + tonumber(ARGV[9]))
redis.call('ZADD', set, last, id)
local others = {}
for _, other in ipairs(redis.call('ZRANGE', set, 0, -1)) do
  if other ~= id then
    if redis.call('ZSCORE', KEYS[2], other) and redis.call('EXISTS', p .. 'mcp:s:' .. other) == 1 then
      table.insert(others, other)
    else
      redis.call('ZREM', set, other)
    end
  end
end
local evicted = {}
for i = 1, #others + 1 - tonumber(ARGV[5]) do
  local victim = others[i]
  drop(p, victim)
  table.insert(evicted, victim)
end
redis.call('PEXPIRE', set, ARGV[6])
return evicted
`);

const DELETE = redisScript(`${DROP}
drop(ARGV[1], ARGV[2])
return 1
`);

const SWEEP = redisScript(`${DROP}
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[2], 'LIMIT', 0, 1000)
for _, id in ipairs(ids) do drop(ARGV[1], id) end
return ids
`);

/**
 * MCP session records shared by every replica through Redis (mcp.md §2, operations.md §3): the capacity
 * (`maxSessions` per deployment), the per-principal limit and expiry hold across processes. Each script runs
 * atomically, so concurrent `initialize` requests on several replicas cannot exceed the capacity. Expiry is judged
 * by the caller's clock, like the in-memory store; Redis TTLs only bound memory. Redis failures answer 503.
 */
export function createRedisMcpSessionStore(deps: RedisMcpSessionStoreDeps): McpSessionStore {
  const { redis, limits, log } = deps;
  const p = `${deps.prefix ?? 'strata'}:`;
  const live = `${p}mcp:live`;
  const sessionKey = (id: string): string => `${p}mcp:s:${id}`;
  const anonymousKey = (ip: string): string => `${p}mcp:a:${ip}`;
  const expiresAt = (record: Pick<McpSessionRecord, 'createdAt' | 'lastSeenAt' | 'binding'>): number =>
    Math.min(record.lastSeenAt + idleTimeoutOf(record, limits), record.createdAt + limits.maxAgeMs);
  const anonymousIdleMs = idleTimeoutOf({ binding: null }, limits);

  async function guarded<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      log.error({ err, what }, 'mcp session store unavailable');
      throw new AppError('SERVICE_UNAVAILABLE');
    }
  }

  const remove = (id: string): Promise<unknown> => DELETE(redis, [sessionKey(id), live], [p, id]);
  const CREATED: Readonly<Record<number, McpSessionCreation>> = { 0: 'full', 1: 'created', 2: 'anonymousLimit' };

  return {
    create: (record) =>
      guarded('create', async () => {
        const until = expiresAt(record);
        const anonymous = record.binding === null;
        const created = await CREATE(
          redis,
          [live, sessionKey(record.id), anonymousKey(record.clientIp)],
          [
            record.createdAt,
            limits.maxSessions,
            record.createdAt,
            record.lastSeenAt,
            record.protocolVersion,
            until,
            until - record.createdAt + TTL_MARGIN_MS,
            record.id,
            p,
            anonymous ? '1' : '0',
            limits.maxAnonymousPerIp,
            record.clientIp,
          ],
        );
        const outcome = CREATED[Number(created)] ?? 'full';
        if (outcome === 'created' && record.binding !== null) await bindSession(record.id, record.binding);
        return outcome;
      }),

    get: (id, now) =>
      guarded('get', async () => {
        const hash = await redis.hgetall(sessionKey(id));
        if (hash.createdAt === undefined || hash.lastSeenAt === undefined) return null;
        const record: McpSessionRecord = {
          id,
          binding: hash.binding ? (JSON.parse(hash.binding) as McpBinding) : null,
          createdAt: Number(hash.createdAt),
          lastSeenAt: Number(hash.lastSeenAt),
          protocolVersion: hash.protocolVersion ?? '',
          clientIp: hash.ip ?? '',
        };
        if (expiresAt(record) > now) return record;
        await remove(id);
        return null;
      }),

    touch: (id, now) =>
      guarded('touch', async () => {
        await TOUCH(redis, [sessionKey(id), live], [now, limits.idleMs, limits.maxAgeMs, p, id, TTL_MARGIN_MS, anonymousIdleMs]);
      }),

    bind: (id, binding) => guarded('bind', () => bindSession(id, binding)),

    delete: (id) =>
      guarded('delete', async () => {
        await remove(id);
      }),

    sweep: (now) =>
      guarded('sweep', async () => {
        const expired: string[] = [];
        for (;;) {
          const ids = (await SWEEP(redis, [live], [p, now])) as string[];
          expired.push(...ids);
          if (ids.length < 1000) return expired;
        }
      }),

    count: (now) => guarded('count', () => redis.zcount(live, `(${now}`, '+inf')),
  };

  async function bindSession(id: string, binding: McpBinding): Promise<readonly string[]> {
    const evicted = await BIND(
      redis,
      [sessionKey(id), live],
      [
        p,
        id,
        JSON.stringify(binding),
        binding.principalKey,
        limits.maxPerPrincipal,
        limits.maxAgeMs + TTL_MARGIN_MS,
        limits.idleMs,
        limits.maxAgeMs,
        TTL_MARGIN_MS,
      ],
    );
    return evicted as string[];
  }
}
