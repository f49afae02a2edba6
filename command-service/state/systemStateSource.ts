import { comparePositions, createSystemState, evolveSystemState, systemStateFilter } from '../../contracts/index.ts';
import type { EventStore, Position, SystemState, SystemStateSource } from '../../contracts/index.ts';

/** Events read per readAll call while catching up. */
const CATCH_UP_BATCH = 1000;

export type CatchingUpSystemStateSource = SystemStateSource & {
  /** Hint that the log reached `position` (an append of this process, or an onAppended notification). */
  appended(position: Position): void;
};

/**
 * Keeps one SystemState current by folding the log from where it stopped. `current()` asks the store for its
 * head (one cheap query) and reads only the events after the folded position; concurrent callers share one
 * catch-up, and a caller whose head is beyond what a running catch-up reaches starts the next one.
 *
 * Callers in the same turn of the event loop (requests read from the network together) share one head query: they
 * see the log as it was when the first of them asked, as if they had arrived a moment earlier. Appends of this
 * process are known at once (`appended`), and a client that needs another process's write waits for its position
 * (X-Strata-Min-Position).
 */
export function createSystemStateSource(deps: { readonly eventStore: EventStore }): CatchingUpSystemStateSource {
  const { eventStore } = deps;
  const state = createSystemState();
  let knownHead: Position | null = null;
  let running: Promise<void> | null = null;

  async function catchUp(): Promise<void> {
    for (;;) {
      const batch = await eventStore.readAll(state.position, { ...systemStateFilter, maxCount: CATCH_UP_BATCH });
      if (batch.length === 0) return;
      for (const event of batch) evolveSystemState(state, event);
    }
  }

  // A filtered read may stop short of the head (the last events were of other categories); the head is then
  // reached when a read returns nothing, which is what catchUp() ends on.
  function shareCatchUp(): Promise<void> {
    if (!running) {
      running = catchUp().finally(() => {
        running = null;
      });
    }
    return running;
  }

  let caughtUpTo: Position | null = null;

  let headThisTurn: Promise<Position | null> | null = null;
  const endTurn = (): void => {
    headThisTurn = null;
  };
  function sharedHead(): Promise<Position | null> {
    if (headThisTurn === null) {
      headThisTurn = eventStore.headPosition();
      // A failed read is not shared beyond this turn either.
      setImmediate(endTurn);
    }
    return headThisTurn;
  }

  async function reach(target: Position | null): Promise<void> {
    while (comparePositions(caughtUpTo, target) < 0) {
      const pending = running;
      if (pending) {
        // A catch-up started before our head was known may stop short of it: wait, then check again.
        await pending.catch(() => undefined);
        continue;
      }
      const startedAt = target;
      await shareCatchUp();
      if (comparePositions(caughtUpTo, startedAt) < 0) caughtUpTo = startedAt;
    }
  }

  return {
    async current(): Promise<SystemState> {
      const head = await sharedHead();
      const target = comparePositions(head, knownHead) >= 0 ? head : knownHead;
      if (comparePositions(caughtUpTo, target) < 0) await reach(target);
      return state;
    },
    appended(position: Position): void {
      if (comparePositions(position, knownHead) > 0) knownHead = position;
    },
  };
}
