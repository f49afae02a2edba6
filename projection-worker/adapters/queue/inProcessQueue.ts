import type { Queue } from '../../../contracts/index.ts';

type Subscription = {
  readonly handler: () => Promise<void>;
  /** A wake-up is requested and not yet started. */
  pending: boolean;
  running: Promise<void> | null;
  closed: boolean;
};

/**
 * Wake-ups within one process (used when REDIS_URL is unset). Each subscriber runs one handler call at a time;
 * notifies made while a wake-up is pending merge into it, and a notify during a running call schedules exactly one
 * more call afterwards.
 */
export function createInProcessQueue(): Queue {
  const topics = new Map<string, Set<Subscription>>();
  let closed = false;

  function schedule(sub: Subscription): void {
    if (sub.closed || sub.pending) return;
    sub.pending = true;
    // A running call picks the wake-up up when it ends; otherwise deliver on a later turn so that notifies made
    // in the same turn merge.
    if (sub.running === null) setImmediate(() => run(sub));
  }

  function run(sub: Subscription): void {
    if (sub.closed || !sub.pending || sub.running !== null) return;
    sub.pending = false;
    // Handler failures are the subscriber's business; the next wake-up simply calls it again.
    sub.running = Promise.resolve()
      .then(() => sub.handler())
      .catch(() => undefined)
      .then(() => {
        sub.running = null;
        if (sub.pending) run(sub);
      });
  }

  return {
    kind: 'in-process',
    notify(topic) {
      if (closed) return Promise.reject(new Error('queue is closed'));
      for (const sub of topics.get(topic) ?? []) schedule(sub);
      return Promise.resolve();
    },
    subscribe(topic, handler) {
      if (closed) return Promise.reject(new Error('queue is closed'));
      const sub: Subscription = { handler, pending: false, running: null, closed: false };
      let subs = topics.get(topic);
      if (subs === undefined) {
        subs = new Set();
        topics.set(topic, subs);
      }
      subs.add(sub);
      return Promise.resolve(async () => {
        sub.closed = true;
        topics.get(topic)?.delete(sub);
        if (topics.get(topic)?.size === 0) topics.delete(topic);
        await sub.running;
      });
    },
    ping: () => Promise.resolve(!closed),
    async close() {
      closed = true;
      const running: Promise<void>[] = [];
      for (const subs of topics.values()) {
        for (const sub of subs) {
          sub.closed = true;
          if (sub.running !== null) running.push(sub.running);
        }
      }
      topics.clear();
      await Promise.all(running);
    },
  };
}
