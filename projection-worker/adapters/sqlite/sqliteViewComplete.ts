import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import type { ProjectionRef } from '../../../contracts/index.ts';
import { copiedSortIndexSql } from './sqliteViewIndex.ts';
import type { SqliteViewMeta } from './sqliteViewMeta.ts';
import { createIndexSqls } from './sqliteViewTable.ts';

type StoredIndex = { readonly name: string; readonly sql: string | null };

/**
 * ViewStore.completeVersion on SQLite. Each CREATE INDEX is its own statement (SQLite builds it from one sort of the
 * table), so the write lock is released between them. A copied sort index is followed by ANALYZE, as ensureIndex does
 * after creating one: without statistics the planner does not pick it.
 */
export function completeSqliteVersion(db: Database.Database, meta: SqliteViewMeta, ref: ProjectionRef, log?: Logger): void {
  const spec = meta.spec(ref.name, ref.version);
  const tables = meta.tables(ref.name, ref.version);
  if (spec === null || tables === null) throw new Error(`projection ${ref.name} v${ref.version} does not exist`);
  for (const collection of spec.collections) {
    const info = tables.get(collection.name);
    if (info !== undefined) for (const sql of createIndexSqls(info, collection)) db.exec(sql);
  }

  const active = meta.activeVersion(ref.name);
  const from = active === null || active === ref.version ? null : meta.tables(ref.name, active);
  if (from === null) return;
  const indexesOf = db.prepare<[string], StoredIndex>("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?");
  const exists = db.prepare<[string], number>("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").pluck();
  for (const [collection, info] of tables) {
    const source = from.get(collection);
    if (source === undefined) continue;
    let created = false;
    for (const stored of indexesOf.all(source.table.slice(1, -1))) {
      const copy = copiedSortIndexSql(source, info, stored);
      if (copy === null || exists.get(copy.name) !== undefined) continue;
      try {
        db.exec(copy.sql);
        created = true;
      } catch (err) {
        // A later spec may lack a column the old sort used; the query side asks again on first use.
        log?.warn({ err, projection: ref.name, version: ref.version, index: stored.name }, 'sort index not carried over');
      }
    }
    if (created) db.exec(`ANALYZE ${info.table}`);
  }
  log?.debug({ projection: ref.name, version: ref.version }, 'view version completed');
}
