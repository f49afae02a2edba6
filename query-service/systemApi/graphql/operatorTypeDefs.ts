/** Object types of the schema dry run (domain.md §6 rule 6) and of the operator API (operations.md §5.1). */
export const operatorTypeDefs = /* GraphQL */ `
"A dry run of updateTable (domain.md §6 rule 6): the table as it would be and what the migration does to its rows."
type TableUpdatePreview {
  table: Table!
  migration: TableMigration!
}

type TableMigration {
  rowsChanged: Int!
  rowsUnchanged: Int!
  "Rows where a conversion could not keep a value and used its rule's fallback (e.g. a string that is no number became 0)."
  rowsLossy: Int!
  "At most 5 changed rows with their data before and after the migration."
  sample: [TableMigrationSample!]!
  "At most 5 values the migration could not keep (the first of each of the first lossy rows)."
  lossySample: [TableMigrationLoss!]!
}

type TableMigrationSample {
  rowId: String!
  before: JSON!
  after: JSON!
}

"A value a migration could not keep: where it is in the row data (JSON Pointer), what it was and what replaces it."
type TableMigrationLoss {
  rowId: String!
  path: String!
  before: JSON!
  after: JSON!
}

"A projection's live version and lag, like one line of \`strata projections status\` (operations.md §5.1)."
type ProjectionStatus {
  name: String!
  version: Int!
  "running, idle, stalled, failed or building"
  status: String!
  "Checkpoint of the live version."
  position: String
  "Position of the last event in the log."
  head: String
  "Events after the checkpoint."
  lag: Int!
  "Time of the last checkpoint."
  updatedAt: DateTime
  error: String
  "The rebuild in progress, if any."
  rebuild: ProjectionRebuild
}

type ProjectionRebuild {
  "Storage version being filled; readers switch to it at the end."
  targetVersion: Int!
  "Checkpoint of the version being filled."
  position: String
  head: String
  "Events the version being filled still has to replay (an addition to operations.md §5.1, for progress bars)."
  lag: Int
  eventsPerSecond: Float!
  "Null when the rebuild runs in another process that this one did not see start."
  startedAt: DateTime
}

type RebuildStarted {
  "Projections whose rebuild was started (one after another for all)."
  names: [String!]!
}

`;
