import { Queue as BullQueue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Queue } from '../../../contracts/index.ts';

export type BullmqQueueDeps = {
  /** `redis://[user:password@]host:port[/db]` */
  readonly url: string;
  /** Key prefix of every BullMQ key. */
  readonly prefix?: string;
  readonly log: Logger;
};

const JOB_NAME = 'wake';
/** BullMQ waits for a ready connection forever; a wake-up must never hang its caller (the poll is the fallback). */
const TIMEOUT_MS = 5000;
const PING_TIMEOUT_MS = 2000;

async function withTimeout<T>(what: string, promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Wake-ups through BullMQ (spec operations §3): one BullMQ queue per topic holding at most one waiting and one
 * active job. `keepLastIfActive` deduplication merges notifies while a wake-up waits, yet a notify made while the
 * handler is active still queues one more run after it, so a wake-up is never swallowed by the dedup.
 */
export function createBullmqQueue(deps: BullmqQueueDeps): Queue {
  const { url, log } = deps;
  const prefix = deps.prefix ?? 'strata';
  let closed = false;
  // Reconnect while open; once closing, give up so that no connection outlives close() when Redis is gone.
  const reconnectDelay = (stopped: () => boolean) => (attempt: number) => (stopped() ? null : Math.max(Math.min(Math.exp(attempt), 20_000), 1000));
  // Producers share one connection; a notify fails fast while Redis is down (the projectors' poll covers it).
  const client = new Redis(url, { maxRetriesPerRequest: 2, retryStrategy: reconnectDelay(() => closed) });
  client.on('error', (err: unknown) => log.warn({ err }, 'redis connection error'));
  const producers = new Map<string, BullQueue>();
  const workers = new Map<Worker, { closing: boolean }>();

  // BullMQ queue names may not contain ':' (used in topics such as `projection:rows`).
  const queueName = (topic: string): string => encodeURIComponent(topic);

  function producer(topic: string): BullQueue {
    let queue = producers.get(topic);
    if (queue === undefined) {
      queue = new BullQueue(queueName(topic), {
        connection: client,
        prefix,
        streams: { events: { maxLen: 100 } },
        defaultJobOptions: { removeOnComplete: true, removeOnFail: true },
      });
      queue.on('error', (err: unknown) => log.warn({ err, topic }, 'bullmq queue error'));
      producers.set(topic, queue);
    }
    return queue;
  }

  async function closeWorker(worker: Worker): Promise<void> {
    const state = workers.get(worker);
    if (state === undefined) return;
    workers.delete(worker);
    state.closing = true;
    const closing = worker.close();
    try {
      // Waits for the active handler, unless Redis is gone: then drop the connections.
      await withTimeout('closing the bullmq worker', closing, TIMEOUT_MS);
    } catch (err) {
      log.warn({ err }, 'dropping the connections of a bullmq worker that did not close');
      closing.catch(() => undefined);
      await withTimeout('disconnecting the bullmq worker', worker.disconnect(), TIMEOUT_MS).catch(() => undefined);
    }
  }

  return {
    kind: 'bullmq',
    async notify(topic) {
      if (closed) throw new Error('queue is closed');
      const job = producer(topic).add(JOB_NAME, {}, { deduplication: { id: JOB_NAME, keepLastIfActive: true } });
      await withTimeout(`notify ${topic}`, job, TIMEOUT_MS);
    },
    async subscribe(topic, handler) {
      if (closed) throw new Error('queue is closed');
      const state = { closing: false };
      const worker = new Worker(
        queueName(topic),
        async () => {
          try {
            await handler();
          } catch (err) {
            // No BullMQ retries: the next wake-up (or the poll) runs the handler again.
            log.warn({ err, topic }, 'wake-up handler failed');
          }
        },
        {
          connection: { url, maxRetriesPerRequest: null, retryStrategy: reconnectDelay(() => state.closing) },
          prefix,
          concurrency: 1,
        },
      );
      worker.on('error', (err: unknown) => log.warn({ err, topic }, 'bullmq worker error'));
      workers.set(worker, state);
      try {
        await withTimeout(`subscribe ${topic}`, worker.waitUntilReady(), TIMEOUT_MS);
      } catch (err) {
        await closeWorker(worker);
        throw err;
      }
      return () => closeWorker(worker);
    },
    async ping() {
      if (closed) return false;
      try {
        return (await withTimeout('redis ping', client.ping(), PING_TIMEOUT_MS)) === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...workers.keys()].map((worker) => closeWorker(worker)));
      await Promise.all(
        [...producers.values()].map((queue) =>
          withTimeout('closing a bullmq queue', queue.close(), TIMEOUT_MS).catch((err: unknown) => {
            log.warn({ err }, 'bullmq queue did not close cleanly');
          }),
        ),
      );
      producers.clear();
      await withTimeout('redis quit', client.quit(), TIMEOUT_MS).catch(() => client.disconnect());
    },
  };
}
