import type { DraftOperation } from '../commands/draftChanges.ts';
import type { ErrorDetail } from '../errors/appError.ts';
import type { SchemaPatch } from './schemaPatches.ts';

/** merge.md §2.4 */
export type MergeConflictKind =
  | 'TABLE_REMOVED_CHANGED'
  | 'TABLE_RENAME'
  | 'TABLE_ID_TAKEN'
  | 'TABLE_SCHEMA'
  | 'ROW_REMOVED_CHANGED'
  | 'ROW_RENAME'
  | 'ROW_ID_TAKEN'
  | 'ROW_UPDATE'
  | 'INVALID_DATA'
  | 'FOREIGN_KEY';

export type MergeConflict = {
  readonly id: string;
  readonly kind: MergeConflictKind;
  readonly tableId: string;
  readonly rowId: string | null;
  readonly path: string | null;
  readonly base: unknown;
  readonly ours: unknown;
  readonly theirs: unknown;
  readonly details: readonly ErrorDetail[] | null;
};

export type MergeTake = 'OURS' | 'THEIRS' | 'VALUE' | 'REMOVE';
export type MergeStrategy = 'FAIL' | 'OURS' | 'THEIRS';
export type MergeResolution = { readonly conflictId: string; readonly take: MergeTake; readonly value?: unknown };
export type MergeStatus = 'UP_TO_DATE' | 'CLEAN' | 'CONFLICTS';

/** Which `take` each kind allows (merge.md §2.4). */
export const ALLOWED_TAKES: Readonly<Record<MergeConflictKind, readonly MergeTake[]>> = {
  TABLE_REMOVED_CHANGED: ['OURS', 'THEIRS'],
  TABLE_RENAME: ['OURS', 'THEIRS'],
  TABLE_ID_TAKEN: ['OURS', 'THEIRS'],
  TABLE_SCHEMA: ['OURS', 'THEIRS'],
  ROW_UPDATE: ['OURS', 'THEIRS', 'VALUE'],
  ROW_REMOVED_CHANGED: ['OURS', 'THEIRS', 'VALUE', 'REMOVE'],
  ROW_RENAME: ['OURS', 'THEIRS', 'VALUE', 'REMOVE'],
  ROW_ID_TAKEN: ['OURS', 'THEIRS', 'VALUE', 'REMOVE'],
  INVALID_DATA: ['VALUE', 'REMOVE'],
  FOREIGN_KEY: ['VALUE', 'REMOVE'],
};

/** One side's change of a row since the base: `baseRowId` null = added, `rowId` null = removed. */
export type SideRowChange = {
  readonly baseRowId: string | null;
  readonly rowId: string | null;
  readonly base: Record<string, unknown> | null;
  readonly data: Record<string, unknown> | null;
};

/**
 * One side's change of a table since the base (a table of the diff base → side, changes.md §1): `baseTableId` null
 * = added, `tableId` null = removed; `rows` are its changed rows (every row when the table was added or removed).
 */
export type SideTableChange = {
  readonly baseTableId: string | null;
  readonly tableId: string | null;
  readonly schemaChanged: boolean;
  readonly baseSchema: Record<string, unknown> | null;
  readonly schema: Record<string, unknown> | null;
  readonly rows: readonly SideRowChange[];
  /**
   * The updateTable patches this side applied to the table since the base, in order (merge.md §2.1), read from the
   * log; they turn `baseSchema` into `schema`. Absent when the log could not give them: the merge recomputes patches
   * from the two schemas (`schemaPatches`, which renders a move as a removal plus an addition).
   */
  readonly patches?: readonly SchemaPatch[];
};

/** The row-level change a merge makes to one table of the target draft (counts like changes.md §1.1). */
export type MergeTableChange = {
  readonly tableId: string;
  readonly previousTableId: string | null;
  readonly change: 'ADDED' | 'REMOVED' | 'RENAMED' | 'MODIFIED';
  readonly schemaChanged: boolean;
  readonly rowChanges: { added: number; updated: number; removed: number; renamed: number; total: number };
};

export type ThreeWayMergeInput = {
  readonly sourceRevisionId: string;
  readonly baseRevisionId: string;
  /** The diff base → target draft, per table. */
  readonly ours: readonly SideTableChange[];
  /** The diff base → source, per table. */
  readonly theirs: readonly SideTableChange[];
  /** Ids of the target draft's tables. */
  readonly oursTableIds: ReadonlySet<string>;
  /** A row of the target draft by its table's id there (ids theirs adds or renames to), null when absent. */
  readonly oursRow: (tableId: string, rowId: string) => Record<string, unknown> | null;
  readonly resolutions: readonly MergeResolution[];
  readonly strategy: MergeStrategy;
  /**
   * Resolutions of the result checks (INVALID_DATA / FOREIGN_KEY, merge.md §2.3): per result table id and row id,
   * the row's data in the result, or null to leave the row out.
   */
  readonly rowOverrides?: ReadonlyMap<string, ReadonlyMap<string, Record<string, unknown> | null>>;
};

export type ThreeWayMergeResult = {
  /** Every conflict found, resolved or not, ordered by (tableId, rowId, path). */
  readonly conflicts: readonly MergeConflict[];
  /** The conflicts left without a resolution (resolutions and strategy applied). */
  readonly open: readonly MergeConflict[];
  /** The draft operations that make the target draft equal to the result (open conflicts keep ours). */
  readonly operations: readonly DraftOperation[];
  /** What the operations change in the draft, by result table id. */
  readonly tables: readonly MergeTableChange[];
  readonly totalRowChanges: number;
};
