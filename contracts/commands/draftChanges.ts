import type { ErrorDetail } from '../errors/appError.ts';
import type { ErrorCode } from '../errors/catalogue.ts';

/**
 * `ApplyDraftChanges` (docs/reference/versioned-storage.md §3): an ordered list of draft operations decided in
 * order, then appended to the branch stream in one append; any refusal refuses the whole command. Merge, restore,
 * table import and bundle import send it. The operations have the shapes of the single commands (without
 * `revisionId` and `bulk`); row lists are not limited to 1000 items, the whole command is (MAX_DRAFT_ROW_CHANGES).
 */
export type DraftOperation =
  | { readonly type: 'CreateTable'; readonly tableId: string; readonly schema: unknown }
  | UpdateTableOperation
  | { readonly type: 'RenameTable'; readonly tableId: string; readonly nextTableId: string }
  | { readonly type: 'DeleteTable'; readonly tableId: string }
  | RowWriteOperation<'CreateRows' | 'UpdateRows' | 'UpsertRows', { readonly rowId: string; readonly data: unknown }>
  | RowWriteOperation<'PatchRows', { readonly rowId: string; readonly patches: unknown }>
  | {
      readonly type: 'DeleteRows';
      readonly tableId: string;
      readonly rowIds: readonly string[];
      /** Set by the command side on a staged bundle's chunks only (refused elsewhere): see `ReferenceChecks`. */
      readonly referenceChecks?: ReferenceChecks;
    }
  | { readonly type: 'RenameRow'; readonly tableId: string; readonly rowId: string; readonly nextRowId: string };

/**
 * A schema update. Rows it migrates into data the new schema refuses are checked on the final draft (a later
 * operation may correct or remove them); those still invalid refuse the command with INVALID_DATA or, with
 * `onInvalidRow: 'report'` (dry runs only: a migration cannot leave a row out), are reported with their data.
 */
type UpdateTableOperation = {
  readonly type: 'UpdateTable';
  readonly tableId: string;
  readonly patches: unknown;
  readonly onInvalidRow?: 'fail' | 'report';
};

/**
 * A row write. `UpsertRows` creates the rows that do not exist and replaces the data of those that do.
 * `onInvalidRow: 'skip'` leaves out the rows that fail their own checks (data, patches, existence, foreign keys
 * against the draft with the operation's accepted rows) and reports them; `'fail'` (default) refuses the command.
 */
type RowWriteOperation<TType extends string, TRow> = {
  readonly type: TType;
  readonly tableId: string;
  readonly rows: readonly TRow[];
  readonly onInvalidRow?: 'fail' | 'skip';
  /**
   * Set by the command side on the chunks of a staged import only (refused elsewhere): unique values are not
   * checked; the result lists each written row's values and their holder in the draft (`deferredUnique`) for the
   * staging's check across the whole file.
   */
  readonly uniqueChecks?: 'defer';
  /** Set by the command side on a staged bundle's chunks only (refused elsewhere): see `ReferenceChecks`. */
  readonly referenceChecks?: ReferenceChecks;
};

/**
 * Foreign keys in a staged bundle import (docs/reference/versioned-storage.md §6): a chunk cannot see the rows of
 * the other chunks, so a written row's foreign-key values naming no row of the draft, or naming a row of one of
 * `replacedTables` (a `mode=replace` bundle's tables, whose rows become exactly the bundle's), are not refused but
 * listed as `deferredReferences`; the importer checks them against the bundle's rows. Deleted rows are not checked
 * for rows still referencing them (with `mode=replace` every row left is one of the bundle's, checked as above).
 */
export type ReferenceChecks = { readonly replacedTables: readonly string[] };

/** Foreign-key values of a written (or unchanged) row that only the bundle's other rows can satisfy. */
export type DeferredReference = {
  /** The row's index in the operation's rows, its id, the value's pointer and the target table. */
  readonly index: number;
  readonly rowId: string;
  readonly path: string;
  readonly tableId: string;
  readonly rowIds: readonly string[];
};

export type DraftOperationType = DraftOperation['type'];

/** A merge's record, appended as `MergeRecorded` after the operations' events (merge.md §5). */
export type DraftMergeRecord = {
  readonly sourceRevisionId: string;
  readonly baseRevisionId: string;
  readonly totalRowChanges: number;
};

