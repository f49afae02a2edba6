import type { DeferredUniqueValue } from '../commands/draftChanges.ts';
import type { NewEvent, RecordedEvent } from '../events/envelope.ts';
import type { Position } from '../events/position.ts';

/**
 * Expected state of a stream for an append: `any` (no check), `no_stream` (the stream must not exist),
 * or the exact 0-based revision of the stream's last event.
 */
export type ExpectedRevision = 'any' | 'no_stream' | number;

export type AppendResult = {
  /** Revision of the last appended event; pass it as the next expected revision. */
  readonly nextExpectedRevision: number;
  /** Global position of the last appended event. */
  readonly position: Position;
};

/** One append of a batch: `events` to `streamId` iff the stream matches `expected`. */
export type AppendRequest = {
  readonly streamId: string;
  readonly events: readonly NewEvent[];
  readonly expected: ExpectedRevision;
};

/** What became of one request of an `appendBatch`: its result, or why it appended nothing. */
export type AppendBatchOutcome = { readonly ok: true; readonly result: AppendResult } | { readonly ok: false; readonly error: unknown };

export type ReadAllOptions = {
  /**
   * Only events whose stream category (text before the first `-`) is listed, or whose type is listed in
   * `eventTypes` (the two lists are alternatives: an event matching either is returned). Both omitted = every event.
   */
  readonly categories?: readonly string[];
  readonly eventTypes?: readonly string[];
  /** Maximum number of events returned (the adapter may return fewer; an empty result means caught up). */
  readonly maxCount: number;
  /**
   * Stop once the events read hold at least this many bytes of stored data (at least one event is returned), so a
   * batch of bulk events (a 100,000-row import is one ~26 MB event) stays bounded in memory. A result cut this way
   * holds fewer than `maxCount` events although more follow, and says so (`ReadAllResult.cutShort`). Adapters may
   * ignore it (KurrentDB does).
   */
  readonly maxBytes?: number;
};

/** The events of a `readAll`; `cutShort` when `maxBytes` ended it early (more events may follow). */
export type ReadAllResult = RecordedEvent[] & { readonly cutShort?: true };

export type ReadStreamOptions = {
  /** First revision to return (inclusive); default 0. */
  readonly fromRevision?: number;
  readonly maxCount?: number;
};

