import { comparePositions, createSystemState, evolveSystemState, sharedPerTurn, systemStateFilter } from '../../contracts/index.ts';
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
 * Callers in the same macrotask share one head query (`sharedPerTurn`, whose share ends before the process can read
 * anything more from the network): a request that arrives after another process acknowledged a write must see that
 * write (operations.md §4.4: a key created, rotated or revoked on one replica takes effect on the next request on
 * every replica). Appends of this process are known at once (`appended`).
 */
export function createSystemStateSource(deps: { readonly eventStore: EventStore }): CatchingUpSystemStateSource {
  const { eventStore } = deps;
  const state = createSystemState();
  let knownHead: Position | null = null;
  let running: Promise<void> | null = null;
  /** Every system event up to here is folded (a head this source read, or an append of this process). */
  let caughtUpTo: Position | null = null;

  async function catchUp(): Promise<void> {
    for (;;) {
      // No event of the system's categories lies between the last one folded and `caughtUpTo`: reading from there
      // skips the other events appended since (the row writes between two system events, read once per request).
      const from = comparePositions(caughtUpTo, state.position) > 0 ? caughtUpTo : state.position;
      const batch = await eventStore.readAll(from, { ...systemStateFilter, maxCount: CATCH_UP_BATCH });
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

  // A failed read is not shared beyond this macrotask either.
  const sharedHead = sharedPerTurn(() => eventStore.headPosition());

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
