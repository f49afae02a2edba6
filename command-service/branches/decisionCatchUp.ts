import type { Logger } from 'pino';
import type { EventStore, Position, ViewStore } from '../../contracts/index.ts';
import { DECISION_PROJECTION, decisionViewChanges, decisionViews } from './decisionViews.ts';

export type DecisionCatchUpOptions = {
  readonly views: ViewStore;
  readonly eventStore: EventStore;
  readonly log: Logger;
  /** Events applied per batch (one view store transaction with its checkpoint move). Default 50. */
  readonly batchEvents?: number;
};

/** Brings the decision state (decisionViews.ts) up to the log head. */
export type DecisionCatchUp = {
  /**
   * Applies every branch and organization event after the checkpoint, batch by batch; when it resolves, the state
   * holds at least every event appended before it was called. Calls that overlap share one run.
   */
  catchUp(): Promise<void>;
};

const REF = { name: DECISION_PROJECTION, version: decisionViews.version };

/**
 * Catch-up of the decision state from its one checkpoint. Each batch moves the checkpoint with a compare-and-set in
 * the same transaction as its changes, so processes sharing the file never apply a batch twice: one that loses the
 * race reads the checkpoint again and goes on from there. The state is a cache of the log: an empty file fills from
 * the first event.
 */
export function createDecisionCatchUp(options: DecisionCatchUpOptions): DecisionCatchUp {
  const { views, eventStore, log } = options;
  const batchEvents = Math.max(1, options.batchEvents ?? 50);
  let ensured: Promise<void> | null = null;
  let running: Promise<void> | null = null;
  let again = false;

  async function runOnce(): Promise<void> {
    ensured ??= views.ensureProjection(decisionViews);
    await ensured;
    let applied = 0;
    let checkpoint: Position | null = await views.checkpoint(REF);
    for (;;) {
      const events = await eventStore.readAll(checkpoint, { categories: ['branch', 'organization'], maxCount: batchEvents });
      const last = events[events.length - 1];
      if (last === undefined) break;
      if (await views.applyBatch(REF, checkpoint, last.position, decisionViewChanges(events))) {
        applied += events.length;
        checkpoint = last.position;
      } else {
        // Another process sharing the file applied this batch (or more): continue from where it got.
        checkpoint = await views.checkpoint(REF);
      }
      if (events.length < batchEvents) break;
    }
    if (applied > batchEvents) log.info({ applied }, 'decision state caught up');
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

  return { catchUp };
}
