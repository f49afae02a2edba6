import type Database from 'better-sqlite3';
import { createBoundedCache } from '../../../contracts/index.ts';

/** Prepared statements kept per connection: entries, and bytes (each counted as 2 KiB plus 3 bytes per SQL character). */
const STATEMENTS_CACHE = { maxEntries: 1_000, maxBytes: 16 * 1024 * 1024 };

/** One connection's prepared statements by SQL text, in the one bounded cache (least recently used go first). */
export function createStatementCache(db: Database.Database) {
  const statements = createBoundedCache<string, Database.Statement>(STATEMENTS_CACHE);
  return {
    prepare(sql: string): Database.Statement {
      let statement = statements.get(sql);
      if (statement === undefined) {
        statement = db.prepare(sql);
        statements.set(sql, statement, 2048 + 3 * sql.length);
      }
      return statement;
    },
    /** Forgets every statement (after a schema change made elsewhere invalidated them). */
    clear: (): void => statements.clear(),
  };
}
