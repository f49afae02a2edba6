/**
 * The row-change shape of changes.md (§1.2 row changes, §3 `_changes`): the system schema declares it and so does
 * every generated subgraph (there with `tableId` and `@shareable`), both from these fragments.
 */
export const rowChangeKindTypeDefs = `enum RowChangeKind {
  ADDED
  UPDATED
  REMOVED
  RENAMED
}
`;

/** The fields of `RowChange` both schemas declare (a subgraph adds `tableId` before them). */
export const rowChangeFields = `  rowId: String!
  previousRowId: String
  change: RowChangeKind!
  before: JSON
  after: JSON
  fieldChanges: [FieldChange!]!`;

/** `FieldChange`, with the directives of the schema that declares it (`@shareable` in a subgraph). */
export const fieldChangeTypeDefs = (directives: string): string => `"A leaf difference of row data: a JSON Pointer into data."
type FieldChange${directives} {
  path: String!
  before: JSON
  after: JSON
}
`;

/** Object types of revision changes and row history (changes.md §1-§2); their connections are in systemObjectTypeDefs. */
export const changeTypeDefs = /* GraphQL */ `
"Changes between a revision and a base revision (changes.md §1.1)."
type RevisionChanges {
  revisionId: ID!
  "The base actually compared with; null only for a project's first start revision."
  compareWith: ID
  tables: [TableChange!]!
  totalRowChanges: Int!
}

enum TableChangeKind { ADDED REMOVED RENAMED MODIFIED }
${rowChangeKindTypeDefs}enum RowVersionChange { CREATED UPDATED RENAMED DELETED }

type TableChange {
  tableId: String!
  previousTableId: String
  change: TableChangeKind!
  schemaChanged: Boolean!
  rowChanges: RowChangeCounts!
}

enum MergeStatus { UP_TO_DATE CLEAN CONFLICTS }
enum MergeStrategy { FAIL OURS THEIRS }
enum MergeTake { OURS THEIRS VALUE REMOVE }
enum MergeConflictKind {
  TABLE_REMOVED_CHANGED TABLE_RENAME TABLE_ID_TAKEN TABLE_SCHEMA ROW_REMOVED_CHANGED ROW_RENAME ROW_ID_TAKEN ROW_UPDATE
  INVALID_DATA FOREIGN_KEY
}
"A merge conflict (merge.md §2.4); details are error details (errors.md), e.g. the validation errors of INVALID_DATA."
type MergeConflict {
  id: String!
  kind: MergeConflictKind!
  tableId: String!
  rowId: String
  path: String
  base: JSON
  ours: JSON
  theirs: JSON
  details: [JSON!]
}
type MergePreview {
  status: MergeStatus!
  sourceRevisionId: ID!
  baseRevisionId: ID!
  targetRevisionId: ID!
  tables: [TableChange!]!
  totalRowChanges: Int!
  conflicts: [MergeConflict!]!
  conflictCount: Int!
}
type MergeResult {
  status: MergeStatus!
  sourceRevisionId: ID!
  baseRevisionId: ID!
  branch: Branch!
  tables: [TableChange!]!
  totalRowChanges: Int!
}
type RowChangeCounts { added: Int!  updated: Int!  removed: Int!  renamed: Int!  total: Int! }

type RowChange {
${rowChangeFields}
}

${fieldChangeTypeDefs('')}
type RowVersion {
  revisionId: ID!
  branchName: String!
  committedAt: DateTime
  comment: String
  change: RowVersionChange!
  rowId: String!
  tableId: String!
  data: JSON
  actorId: ID
}
`;
