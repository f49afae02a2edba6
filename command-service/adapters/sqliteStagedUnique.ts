import type Database from 'better-sqlite3';
import type { DeferredUniqueValue, StagedUniqueCheck, StagedUniqueClash } from '../../contracts/index.ts';

/**
 * The unique-value scratch of a staging (EventStaging.recordUnique / checkUnique / clashingRows), in the staging's
 * file: `staged_unique` (one row per written row and unique field with a value; `value` is its JSON text, which keeps
 * numbers by value and strings byte for byte, never equal to each other, as uniqueClashes' keys do),
 * `staged_row_ids` (every row the staging writes or deletes: such a holder no longer holds its old value) and
 * `staged_unique_clashes` (what the last check found). The check is SQL over these tables, so a 1,000,000-row import
 * costs SQLite's pages, not the heap; only the values that repeat or have a holder are grouped further.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS staged_unique (
  staging_id TEXT NOT NULL,
  field INTEGER NOT NULL,
  value TEXT NOT NULL,
  idx INTEGER NOT NULL,
  row_id TEXT NOT NULL,
  path TEXT NOT NULL,
  holder TEXT,
  created INTEGER NOT NULL,
  PRIMARY KEY (staging_id, field, value, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS staged_row_ids (
  staging_id TEXT NOT NULL,
  row_id TEXT NOT NULL,
  PRIMARY KEY (staging_id, row_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS staged_unique_clashes (
  staging_id TEXT NOT NULL,
  idx INTEGER NOT NULL,
  field INTEGER NOT NULL,
  row_id TEXT NOT NULL,
  path TEXT NOT NULL,
  value TEXT NOT NULL,
  other_row_id TEXT NOT NULL,
  created INTEGER NOT NULL,
  PRIMARY KEY (staging_id, idx, field)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS staged_unique_clashes_row ON staged_unique_clashes (staging_id, row_id);
`;

/**
 * Per field and value: the first row by index, and a holder the staging neither writes nor deletes (the draft is
 * unique, so there is at most one). With such a holder every row of the value clashes with it; without, the rows
 * after the first clash with the first (domain/rows/uniqueClashes.ts, one command's rule).
 */
const CHECK = `
INSERT INTO staged_unique_clashes (staging_id, idx, field, row_id, path, value, other_row_id, created)
SELECT u.staging_id, u.idx, u.field, u.row_id, u.path, u.value, COALESCE(g.holder, f.row_id), u.created
FROM (
  SELECT field, value, MIN(idx) AS first_idx,
    MAX(CASE WHEN holder IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM staged_row_ids r WHERE r.staging_id = @id AND r.row_id = holder) THEN holder END) AS holder
  FROM staged_unique WHERE staging_id = @id
  GROUP BY field, value
  HAVING COUNT(*) > 1 OR MAX(holder) IS NOT NULL
) g
JOIN staged_unique u ON u.staging_id = @id AND u.field = g.field AND u.value = g.value
JOIN staged_unique f ON f.staging_id = @id AND f.field = g.field AND f.value = g.value AND f.idx = g.first_idx
WHERE g.holder IS NOT NULL OR u.idx > g.first_idx
`;

type ClashRow = { idx: number; field: number; row_id: string; path: string; value: string; other_row_id: string };

export function createSqliteStagedUnique(db: Database.Database) {
  db.exec(SCHEMA);
  const stmts = {
    value: db.prepare<[string, number, string, number, string, string, string | null, number]>(
      `INSERT OR REPLACE INTO staged_unique (staging_id, field, value, idx, row_id, path, holder, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    rowId: db.prepare<[string, string]>('INSERT OR IGNORE INTO staged_row_ids (staging_id, row_id) VALUES (?, ?)'),
    clearClashes: db.prepare<[string]>('DELETE FROM staged_unique_clashes WHERE staging_id = ?'),
    check: db.prepare<[{ id: string }]>(CHECK),
    counts: db.prepare<[string], { rows: number; created: number | null }>(
      `SELECT COUNT(*) AS rows, SUM(created) AS created
       FROM (SELECT idx, MAX(created) AS created FROM staged_unique_clashes WHERE staging_id = ? GROUP BY idx)`,
    ),
    first: db.prepare<[string, string, number], ClashRow>(
      `SELECT idx, field, row_id, path, value, other_row_id FROM staged_unique_clashes
       WHERE staging_id = ? AND idx IN (SELECT DISTINCT idx FROM staged_unique_clashes WHERE staging_id = ? ORDER BY idx LIMIT ?)
       ORDER BY idx, field`,
    ),
    clashing: db
      .prepare<[string, string], string>(
        `SELECT DISTINCT row_id FROM staged_unique_clashes WHERE staging_id = ? AND row_id IN (SELECT value FROM json_each(?))`,
      )
      .pluck(),
    dropValues: db.prepare<[string]>('DELETE FROM staged_unique WHERE staging_id = ?'),
    dropRowIds: db.prepare<[string]>('DELETE FROM staged_row_ids WHERE staging_id = ?'),
  };

  const record = db.transaction((stagingId: string, values: readonly DeferredUniqueValue[], rowIds: readonly string[]) => {
    for (const v of values) {
      stmts.value.run(stagingId, v.field, JSON.stringify(v.value), v.index, v.rowId, v.path, v.holder, v.created ? 1 : 0);
    }
    for (const rowId of rowIds) stmts.rowId.run(stagingId, rowId);
  });

  const check = db.transaction((stagingId: string, limit: number): StagedUniqueCheck => {
    stmts.clearClashes.run(stagingId);
    stmts.check.run({ id: stagingId });
    const counts = stmts.counts.get(stagingId) ?? { rows: 0, created: 0 };
    const created = counts.created ?? 0;
    const first: StagedUniqueClash[] = stmts.first.all(stagingId, stagingId, limit).map((row) => ({
      index: row.idx,
      rowId: row.row_id,
      field: row.field,
      path: row.path,
      value: JSON.parse(row.value) as string | number,
      otherRowId: row.other_row_id,
    }));
    return { rows: counts.rows, created, updated: counts.rows - created, first };
  });

  return {
    /** Records values and row ids (run inside the caller's transaction with the staging's touch). */
    record,
    check,
    clashing: (stagingId: string, rowIds: readonly string[]): Set<string> => new Set(stmts.clashing.all(stagingId, JSON.stringify(rowIds))),
    /** Deletes the staging's scratch (with its events: discard, commit, cleanup). */
    drop(stagingId: string): void {
      stmts.dropValues.run(stagingId);
      stmts.dropRowIds.run(stagingId);
      stmts.clearClashes.run(stagingId);
    },
  };
}
