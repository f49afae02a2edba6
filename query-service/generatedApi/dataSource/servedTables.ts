import { createHash } from 'node:crypto';
import { createBoundedCache, estimateBytes } from '../../../contracts/index.ts';
import type { JsonObject, Position, ViewStore } from '../../../contracts/index.ts';
import type { RevisionScope } from '../../readers/revisionScope.ts';
import type { SchemaReader, TableVersion } from '../../readers/schemaReader.ts';
import type { CompiledSchema, TableModels } from '../../readers/tableModels.ts';
import type { GeneratedTable } from '../naming.ts';
import { readKept, type Finality } from './finality.ts';

/** One table of the served revision: its stored version, compiled schema, and the builders' view of it. */
export type ServedTable = {
  readonly version: TableVersion;
  readonly compiled: CompiledSchema;
  readonly generated: GeneratedTable;
};

/** Every table of the served revision, as read for one request. */
export type ServedTables = {
  readonly byId: ReadonlyMap<string, ServedTable>;
  /** Ordered by table id. */
  readonly list: readonly ServedTable[];
  /** Identity of everything the generated schemas depend on (ids, creation times, schemas). */
  readonly hash: string;
};

/** Compiled schemas by stored text: entries and bytes (a compiled model is estimated at 4× its text plus 4 KiB). */
export const COMPILED_SCHEMAS_CACHE = { maxEntries: 1_000, maxBytes: 32 * 1024 * 1024 };
/** Tables of revisions (each of the two caches): entries and bytes (the stored table versions, as JSON-like data). */
export const SERVED_TABLES_CACHE = { maxEntries: 500, maxBytes: 16 * 1024 * 1024 };

/** The tables' own data; their compiled models are shared with (and counted in) the compiled-schema cache. */
const servedTablesBytes = (tables: ServedTables): number => tables.list.reduce((sum, table) => sum + 128 + estimateBytes(table.version), 128);
const SCHEMAS = 'schemas';

type CachedTables = { readonly version: number; readonly checkpoint: string; readonly tables: ServedTables };

/**
 * Reads the tables of a revision and compiles their schemas. The result is kept per revision content (branch and
 * sequence) while the `schemas` projection's checkpoint stays where it was when it was read: nothing in the view can
 * have changed then, and reading the checkpoint costs much less than the tables. Compiled schemas are cached by their
 * stored JSON text, which is cheaper to compute than the canonical form the shared model cache keys on. The tables
 * of a committed revision never change once the `schemas` projection passed its commit: they are kept without
 * reading the checkpoint again once `isFinal` proved that for the position of the state the request was authorized
 * against (which knows the commit).
 */
export function createServedTablesLoader(store: ViewStore, schemas: SchemaReader, models: TableModels, isFinal: Finality) {
  const revisions = createBoundedCache<string, CachedTables>({
    maxEntries: SERVED_TABLES_CACHE.maxEntries,
    maxBytes: SERVED_TABLES_CACHE.maxBytes,
    sizeOf: (cached) => servedTablesBytes(cached.tables),
  });
  const committed = createBoundedCache<string, ServedTables>({
    maxEntries: SERVED_TABLES_CACHE.maxEntries,
    maxBytes: SERVED_TABLES_CACHE.maxBytes,
    sizeOf: servedTablesBytes,
  });
  const compiledByText = createBoundedCache<string, CompiledSchema>(COMPILED_SCHEMAS_CACHE);
  const compile = (schema: JsonObject): CompiledSchema => {
    const text = JSON.stringify(schema);
    let compiled = compiledByText.get(text);
    if (compiled === undefined) {
      compiled = models(schema);
      compiledByText.set(text, compiled, 4 * text.length + 4096);
    }
    return compiled;
  };

  async function read(scope: RevisionScope): Promise<ServedTables> {
    const versions = await schemas.allTables(scope);
    const hash = createHash('sha256');
    const list = versions.map((version): ServedTable => {
      const compiled = compile(version.schema);
      hash.update(`${version.tableId}\0${version.createdAt}\0${compiled.schemaHash}\0`);
      return { version, compiled, generated: { id: version.tableId, createdAt: version.createdAt, model: compiled.model } };
    });
    return { byId: new Map(list.map((table) => [table.version.tableId, table])), list, hash: hash.digest('base64url') };
  }

  return async function loadServedTables(scope: RevisionScope, position: Position | null): Promise<ServedTables> {
    if (!scope.isDraft) return readKept(isFinal, committed, `${scope.branchId}\0${scope.seq}`, { projection: SCHEMAS, position }, () => read(scope));
    const version = await store.activeVersion(SCHEMAS);
    // Read before the tables: the tables read next are at least this new.
    const checkpoint = version === null ? null : await store.checkpoint({ name: SCHEMAS, version });
    if (version === null || checkpoint === null) return read(scope);
    const key = `${scope.branchId}\0${scope.seq}`;
    const cached = revisions.get(key);
    if (cached !== undefined && cached.version === version && cached.checkpoint === checkpoint) return cached.tables;
    const tables = await read(scope);
    revisions.set(key, { version, checkpoint, tables });
    return tables;
  };
}

export type ServedTablesLoader = ReturnType<typeof createServedTablesLoader>;