export type ApplyDraftChangesInput = {
  /** The branch's draft revision (REVISION_NOT_DRAFT otherwise). */
  readonly revisionId: string;
  readonly operations: readonly DraftOperation[];
  /**
   * The branch stream's revision the caller computed the operations against (`no_stream`: the branch has no
   * content event yet); another revision when the command is decided → 409 CONCURRENT_MODIFICATION, nothing
   * appended. Omitted or null: no check (the operations are decided against the draft as it is then).
   */
  readonly expectedStreamRevision?: number | 'no_stream' | null;
  readonly merge?: DraftMergeRecord | null;
  /** Decide everything and answer the same, append nothing. */
  readonly dryRun?: boolean | null;
  /**
   * Dry runs only. `'report'`: deleted rows that rows of the final draft still reference are answered in `referenced`
   * instead of refusing the command (FOREIGN_KEY_IN_USE), so the other checks are made and answered too (a merge
   * preview lists every conflict of its result, merge.md §2.3). Default `'fail'`.
   */
  readonly onReferencedRow?: 'fail' | 'report';
  /** An import above one command (below); omitted: the operations are appended as usual. */
  readonly stage?: DraftStaging | null;
  /**
   * Set by the command side on a staged bundle's chunks only (refused elsewhere): the created tables' keys are this
   * seed and the operation's index, so every chunk deciding the bundle's tables again names them alike.
   */
  readonly tableKeySeed?: string;
};

/**
 * Staging of an import larger than one command (docs/reference/versioned-storage.md §6): `stage` decides the
 * operations like a dry run against the draft as it is, and stages their events under `stagingId` (read by nothing)
 * instead of appending them; the facts the events carry (row count, equals-HEAD, draft-has-changes) are those of the
 * draft after every chunk staged before (`before`). Only row operations of one table (`CreateRows`, `UpsertRows`,
 * `DeleteRows`), after a bundle's table operations (`bundle`); every chunk of an import must be decided at the same stream revision (the caller checks the
 * answers' `streamRevision`). `commit` appends everything staged under the id to the branch stream in one transaction
 * (`expectedStreamRevision` required: the revision the chunks were decided at; the operations only name the writes
 * for authorization). `discard` drops the staged events. `stagingId` starts with the draft revision id and `:`.
 * Event stores without a staging area (KurrentDB) refuse with 409 LIMIT_EXCEEDED.
 */
export type DraftStaging = {
  readonly stagingId: string;
  /** `checkUnique`: the unique values the chunks wrote are checked across the whole import (below). */
  readonly action: 'stage' | 'commit' | 'discard' | 'checkUnique';
  /** Totals of the chunks staged before under this id (the previous answer's `staged`); none for the first. */
  readonly before?: StagedTotals | null;
  /**
   * Tables with `x-unique` fields: the index in the import's row list of the chunk's first row. The chunk's unique
   * values are recorded under the staging id (not checked); `checkUnique` then finds every clash across the import
   * as one command would (`uniqueClashes` in the answer, the first clashing rows in `operations[0].invalid`).
   */
  readonly firstIndex?: number;
  /** Record the chunk's unique values only, stage no event (a dry run). */
  readonly dryRun?: boolean;
  /** A second pass after `checkUnique` found clashes: rows that clash under this staging id are left out. */
  readonly clashesFrom?: string;
  /**
   * A bundle import (portability.md §3): the first `prefix` operations are the bundle's table operations, decided
   * again in every chunk so that its rows see the tables (their events are staged by the chunk that has no prefix);
   * the operations after them may also be table operations (`DeleteTable` of the tables a `mode=replace` bundle
   * lacks). Foreign keys are checked as `ReferenceChecks` says; the events' facts are the safe side (the tables
   * differ from HEAD). Row operations after the prefix are of one table.
   */
  readonly bundle?: { readonly prefix: number; readonly replacedTables: readonly string[] };
  /** Where the chunk's unique values are recorded and checked (a bundle: one id per table); default `stagingId`. */
  readonly uniqueScope?: string;
};

