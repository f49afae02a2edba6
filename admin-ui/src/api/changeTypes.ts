/** The system API's change types (changes.md §1-§2) as this app selects them. */

export type RowChangeKind = 'ADDED' | 'UPDATED' | 'REMOVED' | 'RENAMED';

export type RowChangeCounts = { added: number; updated: number; removed: number; renamed: number; total: number };

export type TableChange = {
  tableId: string;
  previousTableId: string | null;
  change: 'ADDED' | 'REMOVED' | 'RENAMED' | 'MODIFIED';
  schemaChanged: boolean;
  rowChanges: RowChangeCounts;
};

export type RevisionChanges = { revisionId: string; compareWith: string | null; tables: TableChange[]; totalRowChanges: number };

/** A leaf difference of row data: `path` is a JSON Pointer into `data`; null stands for a missing value. */
export type FieldChange = { path: string; before: unknown; after: unknown };

export type RowChange = {
  rowId: string;
  previousRowId: string | null;
  change: RowChangeKind;
  before: unknown;
  after: unknown;
  fieldChanges: FieldChange[];
};

export type RowVersion = {
  revisionId: string;
  branchName: string;
  committedAt: string | null;
  comment: string | null;
  change: 'CREATED' | 'UPDATED' | 'RENAMED' | 'DELETED';
  rowId: string;
  tableId: string;
  data: unknown;
  actorId: string | null;
};
