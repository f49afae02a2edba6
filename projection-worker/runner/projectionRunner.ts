import type { Logger } from 'pino';
import type { Clock, EventStore, Position, ProjectionRef, Queue, ViewStore } from '../../contracts/index.ts';
import { catchUpProjection } from './catchUp.ts';
import { createProjectionLease } from './projectionLease.ts';
import type { LogSubscriber } from './projector.ts';
import { projectionTopic } from './projector.ts';
import type { LogReader } from './sharedLogReader.ts';

/** A runner moved its projection's checkpoint to `position` with a batch that made `changes` view changes. */
export type ProgressListener = (name: string, position: Position, changes: number) => void;

export type ProjectionRunnerDeps = {
  readonly projector: LogSubscriber;
  readonly eventStore: EventStore;
  readonly viewStore: ViewStore;
  readonly queue: Queue;
  readonly log: Logger;
  readonly clock: Clock;
  /** Identity of this process in the lease (unique per process). */
  readonly owner: string;
  readonly batchSize?: number;
  /** Stored event data a batch reads at most (default BATCH_BYTES of catchUp.ts). */
  readonly batchBytes?: number;
  /** Reads batches from the log (default: `eventStore.readAll`); the runners of one worker share one. */
  readonly readEvents?: LogReader;
  /** Safety-net poll covering lost wake-ups. */
  readonly pollIntervalMs?: number;
  readonly leaseTtlMs?: number;
  /** First retry delay after a failed batch; doubles per failure up to `retryMaxMs`. */
  readonly retryBaseMs?: number;
  readonly retryMaxMs?: number;
};

export type ProjectionRunner = {
  readonly name: string;
  /** Initialises storage and starts competing for the lease; resolves without waiting for catch-up. */
  start(): Promise<void>;
  /** Finishes the in-flight batch, releases the lease and unsubscribes; resolves when idle. */
  stop(): Promise<void>;
  /** Catches up once (taking the lease if free); the number of events applied. Rejects when a batch fails. */
  runOnce(): Promise<number>;
  /** Called after every checkpoint move of this runner. Returns a function removing the listener. */
  onProgress(listener: ProgressListener): () => void;
  /** Whether this runner currently holds the projection's lease. */
  isLeader(): boolean;
};

const MAX_ERROR_LENGTH = 2000;

/**
 * Runs one projection (spec operations §2, §3): only the lease holder processes; it is woken by the queue, by
 * the event store's append notifications and by a periodic poll, and always reads the log after its checkpoint.
 */
