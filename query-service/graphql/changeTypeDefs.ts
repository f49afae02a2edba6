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
enum RowChangeKind { ADDED UPDATED REMOVED RENAMED }
enum RowVersionChange { CREATED UPDATED RENAMED DELETED }

type TableChange {
  tableId: String!
  previousTableId: String
  change: TableChangeKind!
  schemaChanged: Boolean!
  rowChanges: RowChangeCounts!
}

type RowChangeCounts { added: Int!  updated: Int!  removed: Int!  renamed: Int!  total: Int! }

type RowChange {
  rowId: String!
  previousRowId: String
  change: RowChangeKind!
  before: JSON
  after: JSON
  fieldChanges: [FieldChange!]!
}

"A leaf difference of row data: a JSON Pointer into data."
type FieldChange { path: String!  before: JSON  after: JSON }

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
