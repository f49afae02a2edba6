import type { BranchView } from '../api/views.ts';
import type { MergeConflict, MergeStatus, MergeTableChange } from './mergeTypes.ts';

/** merge.md §3 `MergePreview` (REST body = GraphQL type). */
export type MergePreviewView = {
  readonly status: MergeStatus;
  readonly sourceRevisionId: string;
  readonly baseRevisionId: string;
  readonly targetRevisionId: string;
  readonly tables: readonly MergeTableChange[];
  readonly totalRowChanges: number;
  /** At most MAX_PREVIEW_CONFLICTS, ordered by (tableId, rowId, path). */
  readonly conflicts: readonly MergeConflict[];
  readonly conflictCount: number;
};

/** merge.md §3 `MergeResult`. */
export type MergeResultView = {
  readonly status: Exclude<MergeStatus, 'CONFLICTS'>;
  readonly sourceRevisionId: string;
  readonly baseRevisionId: string;
  readonly branch: BranchView;
  readonly tables: readonly MergeTableChange[];
  readonly totalRowChanges: number;
};

/** merge.md §3: conflicts listed by a preview, and in the details of 409 MERGE_CONFLICT. */
export const MAX_PREVIEW_CONFLICTS = 1000;
export const MAX_CONFLICT_DETAILS = 100;
