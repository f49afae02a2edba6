import type { Logger } from 'pino';
import { positionBackend, sqliteGlobalPosition, sqlitePosition } from '../../contracts/index.ts';
import type { AppendRequest, AppendResult, EventStore, Position, RecordedEvent, ViewStore } from '../../contracts/index.ts';
import { DECISION_PROJECTION, decisionViewChanges, decisionViews } from './decisionViews.ts';

export type DecisionCatchUpOptions = {
  readonly views: ViewStore;
  readonly eventStore: EventStore;
  readonly log: Logger;
  /** Events applied per batch (one view store transaction with its checkpoint move). Default 50. */
  readonly batchEvents?: number;
  /** Stored event data a batch reads at most (default DECISION_BATCH_BYTES): bulk events are large. */
  readonly batchBytes?: number;
};

/** Brings the decision state (decisionViews.ts) up to the log head. */
export type DecisionCatchUp = {
  /**
   * Applies every branch and organization event after the checkpoint, batch by batch; when it resolves, the state
   * holds at least every event appended before it was called. Calls that overlap share one run.
   */
  catchUp(): Promise<void>;
  /**
   * Applies this process's just-appended requests (in append order, every one appended) to the state without
   * reading them back from the log, when it can prove nothing else was appended in between: positions are gap-free
   * (SQLite), the requests' events are contiguous and the checkpoint is the position right before the first one.
   * Otherwise (KurrentDB, another writer in between, a catch-up in progress) it does nothing and the next catch-up
   * reads them from the log. True when it applied them. The checkpoint still moves by compare-and-set.
   */
  applyAppended(appended: readonly { readonly request: AppendRequest; readonly result: AppendResult }[]): Promise<boolean>;
};

/**
 * The recorded form of `appended` when its events directly follow `checkpoint` in a gap-free log (SQLite
 * positions), else null.
 */
export function recordedAfter(
  checkpoint: Position | null,
  appended: readonly { readonly request: AppendRequest; readonly result: AppendResult }[],
): RecordedEvent[] | null {
  if (checkpoint === null || positionBackend(checkpoint) !== 'sqlite' || appended.length === 0) return null;
  let previous = sqliteGlobalPosition(checkpoint);
  const events: RecordedEvent[] = [];
  for (const { request, result } of appended) {
    if (positionBackend(result.position) !== 'sqlite') return null;
    const count = request.events.length;
    const last = sqliteGlobalPosition(result.position);
    if (last - count !== previous) return null;
    const firstRevision = result.nextExpectedRevision - count + 1;
    request.events.forEach((event, i) => {
      events.push({ ...event, streamId: request.streamId, revision: firstRevision + i, position: sqlitePosition(previous + 1 + i) });
    });
    previous = last;
  }
  return events;
}

const REF = { name: DECISION_PROJECTION, version: decisionViews.version };

/**
 * Event data one catch-up batch reads at most (EventStore `ReadAllOptions.maxBytes`): 50 events of 100,000-row
 * imports would otherwise be 5,000,000 rows in memory (docs/reference/versioned-storage.md §6).
 */
export const DECISION_BATCH_BYTES = 16 * 1024 * 1024;

/**
 * Catch-up of the decision state from its one checkpoint. Each batch moves the checkpoint with a compare-and-set in
 * the same transaction as its changes, so processes sharing the file never apply a batch twice: one that loses the
 * race reads the checkpoint again and goes on from there. The state is a cache of the log: an empty file fills from
 * the first event.
 */
export function createDecisionCatchUp(options: DecisionCatchUpOptions): DecisionCatchUp {
  const { views, eventStore, log } = options;
  const batchEvents = Math.max(1, options.batchEvents ?? 50);
  const maxBytes = options.batchBytes ?? DECISION_BATCH_BYTES;
  let ensured: Promise<void> | null = null;
  let running: Promise<void> | null = null;
  let again = false;

  async function runOnce(): Promise<void> {
    ensured ??= views.ensureProjection(decisionViews);
    await ensured;
    let applied = 0;
    let checkpoint: Position | null = await views.checkpoint(REF);
    for (;;) {
      const events = await eventStore.readAll(checkpoint, { categories: ['branch', 'organization'], maxCount: batchEvents, maxBytes });
      const last = events[events.length - 1];
      if (last === undefined) break;
      if (await views.applyBatch(REF, checkpoint, last.position, decisionViewChanges(events))) {
        applied += events.length;
        checkpoint = last.position;
      } else {
        // Another process sharing the file applied this batch (or more): continue from where it got.
        checkpoint = await views.checkpoint(REF);
      }
      if (events.length < batchEvents && events.cutShort !== true) break;
    }
    if (applied > batchEvents) log.info({ applied }, 'decision state caught up');
  }

  async function applyOwn(appended: Parameters<DecisionCatchUp['applyAppended']>[0]): Promise<boolean> {
    ensured ??= views.ensureProjection(decisionViews);
    await ensured;
    const checkpoint = await views.checkpoint(REF);
    const events = recordedAfter(checkpoint, appended);
    const last = events?.[events.length - 1];
    if (events === null || last === undefined) return false;
    // Compare-and-set: a process sharing the file that applied them from the log first wins, and nothing is lost.
    return views.applyBatch(REF, checkpoint, last.position, decisionViewChanges(events));
  }

  function applyAppended(appended: Parameters<DecisionCatchUp['applyAppended']>[0]): Promise<boolean> {
    // A catch-up in progress may be reading these very events from the log: leave them to it.
    if (running !== null) return Promise.resolve(false);
    let applied = false;
    running = (async () => {
      try {
        applied = await applyOwn(appended);
        // Catch-ups called meanwhile joined this run: they need the log head, not only these events.
        while (again) {
          again = false;
          await runOnce();
        }
      } finally {
        running = null;
      }
    })();
    return running.then(() => applied);
  }

  function catchUp(): Promise<void> {
    if (running !== null) {
      // A run in progress may have read the log before the caller's append: one more run follows it.
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await runOnce();
        } while (again);
      } finally {
        running = null;
      }
    })();
    return running;
  }

  return { catchUp, applyAppended };
}
