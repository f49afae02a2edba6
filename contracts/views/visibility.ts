import type { Filter } from '../ports/viewStore.ts';

/**
 * Versions (table and row versions, viewSpecs.ts) of `branchId` visible in the revision with sequence `seq`:
 * `fromSeq <= seq < toSeq`.
 */
export function visibleAt(branchId: string, seq: number): Filter {
  return {
    kind: 'and',
    filters: [
      { kind: 'compare', ref: { field: 'branchId' }, op: 'eq', value: branchId },
      { kind: 'compare', ref: { field: 'fromSeq' }, op: 'lte', value: seq },
      { kind: 'compare', ref: { field: 'toSeq' }, op: 'gt', value: seq },
    ],
  };
}
