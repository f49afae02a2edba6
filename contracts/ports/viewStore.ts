import type { Position } from '../events/position.ts';

/** Storage type of a view field. `json` holds any JSON value (objects, arrays). */
export type FieldType = 'text' | 'integer' | 'real' | 'boolean' | 'json';

export type Scalar = string | number | boolean | null;

/** A view document: field name -> value. Fields not declared in the collection spec are not stored. */
export type ViewDoc = Readonly<Record<string, unknown>>;

export type IndexSpec = {
  readonly fields: readonly string[];
  readonly unique?: boolean;
  /**
   * Only readers need this index: no view change of the projection finds its documents through it any faster than
   * through the key or another index. A version ensured with `deferReadIndexes` gets it from `completeVersion`,
   * built once from the filled collection. Not allowed on a unique index (uniqueness constrains every write).
   */
  readonly readersOnly?: boolean;
};

export type CollectionSpec = {
  /** Logical name, unique within its projection (`[a-z][a-z0-9_]*`). */
  readonly name: string;
  /** Every stored field with its type. A missing field reads back as null. */
  readonly fields: Readonly<Record<string, FieldType>>;
  /** Fields forming the primary key (unique). */
  readonly key: readonly string[];
  readonly indexes?: readonly IndexSpec[];
};

/** A projection's storage layout. A new `version` is a new, empty copy that a rebuild fills. */
export type ProjectionSpec = {
  readonly name: string;
  readonly version: number;
  readonly collections: readonly CollectionSpec[];
};

export type ProjectionRef = { readonly name: string; readonly version: number };

export type EnsureProjectionOptions = {
  /**
   * Leaves the `readersOnly` indexes of a version that is not active to `completeVersion` (a rebuild fills a shadow
   * version faster without them). Ignored when the version is or becomes active: readers use it at once.
   */
  readonly deferReadIndexes?: boolean;
};

/** One segment of a path inside a `json` field: a property name or an array index. */
export type PathSegment = string | number;

/** A field, or a value inside a `json` field, optionally cast (casts follow generated-api.md §3.2). */
export type FieldRef = {
  readonly field: string;
  readonly path?: readonly PathSegment[];
  readonly cast?: 'text' | 'int' | 'float' | 'boolean' | 'timestamp';
};

export type CompareOp = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte';

/** Store-independent filter. Comparisons with null never match (use `isNull`). */
export type Filter =
  | { readonly kind: 'all' }
  | { readonly kind: 'and'; readonly filters: readonly Filter[] }
  | { readonly kind: 'or'; readonly filters: readonly Filter[] }
  | { readonly kind: 'not'; readonly filter: Filter }
  | { readonly kind: 'compare'; readonly ref: FieldRef; readonly op: CompareOp; readonly value: Scalar }
  | { readonly kind: 'in'; readonly ref: FieldRef; readonly values: readonly Scalar[] }
  | { readonly kind: 'isNull'; readonly ref: FieldRef }
  /** A test on a value inside a `json` field (or on the field itself when `path` is empty); see JsonTest. */
  | { readonly kind: 'json'; readonly field: string; readonly path: readonly JsonPathSegment[]; readonly test: JsonTest };

/** A path segment inside a json value: property name, array index, or `*` (any element of an array). */
export type JsonPathSegment = string | number;

/**
 * Tests of the row query grammar (generated-api.md §3.1). With `*` segments a test matches when any reached element
 * matches; a path that does not resolve makes the test false. `insensitive` compares Unicode lower-case forms.
 * `equals`/`in` compare deep JSON equality (objects and arrays by their stored JSON text: callers order object keys
 * as stored). `gt`..`lte`: a number operand matches number values numerically, a string operand string values by code
 * point; other value types do not match. `array_contains`: the value is an array containing the operand (an array
 * operand: containing every element).
 */
export type JsonTest =
  | { readonly op: 'equals'; readonly value: unknown; readonly insensitive?: boolean }
  | { readonly op: 'in'; readonly values: readonly unknown[]; readonly insensitive?: boolean }
  | { readonly op: 'gt' | 'gte' | 'lt' | 'lte'; readonly value: number | string }
  | {
      readonly op: 'string_contains' | 'string_starts_with' | 'string_ends_with';
      readonly value: string;
      readonly insensitive?: boolean;
    }
  | { readonly op: 'array_contains'; readonly value: unknown };

/** Sort key. Null values (and, with `cast`, values that cannot be cast) sort after all others in both directions. */
export type SortKey = { readonly ref: FieldRef; readonly direction: 'asc' | 'desc' };

/**
 * An index for finds with equality on `equal` fields, sorted by `sort` (ViewStore.ensureIndex). `include` adds
 * fields after the sort keys that change no order: what the filters of the reads it serves test besides the sort
 * keys, so that a store can answer them from the index alone (a covering index). An included json value (a `data`
 * path without a cast) stands for what the store's json tests read of it (SQLite: the value and its `json_type`).
 */
export type SortIndex = { readonly equal: readonly string[]; readonly sort: readonly SortKey[]; readonly include?: readonly FieldRef[] };

/** The documents of a versioned collection's branch `branchId` valid at sequence `seq` (`fromSeq <= seq < toSeq`). */
export type VersionLayer = { readonly branchId: string; readonly seq: number };

/**
 * A read of a versioned collection (fields `branchId`, `fromSeq`, `toSeq`, `tombstone`) as a revision sees it
 * (docs/reference/versioned-storage.md §1): `layers` from the revision's own branch down to the project's root
 * branch. A document of a layer is visible when no layer above it holds a document (version or tombstone) with
 * equal `identity` fields valid at that layer's sequence; tombstones are never returned. `identity` names key fields.
 */
