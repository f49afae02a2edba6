import type { MergeConflictKind, MergeStrategy, MergeTake } from '../api/generated/operations.ts';

export type { MergeConflictKind, MergeStrategy, MergeTake };

/** A user's choice for one conflict; `value` only with VALUE (a leaf for ROW_UPDATE, else the whole row data). */
export type MergeChoice = { readonly take: MergeTake; readonly value?: unknown };

/** Which `take` each kind allows (merge.md §2.4 table), in the order the screen offers them. */
export function allowedTakes(kind: MergeConflictKind): readonly MergeTake[] {
  if (kind.startsWith('TABLE_')) return ['OURS', 'THEIRS'];
  if (kind === 'ROW_UPDATE') return ['OURS', 'THEIRS', 'VALUE'];
  if (kind === 'INVALID_DATA' || kind === 'FOREIGN_KEY') return ['VALUE', 'REMOVE'];
  return ['OURS', 'THEIRS', 'VALUE', 'REMOVE'];
}

/** Whether a strategy can resolve the kind (never INVALID_DATA / FOREIGN_KEY, merge.md §2.4). */
export function strategyApplies(kind: MergeConflictKind): boolean {
  return kind !== 'INVALID_DATA' && kind !== 'FOREIGN_KEY';
}

/**
 * What a conflict takes when the merge is applied: the user's own choice, else the strategy's side where it applies,
 * else nothing (the conflict stays open).
 */
export function effectiveTake(kind: MergeConflictKind, choice: MergeChoice | undefined, strategy: MergeStrategy): MergeTake | null {
  if (choice) return choice.take;
  if (strategy !== 'FAIL' && strategyApplies(kind)) return strategy;
  return null;
}

/** The `resolutions` of a MergeInput: one per explicit choice, ordered by conflict id for a stable request. */
export function resolutionsOf(choices: ReadonlyMap<string, MergeChoice>): { conflictId: string; take: MergeTake; value?: unknown }[] {
  return [...choices]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([conflictId, choice]) =>
      choice.take === 'VALUE' ? { conflictId, take: 'VALUE', value: choice.value ?? null } : { conflictId, take: choice.take },
    );
}
