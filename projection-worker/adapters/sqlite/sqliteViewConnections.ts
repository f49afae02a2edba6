import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import { createApplyGroup } from './sqliteApplyGroup.ts';
import type { ApplyGroup, ApplyInTransaction } from './sqliteApplyGroup.ts';
import { BUSY_WAIT_MS, deleteVersionFileOffLoop, ensureVersionDir, openViewDatabase, versionDir } from './sqliteViewFiles.ts';
import { createStatementCache } from './sqliteStatementCache.ts';
import { createSqliteUpserts } from './sqliteViewUpserts.ts';
import type { SqliteUpserts } from './sqliteViewUpserts.ts';

/** This process's connection to one file of the view store (views.db, or a version file). */
export type ViewConnection = {
  /** The version file's name; null for views.db. */
  readonly file: string | null;
  /** Its path (what the threads open). */
  readonly path: string;
  readonly db: Database.Database;
  prepare(sql: string): Database.Statement;
  readonly upserts: SqliteUpserts;
  /** Group commit of the batches into this file's versions. */
  readonly applies: ApplyGroup;
  /** Index builds on this file in flight (the index thread holds its write lock meanwhile). */
  building: number;
  built: Promise<unknown>;
};

export type ViewConnections = {
  readonly main: ViewConnection;
  /** Null for `:memory:` (every version in the one connection). */
  readonly dir: string | null;
  /** The connection of a version file, opened on first use (created when `create`). */
  of(file: string | null, create?: boolean): ViewConnection;
  /** Those open now. */
  open(): ViewConnection[];
  /** The connection to a file if this process has it open (views.db's for null). */
  opened(file: string | null): ViewConnection | null;
  /** Closes this process's connection to a version file (committing its queued batches first). */
  close(file: string): void;
  /** Closes the connections of version files the meta no longer names (dropped, maybe by another process). */
  closeUnreferenced(referenced: ReadonlySet<string>): void;
  /** Deletes the file, then closes the connection to it (and the threads' ones). */
  remove(file: string): Promise<void>;
  closeAll(): void;
};

/**
 * The connections of one view store: views.db's, and one per version file opened so far (no ATTACH: each file is
 * written in transactions of its own, and SQLite limits attached databases to 10).
 */
export function createViewConnections(options: {
  readonly file: string;
  readonly cacheKiB: number;
  readonly applyIn: (connection: ViewConnection) => ApplyInTransaction;
  readonly beforeWrite: () => void;
  /** A version file's connection closed: the threads close theirs. */
  readonly onClose?: (path: string) => void;
  /**
   * Checkpoints of version files run elsewhere (the index thread, after each commit): this process's connections to
   * them never checkpoint (`wal_autocheckpoint = 0`), so the copy and fsync of the WAL never hold the event loop.
   */
  readonly checkpointElsewhere?: boolean;
  readonly log?: Logger;
}): ViewConnections {
  const memory = options.file === ':memory:' || options.file === '';
  const dir = memory ? null : versionDir(options.file);
  const byFile = new Map<string, ViewConnection>();
  /** Version files being deleted (off the event loop): their connections close once the file is gone. */
  const removing = new Set<string>();

  function connect(file: string | null, path: string, db: Database.Database): ViewConnection {
    const statements = createStatementCache(db);
    const connection: ViewConnection = {
      file,
      path,
      db,
      prepare: statements.prepare,
      upserts: createSqliteUpserts(db),
      applies: createApplyGroup(db, (...args) => options.applyIn(connection)(...args), options.beforeWrite),
      building: 0,
      built: Promise.resolve(),
    };
    return connection;
  }

  const main = connect(null, options.file, openViewDatabase(options.file, { cacheKiB: options.cacheKiB, busyMs: BUSY_WAIT_MS }));

  function close(file: string): void {
    const connection = byFile.get(file);
    if (connection === undefined) return;
    byFile.delete(file);
    if (connection.db.open) {
      connection.applies.flush();
      connection.db.close();
    }
    options.onClose?.(connection.path);
    options.log?.debug({ file }, 'view version file closed');
  }

  return {
    main,
    dir,
    of(file, create = false) {
      if (file === null || dir === null) return main;
      let connection = byFile.get(file);
      if (connection === undefined) {
        if (create) ensureVersionDir(dir);
        const path = join(dir, file);
        const db = openViewDatabase(path, { cacheKiB: options.cacheKiB, busyMs: BUSY_WAIT_MS, mustExist: !create });
        if (options.checkpointElsewhere === true) db.pragma('wal_autocheckpoint = 0');
        connection = connect(file, path, db);
        byFile.set(file, connection);
      }
      return connection;
    },
    open: () => [main, ...byFile.values()],
    opened: (file) => (file === null || dir === null ? main : (byFile.get(file) ?? null)),
    close,
    closeUnreferenced(referenced) {
      for (const file of [...byFile.keys()]) if (!referenced.has(file) && !removing.has(file)) close(file);
    },
    async remove(file) {
      if (dir === null) return;
      // Deleted first: SQLite does not checkpoint the WAL of a file that is gone when its last connection closes
      // (closeUnreferenced leaves it open meanwhile).
      removing.add(file);
      try {
        await deleteVersionFileOffLoop(join(dir, file));
      } finally {
        removing.delete(file);
      }
      close(file);
      options.log?.debug({ file }, 'view version file deleted');
    },
    closeAll() {
      for (const file of [...byFile.keys()]) close(file);
      if (main.db.open) main.applies.flush();
      if (main.db.open) main.db.close();
    },
  };
}
