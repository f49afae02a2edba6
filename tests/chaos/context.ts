// What every actor of the workload shares.
import type { EventStore } from '../../contracts/index.ts';
import type { Client, Reply } from './client.ts';
import type { Cluster, MemberName } from './cluster.ts';
import type { Recorder } from './recorder.ts';
import type { Random } from './random.ts';

export type ChaosContext = {
  readonly cluster: Cluster;
  readonly client: Client;
  readonly recorder: Recorder;
  /** The shared SQLite log, read directly (never written) by the harness. */
  readonly log: EventStore;
  /** Bearer header of the admin user. */
  readonly auth: Record<string, string>;
  readonly pauseMs: number;
  running(): boolean;
};

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** How long a read may keep failing after a fault before the harness calls it unavailable. */
export const SETTLE_TIMEOUT_MS = 90_000;

/**
 * Repeats a read on any live API process until it answers 200; used after a write whose outcome is unknown. It first
 * waits for in-flight appends, then reads with the log head as minimum position so the answer is definitive.
 */
export async function settledRead(ctx: ChaosContext, random: Random, path: string, what: string): Promise<Reply | null> {
  await sleep(1500);
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const head = await ctx.log.headPosition();
    const target: MemberName = ctx.client.pick(random);
    const reply = await ctx.client.call(target, 'GET', path, { headers: { ...ctx.auth, ...(head ? { 'x-strata-min-position': head } : {}) } });
    if (reply.status === 200 || reply.status === 404) return reply;
    await sleep(500);
  }
  ctx.recorder.violation('recovers-within-90s', `${what}: no definitive answer to GET ${path} within ${SETTLE_TIMEOUT_MS} ms`);
  return null;
}

export const positionOf = (reply: Reply): string | null => reply.headers.get('x-strata-position');