export function createProjectionRunner(deps: ProjectionRunnerDeps): ProjectionRunner {
  const { projector, eventStore, viewStore, queue, clock, owner } = deps;
  const batchSize = deps.batchSize ?? 1000;
  const pollIntervalMs = deps.pollIntervalMs ?? 1000;
  const leaseTtlMs = deps.leaseTtlMs ?? 10_000;
  const retryBaseMs = deps.retryBaseMs ?? 200;
  const retryMaxMs = deps.retryMaxMs ?? 30_000;
  const name = projector.spec.name;
  const log = deps.log.child({ projection: name });
  const listeners = new Set<ProgressListener>();

  let initialized = false;
  let started = false;
  let stopping = false;
  let pollTimer: NodeJS.Timeout | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let unsubscribeQueue: (() => Promise<void>) | null = null;
  let subscribing: Promise<void> | null = null;
  let detaching: Promise<void> | null = null;
  let stopAppended: (() => void) | null = null;
  let pending = false;
  let draining: Promise<void> | null = null;
  let tail: Promise<unknown> = Promise.resolve();
  let failures = 0;
  // A previous process may have left an error behind: clear it after our first successful cycle.
  let errorRecorded = true;

  const lease = createProjectionLease({
    viewStore,
    name,
    owner,
    ttlMs: leaseTtlMs,
    clock,
    log,
    onHeld: () => {
      attach();
      void wake();
    },
    onLost: () => {
      detaching = detach();
    },
  });
  const canDrain = (): boolean => started && !stopping && retryTimer === null && lease.isValid();

  function emitProgress(position: Position, changes: number): void {
    for (const listener of listeners) {
      try {
        listener(name, position, changes);
      } catch (err) {
        log.warn({ err }, 'progress listener failed');
      }
    }
  }

  async function ensureStorage(): Promise<void> {
    if (initialized) return;
    const active = await viewStore.activeVersion(name);
    // Ensure the ACTIVE version (a rebuild may have moved it past spec.version); idempotent, adds missing indexes.
    await viewStore.ensureProjection(active === null ? projector.spec : { ...projector.spec, version: active });
    initialized = true;
  }

  async function activeRef(): Promise<ProjectionRef> {
    const version = await viewStore.activeVersion(name);
    if (version !== null) return { name, version };
    await viewStore.ensureProjection(projector.spec);
    return { name, version: projector.spec.version };
  }

  /** Runs `fn` after every earlier call has settled: one catch-up at a time. */
  function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const result = tail.then(fn);
    tail = result.catch(() => undefined);
    return result;
  }

  async function catchUp(): Promise<number> {
    let ref: ProjectionRef | null = null;
    try {
      ref = await activeRef();
      const current = ref;
      const applied = await catchUpProjection({
        projector,
        eventStore,
        viewStore,
        batchSize,
        ...(deps.batchBytes !== undefined ? { batchBytes: deps.batchBytes } : {}),
        ...(deps.readEvents !== undefined ? { read: deps.readEvents } : {}),
        ref: activeRef,
        shouldContinue: () => !stopping && (started ? lease.isValid() : lease.isClaimed()),
        onBatch: (batchRef, position, events, changes) => {
          ref = batchRef;
          log.debug({ version: batchRef.version, position, events }, 'batch applied');
          emitProgress(position, changes);
        },
        onConflict: (batchRef) => log.debug({ version: batchRef.version }, 'checkpoint moved by another runner'),
      });
      failures = 0;
      if (errorRecorded) {
        await viewStore.recordError(ref ?? current, null);
        errorRecorded = false;
      }
      return applied;
    } catch (err) {
      return handleFailure(err, ref);
    }
  }

  async function handleFailure(err: unknown, ref: ProjectionRef | null): Promise<number> {
    // A rebuild switched readers (and dropped our version) mid-batch: not a failure, just go on with the new one.
    const active = await viewStore.activeVersion(name).catch(() => null);
    if (ref !== null && active !== null && active !== ref.version) {
      log.info({ from: ref.version, to: active }, 'active version switched');
      pending = true;
      return 0;
    }
    failures += 1;
    const message = (err instanceof Error ? err.message : String(err)).slice(0, MAX_ERROR_LENGTH);
    // Another connection held the view store's lock past its busy timeout (an index build, a rebuild in another
    // process): contention, not a fault of the projection. The batch is retried and the projection never shows
    // `failed` for it.
    const contention = isContention(err);
    if (contention) log.warn({ err, version: ref?.version, failures }, 'projection batch met a lock; retrying');
    else log.error({ err, version: ref?.version, failures }, 'projection batch failed');
    if (ref !== null && !contention) {
      try {
        await viewStore.recordError(ref, message);
        errorRecorded = true;
      } catch (recordErr) {
        log.warn({ err: recordErr }, 'could not record projection error');
      }
    }
    if (started && !stopping) {
      const delay = Math.min(retryMaxMs, retryBaseMs * 2 ** Math.min(failures - 1, 20));
      pending = true;
      retryTimer = setTimeout(() => {
        retryTimer = null;
        void wake();
      }, delay);
    }
    throw err;
  }

  function wake(): Promise<void> {
    pending = true;
    if (draining === null && canDrain()) draining = drain();
    return draining ?? Promise.resolve();
  }

  async function drain(): Promise<void> {
    // Yield first so `draining` is assigned before the finally below can clear it.
    await Promise.resolve();
    try {
      while (pending && canDrain()) {
        pending = false;
        await exclusive(catchUp).catch(() => undefined);
      }
    } finally {
      draining = null;
    }
  }

  /** Subscribes in the background: a slow or unreachable queue must never delay lease renewals. */
  function attach(): void {
    if (!started || stopping) return;
    stopAppended ??= eventStore.onAppended(() => void wake());
    if (unsubscribeQueue !== null || subscribing !== null) return;
    subscribing = queue
      .subscribe(projectionTopic(name), () => wake())
      .then(
        (unsubscribe) => {
          unsubscribeQueue = unsubscribe;
        },
        // The poll covers wake-ups until the next lease renewal subscribes again.
        (err: unknown) => log.warn({ err }, 'queue subscribe failed'),
      )
      .finally(() => {
        subscribing = null;
      });
  }

  async function detach(): Promise<void> {
    stopAppended?.();
    stopAppended = null;
    await subscribing;
    const unsubscribe = unsubscribeQueue;
    unsubscribeQueue = null;
    if (unsubscribe === null) return;
    try {
      await unsubscribe();
    } catch (err) {
      log.warn({ err }, 'queue unsubscribe failed');
    }
  }

  return {
    name,
    async start() {
      if (started) return;
      await ensureStorage();
      started = true;
      stopping = false;
      await lease.renew();
      lease.startRenewing();
      pollTimer = setInterval(() => void wake(), pollIntervalMs);
    },
    async stop() {
      if (!started) return;
      stopping = true;
      if (retryTimer !== null) clearTimeout(retryTimer);
      if (pollTimer !== null) clearInterval(pollTimer);
      retryTimer = pollTimer = null;
      await lease.stopRenewing();
      await detaching;
      await detach();
      await draining;
      await tail;
      await lease.release();
      started = false;
      stopping = false;
      log.info('projection runner stopped');
    },
    async runOnce() {
      await ensureStorage();
      if (!lease.isValid()) await lease.renew();
      if (!lease.isClaimed()) return 0;
      try {
        return await exclusive(catchUp);
      } finally {
        // Outside start()/stop() nobody renews the lease: hand it back at once.
        if (!started) await lease.release();
      }
    },
    onProgress(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    isLeader: () => lease.isValid(),
  };
}

/** SQLite's busy and locked errors (better-sqlite3 codes, or the message where the code is lost). */
function isContention(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || (typeof code === 'string' && code.startsWith('SQLITE_BUSY_'))) return true;
  return err instanceof Error && /database (table )?is locked/.test(err.message);
}
