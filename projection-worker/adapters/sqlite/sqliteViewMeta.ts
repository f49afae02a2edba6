import type Database from 'better-sqlite3';
import { sharedPerTurn } from '../../../contracts/index.ts';
import type { Clock, Position, ProjectionRef, ProjectionSpec, ProjectionStatus } from '../../../contracts/index.ts';
import { fileCheckpoint } from './sqliteViewFiles.ts';
import { addColumnSql, createIndexSqls, createTableSql, tableInfo } from './sqliteViewTable.ts';
import type { TableInfo } from './sqliteViewTable.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS strata_view_versions (
  name TEXT NOT NULL, version INTEGER NOT NULL, active INTEGER NOT NULL DEFAULT 0, position TEXT,
  updated_at INTEGER, error TEXT, spec TEXT NOT NULL, PRIMARY KEY (name, version));
CREATE TABLE IF NOT EXISTS strata_view_leases (name TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS strata_view_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT OR IGNORE INTO strata_view_meta (key, value) VALUES ('generation', 0);`;

/** How fresh a cached answer must be: checked against other connections now, or once per macrotask. */
type Look = 'now' | 'shared';

type VersionRow = { name: string; version: number; active: number; spec: string; file: string | null };
type StatusRow = {
  name: string;
  version: number;
  active: number;
  position: string | null;
  updated_at: number | null;
  error: string | null;
  owner: string | null;
  expires_at: number | null;
  file: string | null;
};

/** The files of the versions (sqliteViewFiles.ts); null: every version in the meta's own database (`:memory:`). */
export type VersionFileAccess = {
  /** A new file name for a version. */
  name(projection: string, version: number): string;
  /** The connection of this process to a version file: opened on first use, created when `create`. */
  db(file: string, create?: boolean): Database.Database;
};

/** Where a version's collections are: its own file, or (file null) the meta's database. */
export type VersionPlace = { readonly file: string | null };

/**
 * Projection versions, checkpoints and leases, plus caches of specs and active versions. Another process may
 * switch or drop versions: every such change bumps a generation counter, which this connection re-reads only
 * after PRAGMA data_version says that another connection committed something.
 */
export function createSqliteViewMeta(db: Database.Database, clock: Clock, files: VersionFileAccess | null = null) {
  db.exec(SCHEMA);
  // Stores written before version files have no `file` column: their versions stay in this database (file NULL).
  const columns = db.prepare('PRAGMA table_info(strata_view_versions)').all() as { name: string }[];
  if (!columns.some((c) => c.name === 'file')) db.exec('ALTER TABLE strata_view_versions ADD COLUMN file TEXT');
  const q = {
    dataVersion: db.prepare('PRAGMA data_version').pluck(),
    generation: db.prepare("SELECT value FROM strata_view_meta WHERE key = 'generation'").pluck(),
    bump: db.prepare("UPDATE strata_view_meta SET value = value + 1 WHERE key = 'generation'"),
    active: db.prepare('SELECT version FROM strata_view_versions WHERE name = ? AND active = 1').pluck(),
    version: db.prepare('SELECT name, version, active, spec, file FROM strata_view_versions WHERE name = ? AND version = ?'),
    versions: db.prepare('SELECT name, version, active, spec, file FROM strata_view_versions'),
    files: db.prepare('SELECT file FROM strata_view_versions WHERE file IS NOT NULL').pluck(),
    insert: db.prepare(
      `INSERT INTO strata_view_versions (name, version, active, spec, file)
       VALUES (@name, @version, NOT EXISTS (SELECT 1 FROM strata_view_versions WHERE name = @name), @spec, @file)`,
    ),
    setSpec: db.prepare('UPDATE strata_view_versions SET spec = ? WHERE name = ? AND version = ?'),
    checkpoint: db.prepare('SELECT position FROM strata_view_versions WHERE name = ? AND version = ?').pluck(),
    move: db.prepare(
      `UPDATE strata_view_versions SET position = @next, updated_at = @now, error = NULL
       WHERE name = @name AND version = @version AND position IS @expected`,
    ),
    error: db.prepare('UPDATE strata_view_versions SET error = ? WHERE name = ? AND version = ?'),
    activate: db.prepare('UPDATE strata_view_versions SET active = (version = ?) WHERE name = ?'),
    deleteVersion: db.prepare('DELETE FROM strata_view_versions WHERE name = ? AND version = ?'),
    // One statement decides: a row is written only when free, expired or already ours.
    lease: db.prepare(
      `INSERT INTO strata_view_leases (name, owner, expires_at) VALUES (@name, @owner, @expires)
       ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
       WHERE strata_view_leases.owner = excluded.owner OR strata_view_leases.expires_at <= @now`,
    ),
    release: db.prepare('DELETE FROM strata_view_leases WHERE name = ? AND owner = ?'),
    statuses: db.prepare(
      `SELECT v.name, v.version, v.active, v.position, v.updated_at, v.error, l.owner, l.expires_at, v.file
       FROM strata_view_versions v LEFT JOIN strata_view_leases l ON l.name = v.name ORDER BY v.name, v.version`,
    ),
  };

  let dataVersion = q.dataVersion.get();
  let generation = q.generation.get();
  const activeCache = new Map<string, number | null>();
  const tableCache = new Map<string, ReadonlyMap<string, TableInfo>>();
  const placeCache = new Map<string, VersionPlace | null>();
  const listeners: (() => void)[] = [];

  function invalidate(): void {
    activeCache.clear();
    tableCache.clear();
    placeCache.clear();
    for (const listener of listeners) listener();
  }

  /** Drops the caches when another connection changed versions or specs since the last look. */
  function refresh(): void {
    const current = q.dataVersion.get();
    if (current === dataVersion) return;
    dataVersion = current;
    const next = q.generation.get();
    if (next !== generation) {
      generation = next;
      invalidate();
    }
  }

  // Readers look at data_version once per macrotask: the active-version and table lookups of one read share a look.
  // The share ends before the process can read more from the network (sharedPerTurn), so a request never uses
  // versions older than those of its arrival.
  const refreshForRead = sharedPerTurn(refresh);

  /** Records a local change of versions or specs (inside its transaction). */
  function changed(): void {
    q.bump.run();
    invalidate();
    generation = q.generation.get();
  }

  function infosOf(spec: ProjectionSpec): TableInfo[] {
    return spec.collections.map((c) => tableInfo(spec.name, spec.version, c));
  }

  function tables(name: string, version: number): ReadonlyMap<string, TableInfo> | null {
    const cacheKey = `${name}@${version}`;
    let cached = tableCache.get(cacheKey);
    if (cached === undefined) {
      const row = q.version.get(name, version) as VersionRow | undefined;
      if (row === undefined) return null;
      cached = new Map(infosOf(JSON.parse(row.spec) as ProjectionSpec).map((t) => [t.collection, t]));
      tableCache.set(cacheKey, cached);
    }
    return cached;
  }

  // Creates what is missing and adds new fields as columns; a changed key or type needs a new version.
  const ensure = db.transaction((spec: ProjectionSpec, deferReadIndexes: boolean): void => {
    const infos = infosOf(spec);
    const mine = new Set(infos.map((t) => t.table));
    if (mine.size !== infos.length) throw new Error(`projection ${spec.name}: duplicate collection names`);
    const rows = q.versions.all() as VersionRow[];
    const named = rows.filter((row) => row.name === spec.name);
    // The first version of a projection becomes active below: readers need all of its indexes at once.
    const willBeActive = named.length === 0 || named.some((row) => row.version === spec.version && row.active === 1);
    const defer = deferReadIndexes && !willBeActive;
    for (const row of rows) {
      if (row.name === spec.name && row.version === spec.version) continue;
      const clash = infosOf(JSON.parse(row.spec) as ProjectionSpec).find((t) => mine.has(t.table));
      if (clash) {
        throw new Error(`table ${clash.table} of ${spec.name} v${spec.version} clashes with ${row.name} v${row.version}`);
      }
    }
    const row = q.version.get(spec.name, spec.version) as VersionRow | undefined;
    // A new version gets a file of its own (created under this transaction's lock, so no other process creates a
    // second one); an existing one stays where it is. A version file deleted from outside (its folder removed) comes
    // back empty, with no checkpoint: the projection replays into it.
    const file = row === undefined ? (files?.name(spec.name, spec.version) ?? null) : row.file;
    const target = file === null || files === null ? db : files.db(file, true);
    if (target !== db) fileCheckpoint.create(target);
    spec.collections.forEach((collection, i) => {
      const info = infos[i] as TableInfo;
      target.exec(createTableSql(info));
      const existing = new Set((target.prepare(`PRAGMA table_info(${info.table})`).all() as { name: string }[]).map((c) => c.name));
      for (const [field, type] of info.fields) if (!existing.has(field)) target.exec(addColumnSql(info, field, type));
      for (const { sql } of createIndexSqls(info, collection, defer)) target.exec(sql);
    });
    const stored = JSON.stringify({ name: spec.name, version: spec.version, collections: spec.collections });
    if (row === undefined) q.insert.run({ name: spec.name, version: spec.version, spec: stored, file });
    else if (row.spec !== stored) q.setSpec.run(stored, spec.name, spec.version);
    else return;
    changed();
  });

  const activate = db.transaction((name: string, version: number): void => {
    if (q.version.get(name, version) === undefined) throw new Error(`projection ${name} v${version} does not exist`);
    q.activate.run(version, name);
    changed();
  });

  /**
   * Forgets a version; its storage is the caller's to remove: the returned file, or (file null) the returned tables
   * of this database. Null when the version does not exist.
   */
  const dropVersion = db.transaction((ref: ProjectionRef): { file: string | null; tables: string[] } | null => {
    const row = q.version.get(ref.name, ref.version) as VersionRow | undefined;
    if (row === undefined) return null;
    if (row.active === 1) throw new Error(`projection ${ref.name} v${ref.version} is active and cannot be dropped`);
    q.deleteVersion.run(ref.name, ref.version);
    changed();
    return { file: row.file, tables: row.file === null ? infosOf(JSON.parse(row.spec) as ProjectionSpec).map((info) => info.table) : [] };
  });

  /** Where the version is (null: it does not exist), cached until versions change. */
  function placeOf(name: string, version: number): VersionPlace | null {
    const cacheKey = `${name}@${version}`;
    let place = placeCache.get(cacheKey);
    if (place === undefined) {
      const row = q.version.get(name, version) as VersionRow | undefined;
      place = row === undefined ? null : { file: files === null ? null : row.file };
      placeCache.set(cacheKey, place);
    }
    return place;
  }

  /** The version file's connection, or null when the version lives in this database. Throws when it does not exist. */
  function fileDb(ref: ProjectionRef): Database.Database | null {
    const place = placeOf(ref.name, ref.version);
    if (place === null) throw new Error(`projection ${ref.name} v${ref.version} does not exist`);
    return place.file === null || files === null ? null : files.db(place.file);
  }

  return {
    refresh,
    invalidate,
    onInvalidate: (listener: () => void): void => void listeners.push(listener),
    /** `look: 'shared'` (readers) shares one check for other connections' changes per macrotask; 'now' checks every call. */
    tables: (name: string, version: number, look: Look = 'now'): ReadonlyMap<string, TableInfo> | null => {
      if (look === 'shared') refreshForRead();
      else refresh();
      return tables(name, version);
    },
    ensure: (spec: ProjectionSpec, deferReadIndexes = false): void => ensure.immediate(spec, deferReadIndexes),
    /** The stored spec of a version, or null when it does not exist. */
    spec(name: string, version: number): ProjectionSpec | null {
      const row = q.version.get(name, version) as VersionRow | undefined;
      return row === undefined ? null : (JSON.parse(row.spec) as ProjectionSpec);
    },
    activeVersion(name: string, look: Look = 'now'): number | null {
      if (look === 'shared') refreshForRead();
      else refresh();
      let version = activeCache.get(name);
      if (version === undefined) {
        version = (q.active.get(name) as number | undefined) ?? null;
        activeCache.set(name, version);
      }
      return version;
    },
    activate: (name: string, version: number): void => activate.immediate(name, version),
    dropVersion: (ref: ProjectionRef): { file: string | null; tables: string[] } | null => dropVersion.immediate(ref),
    /** Where the version's collections are; null when it does not exist ('shared' as in `tables`). */
    place(name: string, version: number, look: Look = 'now'): VersionPlace | null {
      if (look === 'shared') refreshForRead();
      else refresh();
      return placeOf(name, version);
    },
    /** The version files the meta names (those of other processes' versions too). */
    files: (): Set<string> => new Set(q.files.all() as string[]),
    /** Whether versions still live in this database (stores written before version files). */
    hasLegacyVersions: (): boolean => (q.versions.all() as VersionRow[]).some((row) => row.file === null),
    checkpoint(ref: ProjectionRef): Position | null {
      refresh();
      const file = placeOf(ref.name, ref.version) === null ? null : fileDb(ref);
      if (file !== null) return fileCheckpoint.get(file).position;
      return (q.checkpoint.get(ref.name, ref.version) as Position | undefined) ?? null;
    },
    /** Compare-and-set of the checkpoint; call inside the batch transaction (on the version's connection). False on a mismatch. */
    moveCheckpoint(ref: ProjectionRef, expected: Position | null, next: Position): boolean {
      const file = fileDb(ref);
      if (file !== null) {
        if (fileCheckpoint.move(file, expected, next, clock.now())) return true;
        if (q.version.get(ref.name, ref.version) === undefined) throw new Error(`projection ${ref.name} v${ref.version} does not exist`);
        return false;
      }
      const params = { name: ref.name, version: ref.version, expected, next, now: clock.now() };
      if (q.move.run(params).changes === 1) return true;
      if (q.version.get(ref.name, ref.version) === undefined) {
        throw new Error(`projection ${ref.name} v${ref.version} does not exist`);
      }
      return false;
    },
    recordError(ref: ProjectionRef, message: string | null): void {
      refresh();
      const file = placeOf(ref.name, ref.version) === null ? null : fileDb(ref);
      if (file !== null) fileCheckpoint.recordError(file, message);
      else q.error.run(message, ref.name, ref.version);
    },
    acquireLease(name: string, owner: string, ttlMs: number): boolean {
      const now = clock.now();
      return q.lease.run({ name, owner, expires: now + ttlMs, now }).changes === 1;
    },
    releaseLease: (name: string, owner: string): void => void q.release.run(name, owner),
    statuses(): ProjectionStatus[] {
      const now = clock.now();
      refresh();
      return (q.statuses.all() as StatusRow[]).flatMap((r) => {
        const leased = r.owner !== null && r.expires_at !== null && r.expires_at > now;
        let checkpoint = { position: r.position as Position | null, updatedAt: r.updated_at, error: r.error };
        if (r.file !== null && files !== null) {
          try {
            checkpoint = fileCheckpoint.get(files.db(r.file));
          } catch {
            // Dropped by another process since the meta was read.
            return [];
          }
        }
        return {
          name: r.name,
          version: r.version,
          active: r.active === 1,
          position: checkpoint.position,
          updatedAt: checkpoint.updatedAt,
          error: checkpoint.error,
          leaseOwner: leased ? r.owner : null,
          leaseExpiresAt: leased ? r.expires_at : null,
        };
      });
    },
  };
}

export type SqliteViewMeta = ReturnType<typeof createSqliteViewMeta>;
