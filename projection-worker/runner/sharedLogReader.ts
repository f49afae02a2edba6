import { comparePositions } from '../../contracts/index.ts';
import type { EventStore, Position, ReadAllResult } from '../../contracts/index.ts';

/**
 * Reads the batch after `after` of the given categories. `head` is the log head read BEFORE the call: every
 * event of those categories up to it is in the result unless the result is full (`maxCount` events) or was cut
 * by `maxBytes` (EventStore `ReadAllOptions.maxBytes`).
 */
export type LogReader = (
  after: Position | null,
  categories: readonly string[],
  maxCount: number,
  head: Position,
  maxBytes?: number,
) => Promise<ReadAllResult>;

type Entry = {
  readonly after: Position | null;
  readonly maxCount: number;
  readonly maxBytes: number | undefined;
  readonly head: Position;
  /** The read, possibly still running (a remote store): concurrent readers share it. */
  readonly events: Promise<ReadAllResult>;
  /** Set when the read has finished. */
  full?: boolean;
};

/** Kept batches are dropped this long after the last read: a batch of bulk events can hold 100+ MB. */
const KEEP_MS = 1000;

/**
 * A reader shared by the runners of one process. Runners of projections over the same categories (catalog,
 * schemas and rows all follow `branch` and `organization`) move in step and read the same batches: the last batch
 * per category set is kept, so the log is read and its JSON parsed once per batch instead of once per projection.
 * The log is append-only, so a kept batch stays right for a later reader from the same place unless that reader
 * knows a later head and the kept batch was short. Runners get the same event objects: projectors never mutate
 * events (they are pure).
 */
export function createSharedLogReader(eventStore: EventStore): LogReader {
  const last = new Map<string, Entry>();
  let expiry: NodeJS.Timeout | null = null;
  return async (after, categories, maxCount, head, maxBytes) => {
    if (expiry !== null) clearTimeout(expiry);
    expiry = setTimeout(() => last.clear(), KEEP_MS);
    // Never keeps the process alive.
    expiry.unref();
    const key = [...new Set(categories)].sort().join('\n');
    const kept = last.get(key);
    const same = kept !== undefined && kept.after === after && kept.maxCount === maxCount && kept.maxBytes === maxBytes;
    if (same && (kept.full === true || comparePositions(head, kept.head) <= 0)) return kept.events;
    const read = eventStore.readAll(after, { categories, maxCount, ...(maxBytes !== undefined ? { maxBytes } : {}) });
    const entry: Entry = { after, maxCount, maxBytes, head, events: read };
    last.set(key, entry);
    try {
      const events = await entry.events;
      entry.full = events.length >= maxCount || events.cutShort === true;
      return events;
    } catch (err) {
      if (last.get(key) === entry) last.delete(key);
      throw err;
    }
  };
}
