import type Database from 'better-sqlite3';
import type { Position, ProjectionRef, ViewChange } from '../../../contracts/index.ts';

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
type Applied = { readonly ok: true; readonly applied: boolean } | { readonly ok: false; readonly err: unknown };

export type ApplyGroup = {
  /** `ViewStore.applyBatch`: queued, then committed with the other batches of this turn of the event loop. */
  apply(ref: ProjectionRef, expected: Position | null, next: Position, changes: readonly ViewChange[]): Promise<boolean>;
  /** Commits what is queued now (before closing the database). */
  flush(): void;
};

/**
 * Group commit of projection batches: the batches of every projection that are ready in the same turn of the
 * event loop (the runners of one process wake together on each append) share one transaction, each in a savepoint
 * of its own, so a refused or failing batch affects only itself. `beforeWrite` runs first (metadata refresh).
 */
export function createApplyGroup(db: Database.Database, applyInTransaction: ApplyInTransaction, beforeWrite: () => void): ApplyGroup {
  const applyTx = db.transaction(applyInTransaction);
  let pending: PendingApply[] = [];
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

  function flush(): void {
    const group = pending;
    pending = [];
    if (group.length === 0) return;
    let outcomes: Applied[];
    try {
      beforeWrite();
      const [only] = group;
      outcomes =
        group.length === 1 && only !== undefined
          ? [{ ok: true, applied: applyTx.immediate(only.ref, only.expected, only.next, only.changes) }]
          : groupTx.immediate(group);
    } catch (err) {
      for (const item of group) item.reject(err);
      return;
    }
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
        if (pending.length === 1) setImmediate(flush);
      }),
    flush,
  };
}
