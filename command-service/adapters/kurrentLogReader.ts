import { BACKWARDS, END, FORWARDS, START } from '@kurrent/kurrentdb-client';
import type {
  AllStreamRecordedEvent,
  AllStreamResolvedEvent,
  AllStreamSubscription,
  AppendResult as KurrentAppendResult,
  AppendToStreamOptions,
  EventData,
  Position as LogPosition,
  ReadAllOptions as KurrentReadAllOptions,
  ReadStreamOptions as KurrentReadStreamOptions,
  RecordedEvent as KurrentRecordedEvent,
  ResolvedEvent,
  SubscribeToAllOptions,
} from '@kurrent/kurrentdb-client';
import { compareLogPositions, isStreamNotFound } from './kurrentEventMapping.ts';
import { userEventsSource } from './kurrentReadFilters.ts';
import type { ReadSource } from './kurrentReadFilters.ts';

/** The part of KurrentDBClient the adapter uses (unit tests pass an in-memory fake). */
export type KurrentClient = {
  appendToStream(streamName: string, events: EventData[], options?: AppendToStreamOptions): Promise<KurrentAppendResult>;
  readStream(streamName: string, options?: KurrentReadStreamOptions): AsyncIterableIterator<ResolvedEvent>;
  readAll(options?: KurrentReadAllOptions): AsyncIterableIterator<AllStreamResolvedEvent>;
  subscribeToAll(options?: SubscribeToAllOptions): AllStreamSubscription;
  dispose(): Promise<void>;
};

/** Events of one stream as the server returns them; [] when the stream does not exist. */
export async function readStreamEvents(client: KurrentClient, streamId: string, options: KurrentReadStreamOptions): Promise<KurrentRecordedEvent[]> {
  const events: KurrentRecordedEvent[] = [];
  try {
    for await (const resolved of client.readStream(streamId, options)) {
      if (resolved.event !== undefined) events.push(resolved.event);
    }
  } catch (err) {
    if (isStreamNotFound(err)) return [];
    throw err;
  }
  return events;
}

async function readAllPage(client: KurrentClient, options: KurrentReadAllOptions): Promise<AllStreamRecordedEvent[]> {
  const events: AllStreamRecordedEvent[] = [];
  for await (const resolved of client.readAll(options)) {
    if (resolved.event !== undefined) events.push(resolved.event);
  }
  return events;
}

/**
 * Up to `maxCount` events of `source` strictly after `after` (null = from the start), in log order. Fewer than
 * `maxCount` only when the end of `$all` was reached: a read from a position includes the event at that position,
 * and `source.keep` may drop events the server filter let through, so this reads on until it has enough.
 */
export async function readForward(
  client: KurrentClient,
  after: LogPosition | null,
  source: ReadSource,
  maxCount: number,
): Promise<AllStreamRecordedEvent[]> {
  const found: AllStreamRecordedEvent[] = [];
  let cursor = after;
  while (found.length < maxCount) {
    // One more than needed: the event at the cursor itself comes back first.
    const wanted = maxCount - found.length + 1;
    const page = await readAllPage(client, {
      fromPosition: cursor ?? START,
      direction: FORWARDS,
      maxCount: wanted,
      filter: source.filter,
    });
    for (const event of page) {
      if (cursor !== null && compareLogPositions(event.position, cursor) <= 0) continue;
      if (source.keep(event) && found.length < maxCount) found.push(event);
    }
    const last = page[page.length - 1];
    // The server returns fewer events than asked for only at the end of $all.
    if (last === undefined || page.length < wanted) break;
    if (cursor !== null && compareLogPositions(last.position, cursor) <= 0) break;
    cursor = last.position;
  }
  return found;
}

const BACKWARD_BATCH = 32;

/** The last user event of the log (system events skipped), or null when there is none. */
export async function readLast(client: KurrentClient): Promise<AllStreamRecordedEvent | null> {
  const source = userEventsSource();
  let cursor: LogPosition | null = null;
  for (;;) {
    const page = await readAllPage(client, {
      fromPosition: cursor ?? END,
      direction: BACKWARDS,
      maxCount: BACKWARD_BATCH,
      filter: source.filter,
    });
    for (const event of page) {
      if (cursor !== null && compareLogPositions(event.position, cursor) >= 0) continue;
      if (source.keep(event)) return event;
    }
    const last = page[page.length - 1];
    if (last === undefined || page.length < BACKWARD_BATCH) return null;
    if (cursor !== null && compareLogPositions(last.position, cursor) >= 0) return null;
    cursor = last.position;
  }
}

const COUNT_BATCH = 1000;

/**
 * User events strictly after `after`: exact up to `exactUpTo`, then estimated from the share of the log (in bytes
 * of commit position) that the counted events covered. KurrentDB keeps no per-position event count, so an exact
 * count of a long lag would read the whole lag; lag reports only need the order of magnitude past a threshold.
 */
export async function countAfter(client: KurrentClient, after: LogPosition | null, exactUpTo: number): Promise<number> {
  const source = userEventsSource();
  let counted = 0;
  let first: LogPosition | null = null;
  let cursor = after;
  while (counted < exactUpTo) {
    const wanted = Math.min(COUNT_BATCH, exactUpTo - counted);
    const page = await readForward(client, cursor, source, wanted);
    counted += page.length;
    first ??= page[0]?.position ?? null;
    const last = page[page.length - 1];
    if (last === undefined || page.length < wanted) return counted;
    cursor = last.position;
  }
  const head = await readLast(client);
  if (head === null || cursor === null || first === null) return counted;
  // Events per byte of log between the first and the last counted event, applied to the rest of the log.
  const covered = Number(cursor.commit - first.commit);
  const rest = Number(head.position.commit - cursor.commit);
  if (covered <= 0 || rest <= 0) return counted;
  return counted + Math.round(((counted - 1) * rest) / covered);
}
