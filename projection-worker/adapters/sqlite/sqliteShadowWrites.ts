import type { Clock, Position, ProjectionRef, ViewChange } from '../../../contracts/index.ts';
import { createSqliteThreads, type SqliteThreads, type SqliteThreadsOptions } from './sqliteReadPool.ts';
import { encodeViewChanges } from './sqliteViewChanges.ts';
import { retryBusyAsync } from './sqliteViewFiles.ts';
import type { SqliteViewMeta } from './sqliteViewMeta.ts';
import type { TableInfo } from './sqliteViewTable.ts';

/**
 * A rebuild's writes into its shadow version (the replay's batches, then its index builds and ANALYZE) on a thread of
 * their own, so that the event loop only reads the log and projects while readers and writers are served. The thread
 * has the index thread's priority, the event loop's (`niceness`, set by the store). Below it, beside a write load on
 * one core (the pinned scale bench), the rebuild got a tenth of the core (3,000-8,000 rows/s at 1,000,000 rows); at
 * the same priority, 26,000 rows/s with readers and writers at p99 66/78 ms, max 413/363 ms. What once made the
 * rebuild starve live writes was the index thread below both: an index build of the live file, holding its write
 * lock, got no core (every single-row write then waited 5 s, its consistency timeout). It has the main connection's page cache (CREATE INDEX sorts in it before spilling to temporary files). Batches of the
 * active version stay on the main connection, where the apply group commits those of every projection ready in one
 * turn.
 */
export function createShadowWrites(options: Omit<SqliteThreadsOptions, 'threads' | 'budgetMs' | 'writable'>, meta: SqliteViewMeta, clock: Clock) {
  const thread = createSqliteThreads({ ...options, threads: 1, budgetMs: null, writable: true, lazy: true });
  return {
    thread,
    /** The thread when `ref` is a version file readers do not see (a shadow) and the thread runs; else null. */
    of(ref: ProjectionRef): SqliteThreads | null {
      if (!thread.available() || (meta.place(ref.name, ref.version)?.file ?? null) === null) return null;
      return meta.activeVersion(ref.name) === ref.version ? null : thread;
    },
    /**
     * ViewStore.applyBatch on the thread (the same transaction as the main connection's apply group), in two steps:
     * the batch is converted to column values at once, and sent when the returned function is called (after the
     * batches handed over before it: the replay converts its next batch while the thread writes the last one).
     */
    prepare(path: string, ref: ProjectionRef, expected: Position | null, next: Position, changes: readonly ViewChange[]): () => Promise<boolean> {
      const tables = meta.tables(ref.name, ref.version) as ReadonlyMap<string, TableInfo>;
      const batch = { ref, expected, next, now: clock.now(), tables, changes: encodeViewChanges(tables, ref, changes) };
      return async () => {
        // Another process's connection holding the file's lock past the thread's busy wait delays the batch.
        if (await retryBusyAsync(() => thread.apply(path, batch))) return true;
        if (meta.place(ref.name, ref.version) === null) throw new Error(`projection ${ref.name} v${ref.version} does not exist`);
        return false;
      };
    },
  };
}