/** Thrown (or rejected) when `expected` does not match the stream; nothing was appended. */
export class StreamConflictError extends Error {
  readonly streamId: string;
  readonly expected: ExpectedRevision;
  readonly actual: number | null;
  constructor(streamId: string, expected: ExpectedRevision, actual: number | null) {
    super(`stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'StreamConflictError';
    this.streamId = streamId;
    this.expected = expected;
    this.actual = actual;
  }
}

export function isStreamConflict(err: unknown): err is StreamConflictError {
  return err instanceof Error && err.name === 'StreamConflictError';
}

/**
 * A staging area of the event store (docs/reference/versioned-storage.md §6, option B): events staged under an id
 * are returned by no read (not by `readAll`, `readStream`, `streamRevision`, `headPosition`, `countAfter`, nor
 * notified) until `commit` appends all of them to one stream in one transaction, as one `append` carrying them would,
 * without the caller or the adapter holding them in memory. A staging that is never committed is deleted by
 * `discard` or, once abandoned, by `discardAbandoned`. Optional: backends without a transaction across appends
 * (KurrentDB) have none.
 */
export interface EventStaging {
  /** Adds `events` after those already staged under `stagingId` (creating the staging) and marks it as used now. */
  stage(stagingId: string, events: readonly NewEvent[]): Promise<void>;
  /** How many events are staged under `stagingId` (0 when none). */
  stagedCount(stagingId: string): Promise<number>;
  /** The stagings that hold events, with their size and when they were last staged to (ms since the epoch). */
  list(): Promise<{ readonly stagingId: string; readonly events: number; readonly touchedAt: number }[]>;
  /**
   * Appends every event staged under `stagingId`, in staging order, to `streamId` iff the stream matches `expected`
   * (else StreamConflictError, nothing appended, the staging kept), and deletes the staging in the same transaction.
   * Committing a staging again returns the first commit's result without appending; a staging id that holds nothing
   * and was never committed is an error. An event id already in the log fails the commit whole.
   */
  commit(stagingId: string, streamId: string, expected: ExpectedRevision): Promise<AppendResult>;
  /** Deletes the events staged under `stagingId` (nothing when there are none). */
  discard(stagingId: string): Promise<void>;
  /**
   * Deletes the stagings nothing was staged to for `idleMs`, and those whose process is known to be gone (a crash
   * mid-import); answers how many were deleted. Records of old commits are deleted after `idleMs` too.
   */
  discardAbandoned(idleMs: number): Promise<number>;
  /**
   * Imports into tables with unique fields: records the unique values of rows staged under `stagingId` and the ids
   * of every row it writes or deletes (a scratch kept and deleted with the staging, read by nothing else).
   */
  recordUnique(stagingId: string, values: readonly DeferredUniqueValue[], rowIds: readonly string[]): Promise<void>;
  /**
   * Finds every clash among the recorded values as one command deciding the whole import would (domain.md §5.5), per
   * field and value: a holder that the staging neither writes nor deletes clashes with every row of the value;
   * otherwise the first row by index keeps it and the later ones clash with it. Answers the clashing rows' count
   * (and how many are created or replaced) and the clashes of the first `limit` clashing rows by index, then field.
   * Replaces what an earlier call found.
   */
  checkUnique(stagingId: string, limit: number): Promise<StagedUniqueCheck>;
  /** Which of `rowIds` clash according to the last `checkUnique` of `stagingId`. */
  clashingRows(stagingId: string, rowIds: readonly string[]): Promise<Set<string>>;
}

/** A clash `checkUnique` found: the row, the field, the value and the row that keeps it. */
export type StagedUniqueClash = {
  readonly index: number;
  readonly rowId: string;
  readonly field: number;
  readonly path: string;
  readonly value: string | number;
  readonly otherRowId: string;
};

export type StagedUniqueCheck = {
  readonly rows: number;
  readonly created: number;
  readonly updated: number;
  readonly first: readonly StagedUniqueClash[];
};

/** The append-only log: source of truth with per-stream optimistic concurrency and one global order. */
export interface EventStore {
  /** Which position format this backend produces (spec operations §4.1). */
  readonly backend: 'sqlite' | 'kurrent';
  /** The staging area, when the backend has one (SQLite does, KurrentDB does not). */
  readonly staging?: EventStaging;
  /**
   * Appends all `events` to `streamId` atomically (all or none) iff the stream matches `expected`, else throws
   * StreamConflictError. Retrying an append whose first event id is already stored in that stream returns the
   * original result without appending again (idempotent retries). `events` must not be empty.
   */
  append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /**
   * Appends several requests in order, each exactly as `append` would (atomically, with its own expected revision,
   * idempotent retries), and answers one outcome per request in the same order; it never rejects for one request's
   * failure, and a failing request never fails a request to another stream. Once a request fails, every later
   * request to the same stream in the batch fails with StreamConflictError without being tried: its expected
   * revision was computed as if the failed one had been appended. Backends may write the whole batch in one
   * transaction (group commit); every outcome is final (durable) when the promise resolves.
   */
  appendBatch(requests: readonly AppendRequest[]): Promise<AppendBatchOutcome[]>;
  /** Events of one stream in revision order (upcast); an empty array when the stream does not exist. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Current revision of a stream's last event, or null when the stream does not exist. */
  streamRevision(streamId: string): Promise<number | null>;
  /** Up to `maxCount` events strictly after `after` (null = from the start) in global order (upcast). */
  readAll(after: Position | null, options: ReadAllOptions): Promise<ReadAllResult>;
  /** Position of the last event in the log, or null when the log is empty. */
  headPosition(): Promise<Position | null>;
  /**
   * Calls `listener` soon after events are appended by this or another process sharing the store (polling
   * allowed; notifications may be merged or spurious). Returns a function that stops the notifications.
   */
  onAppended(listener: (head: Position) => void): () => void;
  /** Number of events strictly after `after` up to the head (for lag reporting; may be approximate for kurrent). */
  countAfter(after: Position | null): Promise<number>;
  /** Checks the store is reachable. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * `appendBatch` for backends without a multi-stream transaction: the requests are appended one after another with
 * `append`, and a failure fails the later requests to its stream unattempted (the port's rule).
 */
export async function appendOneByOne(
  append: (streamId: string, events: readonly NewEvent[], expected: ExpectedRevision) => Promise<AppendResult>,
  readRevision: (streamId: string) => Promise<number | null>,
  requests: readonly AppendRequest[],
): Promise<AppendBatchOutcome[]> {
  const failed = new Set<string>();
  const outcomes: AppendBatchOutcome[] = [];
  for (const { streamId, events, expected } of requests) {
    if (failed.has(streamId)) {
      const actual = await readRevision(streamId).catch(() => null);
      outcomes.push({ ok: false, error: new StreamConflictError(streamId, expected, actual) });
      continue;
    }
    try {
      outcomes.push({ ok: true, result: await append(streamId, events, expected) });
    } catch (error) {
      failed.add(streamId);
      outcomes.push({ ok: false, error });
    }
  }
  return outcomes;
}
