import type { Logger } from 'pino';
import type { EventStore, ViewStore } from '../../contracts/index.ts';
import type { BranchContentStore } from './branchContentStore.ts';
import { createDecisionCatchUp } from './decisionCatchUp.ts';
import { createDecisionFacts } from './decisionFacts.ts';

export type DurableContentStoreOptions = {
  /** The decision state's own view store (SQLite, DATA_DIR/state.db in deployments). */
  readonly views: ViewStore;
  readonly eventStore: EventStore;
  readonly log: Logger;
};

/**
 * Branch contents read from the durable decision state (docs/reference/versioned-storage.md §2) instead of folded
 * into memory: `withBranch` catches the state up to the log head, then hands `run` the branch's tables with no rows;
 * decisions gather the rows they ask for (`gatherMissing`) and the state is dropped when `run` ends. Nothing of a
 * branch outlives its batch. Work on one branch is serialized within this process like the in-memory store's.
 */
export function createDurableContentStore(options: DurableContentStoreOptions): BranchContentStore & { warmUp(): Promise<void> } {
  const catchUp = createDecisionCatchUp({ views: options.views, eventStore: options.eventStore, log: options.log });
  const facts = createDecisionFacts(options.views);
  const tails = new Map<string, Promise<unknown>>();

  return {
    withBranch(branch, system, run) {
      const task = async () => {
        await catchUp.catchUp();
        return run(await facts.load(system, branch));
      };
      const previous = tails.get(branch.id) ?? Promise.resolve();
      const result = previous.then(task, task);
      const tail = result.catch(() => undefined);
      tails.set(branch.id, tail);
      void tail.then(() => {
        if (tails.get(branch.id) === tail) tails.delete(branch.id);
      });
      return result;
    },
    // A state is read for one batch only: nothing to fold into it later.
    catchUp: () => catchUp.catchUp(),
    gatherMissing: (state) => facts.gatherMissing(state),
    async appended(appended) {
      try {
        await catchUp.applyAppended(appended);
      } catch (err) {
        // The events are in the log: the next catch-up reads them.
        options.log.warn({ err }, 'applying appended events to the decision state failed; the catch-up reads them');
      }
    },
    warmUp: () => catchUp.catchUp(),
  };
}