/** A written row's value of a unique field and the draft row holding it (staged imports, `uniqueChecks: 'defer'`). */
export type DeferredUniqueValue = {
  /** The row's index in the import (the chunk's `firstIndex` plus its index in the chunk). */
  readonly index: number;
  readonly rowId: string;
  /** The field's position among the table's unique fields, and its data path as a JSON Pointer. */
  readonly field: number;
  readonly path: string;
  readonly value: string | number;
  /** The draft row holding the value, leaving out the chunk's written rows (at most one: the draft is unique). */
  readonly holder: string | null;
  /** Whether the row is created (else replaced). */
  readonly created: boolean;
};

/** What the chunks staged so far do to the import's table, so the next chunk's events carry the right facts. */
export type StagedTotals = {
  /** Events staged. */
  readonly events: number;
  /** Row changes staged (the import's size). */
  readonly rowChanges: number;
  /** Rows created minus rows deleted. */
  readonly netRows: number;
  /** Rows written or deleted that leave a draft change (a row not equal to its HEAD row, a HEAD row deleted). */
  readonly inOverlay: number;
  /** Rows written or deleted that were draft changes before the import. */
  readonly overlayTouched: number;
  /** Whether the draft differs from HEAD after the last staged event. */
  readonly hasChanges: boolean;
  /** A bundle: rows created minus rows deleted per table key. */
  readonly netRowsByTable?: Readonly<Record<string, number>>;
};

/**
 * A row an `onInvalidRow: 'skip'` operation left out: its index in `rows`, its id and why. For an UpdateTable with
 * `onInvalidRow: 'report'`: a migrated row still invalid on the final draft, `index` its place in the report, `data`
 * its data there.
 */
export type InvalidDraftRow = {
  readonly index: number;
  readonly rowId: string;
  readonly code: ErrorCode;
  readonly message: string;
  readonly details?: readonly ErrorDetail[];
  readonly data?: unknown;
};

/** What one operation did. Table operations count no rows; `RenameRow` counts its row as renamed. */
export type DraftOperationResult = {
  readonly type: DraftOperationType;
  /** The table's id after the operation. */
  readonly tableId: string;
  readonly created: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly deleted: number;
  readonly renamed: number;
  /** Rows left out by `onInvalidRow: 'skip'`, in `rows` order (UpdateTable: the rows `'report'` names). */
  readonly invalid: readonly InvalidDraftRow[];
  /** `uniqueChecks: 'defer'`: the written rows' unique values (index relative to the operation's rows). */
  readonly deferredUnique?: readonly DeferredUniqueValue[];
  /** `referenceChecks`: foreign-key values left to the bundle's check. */
  readonly deferredReferences?: readonly DeferredReference[];
};

/** Rows of one table deleted while other rows still reference them: the refusal's message and details. */
export type ReferencedRows = {
  readonly message: string;
  /** `{tableId, rowIds}` per referencing table (FOREIGN_KEY_IN_USE's details). */
  readonly details: readonly ErrorDetail[];
};

export type DraftChangesResult = {
  readonly dryRun: boolean;
  /** The branch's draft revision the changes went to (would go to, in a dry run). */
  readonly draftRevisionId: string;
  /** The branch stream's revision after the append (in a dry run or a no-op: the revision decided against). */
  readonly streamRevision: number | null;
  /** Whether the draft differs from HEAD afterwards. */
  readonly hasChanges: boolean;
  /** Row versions written or removed by the append (migrations and foreign-key rewrites included). */
  readonly rowChanges: number;
  readonly operations: readonly DraftOperationResult[];
  /** `onReferencedRow: 'report'`: the FOREIGN_KEY_IN_USE refusals the command would give, one per table deleted from. */
  readonly referenced?: readonly ReferencedRows[];
  /** `stage`: the totals after this chunk (pass them as the next chunk's `before`). */
  readonly staged?: StagedTotals;
  /** `checkUnique`: how many rows of the import clash, and how many of them it would create and replace. */
  readonly uniqueClashes?: { readonly rows: number; readonly created: number; readonly updated: number };
};

/** Row changes one ApplyDraftChanges may append (merge.md §3: 409 LIMIT_EXCEEDED beyond). */
export const MAX_DRAFT_ROW_CHANGES = 100_000;

/** Rows one staged import may write (portability.md §2). */
export const MAX_IMPORT_ROWS = 1_000_000;
