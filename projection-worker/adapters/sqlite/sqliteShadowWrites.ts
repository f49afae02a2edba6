import type { Clock, Position, ProjectionRef, ViewChange } from '../../../contracts/index.ts';
import { createSqliteThreads, type SqliteThreads, type SqliteThreadsOptions } from './sqliteReadPool.ts';
import { retryBusyAsync } from './sqliteViewFiles.ts';
import type { SqliteViewMeta } from './sqliteViewMeta.ts';
import type { TableInfo } from './sqliteViewTable.ts';

/**
 * A rebuild's writes into its shadow version (the replay's batches, then its index builds and ANALYZE) on a thread of
 * their own, so that the event loop only reads the log and projects while readers and writers are served. The thread
 * has the index thread's lower priority: on one core (a pinned server) at the event loop's priority it took half of
 * the core from requests and starved an index build of the live file that the live version's writes were waiting
 * for (every single-row write of the scale bench then took 5 s, its consistency timeout, for the whole rebuild). It
 * has the main connection's page cache (CREATE INDEX sorts in it before spilling to temporary files). Batches of the
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
    /** ViewStore.applyBatch on the thread (the same transaction as the main connection's apply group). */
    async apply(path: string, ref: ProjectionRef, expected: Position | null, next: Position, changes: readonly ViewChange[]): Promise<boolean> {
      const tables = meta.tables(ref.name, ref.version) as ReadonlyMap<string, TableInfo>;
      const batch = { ref, expected, next, now: clock.now(), tables, changes };
      // Another process's connection holding the file's lock past the thread's busy wait delays the batch.
      if (await retryBusyAsync(() => thread.apply(path, batch))) return true;
      if (meta.place(ref.name, ref.version) === null) throw new Error(`projection ${ref.name} v${ref.version} does not exist`);
      return false;
    },
  };
}
