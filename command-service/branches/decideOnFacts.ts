import { invariant } from '../../contracts/index.ts';
import type { BranchContent } from './branchContent.ts';
import type { BranchContentStore } from './branchContentStore.ts';

/** Rounds of gathering one decision may need (ids, then the tables its checks scan, then what those name). */
const MAX_ROUNDS = 16;

export type FactOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

/**
 * Takes a pure decision on `state` until it asked for no fact the state lacked: each round the store gathers what
 * the last one missed (docs/reference/versioned-storage.md §2), and only the last round's result or refusal counts
 * (earlier rounds saw "absent" where a fact was missing). One round when every row is in memory.
 */
export async function decideOnFacts<T>(
  store: BranchContentStore,
  state: BranchContent,
  decide: () => T,
  needs?: () => void,
): Promise<FactOutcome<T>> {
  if (needs) {
    // What the command names is gathered up front (commandFacts.ts): usually the one round it takes.
    needs();
    await store.gatherMissing(state);
  }
  for (let round = 0; ; round++) {
    let outcome: FactOutcome<T>;
    try {
      outcome = { ok: true, value: decide() };
    } catch (error) {
      outcome = { ok: false, error };
    }
    if (!(await store.gatherMissing(state))) return outcome;
    invariant(round < MAX_ROUNDS, `a decision on branch ${state.branchId} kept missing facts`);
  }
}
