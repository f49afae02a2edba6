import type Database from 'better-sqlite3';

type StatRow = { readonly idx: string | null; readonly stat: string };
type Stat4Row = { readonly idx: string; readonly neq: string; readonly nlt: string; readonly ndlt: string; readonly sample: Buffer };

const literal = (value: string | null): string => (value === null ? 'NULL' : `'${value.replaceAll("'", "''")}'`);

export function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/**
 * The statements that give `toTable` (a rebuilt version's table, in its own file) the planner statistics of
 * `fromTable` (the active version's, in `activeDb`): same rows, same index definitions, index names that differ only
 * by the table name they start with (sqliteViewTable.ts, sqliteViewIndex.ts). An ANALYZE of a 1,000,000-row rows
 * table reads every index in full (2.5 s of a 25 s rebuild); the active version's statistics say the same, or are as
 * stale as the live table's (the statistics refresh then finds the new file grown past them). Null when the active
 * version has no statistics for the table or for one of `toIndexes` (the indexes the table will have): the caller
 * analyzes then. sqlite_stat1 (and sqlite_stat4, where SQLite keeps samples) must exist in the target file.
 */
export function copiedStatisticsSql(activeDb: Database.Database, fromTable: string, toTable: string, toIndexes: readonly string[]): string | null {
  if (!hasTable(activeDb, 'sqlite_stat1')) return null;
  const rename = (idx: string | null): string | null => (idx === null ? null : idx.replace(fromTable, toTable));
  const wanted = new Set(toIndexes);
  const stat1 = activeDb
    .prepare<[string], StatRow>('SELECT idx, stat FROM sqlite_stat1 WHERE tbl = ?')
    .all(fromTable)
    .map((row) => ({ idx: rename(row.idx), stat: row.stat }))
    .filter((row) => row.idx === null || wanted.has(row.idx));
  if (stat1.length === 0 || toIndexes.some((name) => !stat1.some((row) => row.idx === name))) return null;
  const sql = [
    `DELETE FROM sqlite_stat1 WHERE tbl = ${literal(toTable)}`,
    `INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ${stat1.map((row) => `(${literal(toTable)}, ${literal(row.idx)}, ${literal(row.stat)})`).join(', ')}`,
  ];
  if (hasTable(activeDb, 'sqlite_stat4')) {
    const stat4 = activeDb
      .prepare<[string], Stat4Row>('SELECT idx, neq, nlt, ndlt, sample FROM sqlite_stat4 WHERE tbl = ?')
      .all(fromTable)
      .filter((row) => wanted.has(rename(row.idx) as string));
    sql.push(`DELETE FROM sqlite_stat4 WHERE tbl = ${literal(toTable)}`);
    const values = stat4.map(
      (row) =>
        `(${literal(toTable)}, ${literal(rename(row.idx))}, ${literal(row.neq)}, ${literal(row.nlt)}, ${literal(row.ndlt)}, X'${row.sample.toString('hex')}')`,
    );
    // In chunks: a statement's length is bounded (SQLITE_MAX_SQL_LENGTH, 1,000,000 bytes by default).
    for (let i = 0; i < values.length; i += 200)
      sql.push(`INSERT INTO sqlite_stat4 (tbl, idx, neq, nlt, ndlt, sample) VALUES ${values.slice(i, i + 200).join(', ')}`);
  }
  return sql.join('; ');
}

/** The names of the indexes `sql` (CREATE INDEX statements of completeVersion) make on `table`. */
export function indexNamesMadeBy(sql: readonly string[], table: string): string[] {
  const names: string[] = [];
  for (const statement of sql) {
    const match = /^CREATE (?:UNIQUE )?INDEX IF NOT EXISTS "((?:[^"]|"")+)" ON "((?:[^"]|"")+)"/.exec(statement);
    if (match !== null && match[2]?.replaceAll('""', '"') === table) names.push((match[1] as string).replaceAll('""', '"'));
  }
  return names;
}
