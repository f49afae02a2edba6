import Database from 'better-sqlite3';
import { sqlitePosition } from '../../contracts/index.ts';
import type { RecordedEvent } from '../../contracts/index.ts';

/**
 * One row of the `events` table in EVENT_COLUMNS order. Reads use raw (array) rows: better-sqlite3 builds them
 * in about half the time of keyed objects, which shows when projections read thousands of events per batch.
 */
export type EventRow = readonly [
  position: number,
  streamId: string,
  revision: number,
  type: string,
  schemaVersion: number,
  data: string,
  metadata: string,
];

const EVENT_COLUMNS = 'position, stream_id, revision, type, schema_version, data, metadata';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position INTEGER PRIMARY KEY AUTOINCREMENT,
  stream_id TEXT NOT NULL,
  stream_category TEXT NOT NULL,
  revision INTEGER NOT NULL,
  event_id TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL,
  schema_version INTEGER NOT NULL,
  data TEXT NOT NULL,
  metadata TEXT NOT NULL,
  UNIQUE (stream_id, revision)
);
CREATE INDEX IF NOT EXISTS events_category_position ON events (stream_category, position);
CREATE INDEX IF NOT EXISTS events_type_position ON events (type, position);
`;

/** Page cache of a connection to the event log, KiB. */
const EVENTS_CACHE_KIB = 4096;

/**
 * Opens (and if needed creates) the event log file. WAL lets readers and the other processes on this host work
 * while one process writes; synchronous=FULL makes a committed append survive power loss; busy_timeout makes a
 * writer wait for another process's transaction instead of failing.
 */
export function openEventsDatabase(file: string, busyTimeoutMs = 5000): Database.Database {
  const db = new Database(file);
  try {
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    // Appends write at the end of the table and its indexes, and this process's readers get its recent appends from
    // memory (recentAppends.ts): 4 MiB of page cache instead of the build's 16 MB default, which a bulk load filled
    // with the overflow pages of events already written (RSS, issue 29).
    db.pragma(`cache_size = -${EVENTS_CACHE_KIB}`);
    db.exec(SCHEMA);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Every statement the store runs, prepared once per connection. */
export function prepareEventStatements(db: Database.Database) {
  return {
    insert: db.prepare<[string, string, number, string, string, number, string, string]>(
      `INSERT INTO events (stream_id, stream_category, revision, event_id, type, schema_version, data, metadata)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    eventById: db.prepare<[string], { stream_id: string; revision: number; position: number }>(
      'SELECT stream_id, revision, position FROM events WHERE event_id = ?',
    ),
    streamRevision: db.prepare<[string], number | null>('SELECT MAX(revision) FROM events WHERE stream_id = ?').pluck(),
    head: db.prepare<[], number | null>('SELECT MAX(position) FROM events').pluck(),
    dataVersion: db.prepare<[], number>('PRAGMA data_version').pluck(),
    readStream: db
      .prepare<[string, number, number], EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?`,
      )
      .raw(true),
    readAll: db.prepare<[number, number], EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`).raw(true),
    // Equality on stream_category plus a range on position: served in order by events_category_position.
    readCategory: db
      .prepare<[string, number, number], EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_category = ? AND position > ? ORDER BY position LIMIT ?`,
      )
      .raw(true),
    // Equality on type plus a range on position: served in order by events_type_position.
    readType: db
      .prepare<[string, number, number], EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE type = ? AND position > ? ORDER BY position LIMIT ?`)
      .raw(true),
    ping: db.prepare<[], number>('SELECT 1').pluck(),
  };
}

export type EventStatements = ReturnType<typeof prepareEventStatements>;

export function toRecordedEvent(row: EventRow): RecordedEvent {
  const [position, streamId, revision, type, schemaVersion, data, metadata] = row;
  return {
    streamId,
    revision,
    position: sqlitePosition(position),
    type,
    schemaVersion,
    data: JSON.parse(data) as unknown,
    metadata: JSON.parse(metadata) as RecordedEvent['metadata'],
  };
}
