import type Database from 'better-sqlite3';
import type { Position, ProjectionRef, ViewChange } from '../../../contracts/index.ts';
import { isBusy } from './sqliteViewFiles.ts';

/** Applies one batch inside the caller's transaction: false when the checkpoint compare-and-set fails. */
export type ApplyInTransaction = (ref: ProjectionRef, expected: Position | null, next: Position, changes: readonly ViewChange[]) => boolean;

type PendingApply = {
  readonly ref: ProjectionRef;
  readonly expected: Position | null;
  readonly next: Position;
  readonly changes: readonly ViewChange[];
  readonly resolve: (applied: boolean) => void;
  readonly reject: (err: unknown) => void;
};
const BUSY_FIRST_DELAY_MS = 5;
const BUSY_MAX_DELAY_MS = 250;
const BUSY_RETRY_MS = 120_000;

type Applied = { readonly ok: true; readonly applied: boolean } | { readonly ok: false; readonly err: unknown };

export type ApplyGroup = {
  /** `ViewStore.applyBatch`: queued, then committed with the other batches of this turn of the event loop. */
  apply(ref: ProjectionRef, expected: Position | null, next: Position, changes: readonly ViewChange[]): Promise<boolean>;
  /** Commits what is queued now (before closing the database); a lock held by another connection fails it. */
  flush(): void;
};

/**
 * Group commit of projection batches: the batches of every projection that are ready in the same turn of the
 * event loop (the runners of one process wake together on each append) share one transaction, each in a savepoint
 * of its own, so a refused or failing batch affects only itself. `beforeWrite` runs first (metadata refresh).
 * A group that meets another connection's write lock (SQLITE_BUSY after the connection's short busy wait) is tried
 * again after an asynchronous backoff, for up to BUSY_RETRY_MS: contention delays batches, it does not fail them.
 */
export function createApplyGroup(db: Database.Database, applyInTransaction: ApplyInTransaction, beforeWrite: () => void): ApplyGroup {
  const applyTx = db.transaction(applyInTransaction);
  let pending: PendingApply[] = [];
  let busySince: number | null = null;
  let busyDelay = BUSY_FIRST_DELAY_MS;
  const groupTx = db.transaction((group: readonly PendingApply[]): Applied[] =>
    group.map((item): Applied => {
      // Some errors (disk full, I/O) make SQLite roll back the whole transaction; going on would autocommit.
      if (!db.inTransaction) throw new Error('view batch transaction was rolled back by SQLite');
      try {
        return { ok: true, applied: applyTx(item.ref, item.expected, item.next, item.changes) };
      } catch (err) {
        return { ok: false, err };
      }
    }),
  );

  function flush(retry = false): void {
    const group = pending;
    pending = [];
    if (group.length === 0) {
      busySince = null;
      return;
    }
    let outcomes: Applied[];
    try {
      beforeWrite();
      const [only] = group;
      outcomes =
        group.length === 1 && only !== undefined
          ? [{ ok: true, applied: applyTx.immediate(only.ref, only.expected, only.next, only.changes) }]
          : groupTx.immediate(group);
    } catch (err) {
      const now = Date.now();
      if (retry && isBusy(err) && now - (busySince ??= now) < BUSY_RETRY_MS) {
        pending = [...group, ...pending];
        setTimeout(() => flush(true), busyDelay);
        busyDelay = Math.min(busyDelay * 2, BUSY_MAX_DELAY_MS);
        return;
      }
      busySince = null;
      busyDelay = BUSY_FIRST_DELAY_MS;
      for (const item of group) item.reject(err);
      return;
    }
    busySince = null;
    busyDelay = BUSY_FIRST_DELAY_MS;
    outcomes.forEach((outcome, i) => {
      const item = group[i] as PendingApply;
      if (outcome.ok) item.resolve(outcome.applied);
      else item.reject(outcome.err);
    });
  }

  return {
    apply: (ref, expected, next, changes) =>
      new Promise<boolean>((resolve, reject) => {
        pending.push({ ref, expected, next, changes, resolve, reject });
        if (pending.length === 1 && busySince === null) setImmediate(() => flush(true));
      }),
    flush: () => flush(false),
  };
}
