import { AppError } from '../../contracts/index.ts';

/** A counting window: `count` failures since it opened; it closes (and the count resets) at `resetAt` (ms). */
export type ThrottleWindow = { readonly count: number; readonly resetAt: number };

/**
 * Failed-login counters (auth.md §3). In memory here; a Redis implementation shares them between replicas later
 * (INCR + PEXPIRE NX has exactly these semantics).
 */
export interface LoginThrottleStore {
  /** The open window of `key` at `nowMs`, or null. */
  get(key: string, nowMs: number): Promise<ThrottleWindow | null>;
  /** Counts one failure, opening a window of `windowMs` when none is open at `nowMs`. */
  increment(key: string, nowMs: number, windowMs: number): Promise<ThrottleWindow>;
  delete(key: string): Promise<void>;
}

/** Expired windows are swept when the map grows past this size, so it stays bounded by recent attackers. */
const SWEEP_THRESHOLD = 10_000;

export function createInMemoryLoginThrottleStore(): LoginThrottleStore {
  const windows = new Map<string, ThrottleWindow>();

  function sweep(nowMs: number): void {
    for (const [key, window] of windows) if (window.resetAt <= nowMs) windows.delete(key);
  }

  return {
    async get(key, nowMs) {
      const window = windows.get(key);
      if (!window) return null;
      if (window.resetAt <= nowMs) {
        windows.delete(key);
        return null;
      }
      return window;
    },
    async increment(key, nowMs, windowMs) {
      const open = await this.get(key, nowMs);
      const next = open ? { count: open.count + 1, resetAt: open.resetAt } : { count: 1, resetAt: nowMs + windowMs };
      windows.set(key, next);
      if (windows.size > SWEEP_THRESHOLD) sweep(nowMs);
      return next;
    },
    async delete(key) {
      windows.delete(key);
    },
  };
}

export type LoginThrottleConfig = {
  readonly maxFailures: number;
  readonly maxFailuresPerIp: number;
  readonly windowMs: number;
};

export type LoginThrottle = {
  /** Throws RATE_LIMITED (with Retry-After in seconds) while the pair or the IP is over its limit. */
  assertAllowed(username: string, ip: string, nowMs: number): Promise<void>;
  recordFailure(username: string, ip: string, nowMs: number): Promise<void>;
  /** A success resets the pair (not the IP counter). */
  recordSuccess(username: string, ip: string): Promise<void>;
};

export function createLoginThrottle(config: LoginThrottleConfig, store: LoginThrottleStore): LoginThrottle {
  const pairKey = (username: string, ip: string): string => `login:pair:${username.toLowerCase()}:${ip}`;
  const ipKey = (ip: string): string => `login:ip:${ip}`;

  function limited(window: ThrottleWindow, nowMs: number): never {
    const seconds = Math.max(1, Math.ceil((window.resetAt - nowMs) / 1000));
    throw new AppError('RATE_LIMITED', undefined, undefined, { 'Retry-After': String(seconds) });
  }

  return {
    async assertAllowed(username, ip, nowMs) {
      const pair = await store.get(pairKey(username, ip), nowMs);
      if (pair && pair.count >= config.maxFailures) limited(pair, nowMs);
      const perIp = await store.get(ipKey(ip), nowMs);
      if (perIp && perIp.count >= config.maxFailuresPerIp) limited(perIp, nowMs);
    },
    async recordFailure(username, ip, nowMs) {
      await store.increment(pairKey(username, ip), nowMs, config.windowMs);
      await store.increment(ipKey(ip), nowMs, config.windowMs);
    },
    async recordSuccess(username, ip) {
      await store.delete(pairKey(username, ip));
    },
  };
}
