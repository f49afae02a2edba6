import type Database from 'better-sqlite3';
import { StreamConflictError, sqlitePosition, streamCategory } from '../../contracts/index.ts';
import type { AppendResult, DeferredUniqueValue, EventStaging, ExpectedRevision, NewEvent } from '../../contracts/index.ts';
import { createSqliteStagedUnique } from './sqliteStagedUnique.ts';

/**
 * The staging area's tables, in the log's own file so that a commit is one transaction of that file. Staged events
 * keep their order (`seq` from 0), their ids and their JSON; `staging` says who staged last and when (abandoned
 * stagings are found by it); `staged_commits` remembers each commit's result so a retried commit appends nothing.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS staged_events (
  staging_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  event_id TEXT NOT NULL,
  type TEXT NOT NULL,
  schema_version INTEGER NOT NULL,
  data TEXT NOT NULL,
  metadata TEXT NOT NULL,
  PRIMARY KEY (staging_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS staging (
  staging_id TEXT PRIMARY KEY,
  pid INTEGER NOT NULL,
  touched_at INTEGER NOT NULL,
  count INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS staged_commits (
  staging_id TEXT PRIMARY KEY,
  stream_id TEXT NOT NULL,
  revision INTEGER NOT NULL,
  position INTEGER NOT NULL,
  committed_at INTEGER NOT NULL
);
`;

export type SqliteEventStagingOptions = {
  /** This process's id, recorded with what it stages (a staging of a process that is gone is abandoned). */
  readonly pid: number;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  /** Called after a commit appended events (the store notifies its listeners). */
  readonly afterCommit: () => void;
  /** Whether `pid` names a running process on this host. */
  readonly isAlive?: (pid: number) => boolean;
};

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The SQLite event store's staging area (EventStaging). A commit is `INSERT INTO events … SELECT … FROM
 * staged_events` in one IMMEDIATE transaction: the events never pass through JavaScript, so a commit of 1,000,000
 * rows' events (a few hundred MB of JSON) costs SQLite's page cache, not the process's heap; other writers of the
 * file wait for it (versioned-storage.md §6 measured 4.8 s for 264 MB).
 */
export function createSqliteEventStaging(db: Database.Database, options: SqliteEventStagingOptions): EventStaging {
  db.exec(SCHEMA);
  const unique = createSqliteStagedUnique(db);
  const isAlive = options.isAlive ?? processIsAlive;
  const stmts = {
    staging: db.prepare<[string], { count: number }>('SELECT count FROM staging WHERE staging_id = ?'),
    touch: db.prepare<[string, number, number, number]>(
      `INSERT INTO staging (staging_id, pid, touched_at, count) VALUES (?, ?, ?, ?)
       ON CONFLICT (staging_id) DO UPDATE SET pid = excluded.pid, touched_at = excluded.touched_at, count = excluded.count`,
    ),
    insert: db.prepare<[string, number, string, string, number, string, string]>(
      `INSERT INTO staged_events (staging_id, seq, event_id, type, schema_version, data, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    committed: db.prepare<[string], { stream_id: string; revision: number; position: number }>(
      'SELECT stream_id, revision, position FROM staged_commits WHERE staging_id = ?',
    ),
    streamRevision: db.prepare<[string], number | null>('SELECT MAX(revision) FROM events WHERE stream_id = ?').pluck(),
    copy: db.prepare<[string, string, number, string]>(
      `INSERT INTO events (stream_id, stream_category, revision, event_id, type, schema_version, data, metadata)
       SELECT ?, ?, ? + seq, event_id, type, schema_version, data, metadata FROM staged_events WHERE staging_id = ? ORDER BY seq`,
    ),
    head: db.prepare<[], number | null>('SELECT MAX(position) FROM events').pluck(),
    recordCommit: db.prepare<[string, string, number, number, number]>(
      'INSERT INTO staged_commits (staging_id, stream_id, revision, position, committed_at) VALUES (?, ?, ?, ?, ?)',
    ),
    deleteEvents: db.prepare<[string]>('DELETE FROM staged_events WHERE staging_id = ?'),
    deleteStaging: db.prepare<[string]>('DELETE FROM staging WHERE staging_id = ?'),
    all: db.prepare<[], { staging_id: string; pid: number; touched_at: number; count: number }>(
      'SELECT staging_id, pid, touched_at, count FROM staging',
    ),
    deleteOldCommits: db.prepare<[number]>('DELETE FROM staged_commits WHERE committed_at < ?'),
  };

  const stage = db.transaction((stagingId: string, events: readonly NewEvent[]) => {
    let seq = stmts.staging.get(stagingId)?.count ?? 0;
    for (const event of events) {
      stmts.insert.run(
        stagingId,
        seq,
        event.metadata.eventId,
        event.type,
        event.schemaVersion,
        JSON.stringify(event.data ?? null),
        JSON.stringify(event.metadata),
      );
      seq += 1;
    }
    stmts.touch.run(stagingId, options.pid, options.now(), seq);
  });

  const discard = db.transaction((stagingId: string) => {
    stmts.deleteEvents.run(stagingId);
    stmts.deleteStaging.run(stagingId);
    unique.drop(stagingId);
  });

  // The staging's row is touched so that a scratch without events is found by the cleanup too.
  const recordUnique = db.transaction((stagingId: string, values: readonly DeferredUniqueValue[], rowIds: readonly string[]) => {
    unique.record(stagingId, values, rowIds);
    stmts.touch.run(stagingId, options.pid, options.now(), stmts.staging.get(stagingId)?.count ?? 0);
  });

  const commit = db.transaction((stagingId: string, streamId: string, expected: ExpectedRevision): { result: AppendResult; appended: boolean } => {
    const done = stmts.committed.get(stagingId);
    if (done !== undefined) {
      if (done.stream_id !== streamId) throw new Error(`staging ${stagingId} was committed to stream ${done.stream_id}`);
      return { result: { nextExpectedRevision: done.revision, position: sqlitePosition(done.position) }, appended: false };
    }
    const count = stmts.staging.get(stagingId)?.count ?? 0;
    if (count === 0) throw new Error(`staging ${stagingId} holds no events`);
    const actual = stmts.streamRevision.get(streamId) ?? null;
    const matches = expected === 'any' || (expected === 'no_stream' ? actual === null : actual === expected);
    if (!matches) throw new StreamConflictError(streamId, expected, actual);
    const first = (actual ?? -1) + 1;
    stmts.copy.run(streamId, streamCategory(streamId), first, stagingId);
    const revision = first + count - 1;
    const position = stmts.head.get() ?? 0;
    stmts.recordCommit.run(stagingId, streamId, revision, position, options.now());
    stmts.deleteEvents.run(stagingId);
    stmts.deleteStaging.run(stagingId);
    unique.drop(stagingId);
    return { result: { nextExpectedRevision: revision, position: sqlitePosition(position) }, appended: true };
  });

  return {
    async stage(stagingId, events) {
      if (events.length > 0) stage.immediate(stagingId, events);
    },

    async stagedCount(stagingId) {
      return stmts.staging.get(stagingId)?.count ?? 0;
    },

    async commit(stagingId, streamId, expected) {
      const { result, appended } = commit.immediate(stagingId, streamId, expected);
      if (appended) options.afterCommit();
      return result;
    },

    async list() {
      return stmts.all.all().map((row) => ({ stagingId: row.staging_id, events: row.count, touchedAt: row.touched_at }));
    },

    async discard(stagingId) {
      discard.immediate(stagingId);
    },

    async discardAbandoned(idleMs) {
      const cutoff = options.now() - idleMs;
      const abandoned = stmts.all
        .all()
        .filter((row) => row.touched_at <= cutoff || (row.pid !== options.pid && !isAlive(row.pid)))
        .map((row) => row.staging_id);
      for (const stagingId of abandoned) discard.immediate(stagingId);
      stmts.deleteOldCommits.run(cutoff);
      return abandoned.length;
    },

    async recordUnique(stagingId, values, rowIds) {
      if (values.length > 0 || rowIds.length > 0) recordUnique.immediate(stagingId, values, rowIds);
    },

    async checkUnique(stagingId, limit) {
      return unique.check.immediate(stagingId, limit);
    },

    async clashingRows(stagingId, rowIds) {
      return unique.clashing(stagingId, rowIds);
    },
  };
}
