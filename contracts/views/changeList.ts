import type { ViewChange } from '../ports/viewStore.ts';

/**
 * Ordered view changes of one batch where a change registered under a slot key is superseded by the next change
 * under the same key (or dropped by a later change that overwrites the same fields). Only use slots for changes
 * whose effect a later change fully overwrites, so that dropping the earlier one cannot alter the result.
 */
export type ChangeList = {
  push(change: ViewChange): void;
  /** Appends `change` and removes the previous pending change of `slot`. */
  pushLatest(slot: string, change: ViewChange): void;
  /** Removes the pending change of `slot` (a change about to be pushed overwrites what it set). */
  dropLatest(slot: string): void;
  list(): ViewChange[];
};

export function createChangeList(): ChangeList {
  const changes: (ViewChange | null)[] = [];
  const slots = new Map<string, number>();

  function dropLatest(slot: string): void {
    const index = slots.get(slot);
    if (index === undefined) return;
    changes[index] = null;
    slots.delete(slot);
  }

  return {
    push: (change) => {
      changes.push(change);
    },
    pushLatest: (slot, change) => {
      dropLatest(slot);
      slots.set(slot, changes.length);
      changes.push(change);
    },
    dropLatest,
    list: () => changes.filter((change): change is ViewChange => change !== null),
  };
}