export type VersionedRead = { readonly layers: readonly VersionLayer[]; readonly identity: readonly string[] };

export type FindQuery = {
  readonly filter?: Filter;
  readonly orderBy?: readonly SortKey[];
  readonly limit?: number;
  readonly offset?: number;
  /** A layered read: `filter`, `orderBy`, `limit` and `offset` apply to the visible documents. */
  readonly versions?: VersionedRead;
};

/** A change to one collection of a projection. Applying the same batch twice is prevented by the checkpoint CAS. */
export type ViewChange =
  /** Inserts `doc`, replacing any document with the same key. */
  | { readonly op: 'upsert'; readonly collection: string; readonly doc: ViewDoc }
  /** Sets fields (`set`) and adds to numeric fields (`inc`) on every matching document. */
  | {
      readonly op: 'update';
      readonly collection: string;
      readonly filter: Filter;
      readonly set?: ViewDoc;
      readonly inc?: Readonly<Record<string, number>>;
    }
  /** Deletes every matching document. */
  | { readonly op: 'delete'; readonly collection: string; readonly filter: Filter }
  /** Inserts a copy of every matching document with `set` applied (replacing documents with the same key). */
  | { readonly op: 'copy'; readonly collection: string; readonly filter: Filter; readonly set: ViewDoc }
  /** Inserts `doc` unless a document with the same key exists (which is left as it is). */
  | { readonly op: 'insertIfAbsent'; readonly collection: string; readonly doc: ViewDoc };

export type ProjectionStatus = {
  readonly name: string;
  readonly version: number;
  /** Whether readers use this version. */
  readonly active: boolean;
  readonly position: Position | null;
  /** Milliseconds since the epoch of the last checkpoint move, or null. */
  readonly updatedAt: number | null;
  /** Last error of the projection's runner, or null once a batch applies again. */
  readonly error: string | null;
  /** Current lease holder and its expiry (ms), if any. */
  readonly leaseOwner: string | null;
  readonly leaseExpiresAt: number | null;
};

/** Query views: read-only documents kept by projections, each with a checkpoint. */
export interface ViewStore {
  readonly backend: 'sqlite' | 'mongodb';
  /** Creates the collections and indexes of `spec` if missing (idempotent). A first version becomes active. */
  ensureProjection(spec: ProjectionSpec, options?: EnsureProjectionOptions): Promise<void>;
  /**
   * Readies an ensured version for `activate`: creates the declared indexes it lacks (those deferred by
   * `ensureProjection`) and, when another version is active, the indexes `ensureIndex` made on that version's
   * collections, so that readers find them after the switch. Idempotent; the version keeps taking batches.
   */
  completeVersion(projection: ProjectionRef): Promise<void>;
  /**
   * Applies `changes` in order and moves the checkpoint of `projection` from `expected` to `next` in one atomic
   * step. Returns false, changing nothing, when the stored checkpoint is not `expected` (another runner moved it).
   * Calls for one version made while an earlier call for it is pending are applied after it, in call order: the only
   * writer of a version (a rebuild's replay) may hand over its next batch before the last one is committed.
   */
  applyBatch(projection: ProjectionRef, expected: Position | null, next: Position, changes: readonly ViewChange[]): Promise<boolean>;
  /** Stored checkpoint of a projection version, or null before its first batch. */
  checkpoint(projection: ProjectionRef): Promise<Position | null>;
  /** Records (or clears with null) the last error of a projection version. */
  recordError(projection: ProjectionRef, message: string | null): Promise<void>;
  /**
   * Acquires or renews the lease on projection `name` for `owner` until now + ttlMs. Returns true when `owner`
   * holds the lease afterwards; false while another owner's lease has not expired.
   */
  acquireLease(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Releases the lease if `owner` holds it. */
  releaseLease(name: string, owner: string): Promise<void>;
  /** Version readers use for `name`, or null before the projection exists. */
  activeVersion(name: string): Promise<number | null>;
  /** Atomically switches readers of `name` to `version` (which must have been ensured). */
  activate(name: string, version: number): Promise<void>;
  /** Drops the storage of a version that is not active. */
  dropVersion(projection: ProjectionRef): Promise<void>;
  /** One entry per stored projection version. */
  projectionStatuses(): Promise<ProjectionStatus[]>;
  /** Document of the active version by its full key, or null. */
  get(projection: string, collection: string, key: Readonly<Record<string, Scalar>>): Promise<ViewDoc | null>;
  /** Matching documents of the active version. */
  find(projection: string, collection: string, query?: FindQuery): Promise<ViewDoc[]>;
  /** Number of matching documents of the active version; with `versions`, of the visible ones (FindQuery.versions). */
  count(projection: string, collection: string, filter?: Filter, versions?: VersionedRead): Promise<number>;
  /**
   * Creates, if missing, an index of the active version of `collection` for finds that filter the `equal` fields by
   * equality and sort by `sort` (as `find` orders), so that they read it instead of sorting. Idempotent and cheap to
   * repeat; an adapter whose sorts cannot use an index for some key kinds (casts, json paths) may create none.
   */
  ensureIndex(projection: string, collection: string, index: SortIndex): Promise<void>;
  /** Checks the store is reachable. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** `{a: 1, b: 'x'}` -> a = 1 AND b = 'x' (null values become isNull). */
export function fieldsEqual(values: Readonly<Record<string, Scalar>>): Filter {
  const filters: Filter[] = Object.entries(values).map(([field, value]) =>
    value === null ? { kind: 'isNull', ref: { field } } : { kind: 'compare', ref: { field }, op: 'eq', value },
  );
  if (filters.length === 1) return filters[0] as Filter;
  return { kind: 'and', filters };
}
