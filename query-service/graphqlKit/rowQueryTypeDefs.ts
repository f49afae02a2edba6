/**
 * Scalars, enums and inputs of the row query grammar (generated-api.md §3) shared by the system schema (as
 * `RowWhereInput`/`RowOrderByInput`) and the generated schemas. Identical in every schema so subgraphs compose.
 */
export const sharedScalarTypeDefs = /* GraphQL */ `
"UTC ISO 8601 date-time with milliseconds, e.g. 2025-03-01T09:30:00.000Z."
scalar DateTime

"Any JSON value."
scalar JSON

enum SortDirection {
  asc
  desc
}

enum SortType {
  text
  int
  float
  boolean
  timestamp
}

enum FilterMode {
  default
  insensitive
}

enum PatchOp {
  replace
}

input StringFilter {
  equals: String
  not: String
  in: [String!]
  notIn: [String!]
  lt: String
  lte: String
  gt: String
  gte: String
  contains: String
  startsWith: String
  endsWith: String
  mode: FilterMode = default
}

input DateTimeFilter {
  equals: DateTime
  not: DateTime
  in: [DateTime!]
  notIn: [DateTime!]
  lt: DateTime
  lte: DateTime
  gt: DateTime
  gte: DateTime
}

input BooleanFilter {
  equals: Boolean
  not: Boolean
}

input JsonFilter {
  path: [String!]!
  equals: JSON
  not: JSON
  in: [JSON!]
  notIn: [JSON!]
  gt: JSON
  gte: JSON
  lt: JSON
  lte: JSON
  string_contains: String
  string_starts_with: String
  string_ends_with: String
  array_contains: JSON
  mode: FilterMode = default
}

input JsonOrderByInput {
  path: [String!]!
  direction: SortDirection = asc
  type: SortType = text
}

"One replace operation: path is a JSON Pointer (/a/b) or dot/bracket notation (a.b, items[0].name)."
input PatchOperationInput {
  op: PatchOp!
  path: String!
  value: JSON!
}
`;

/** Where/orderBy of a row list, named `{prefix}WhereInput`/`{prefix}OrderByInput` (system: `Row`). */
export function rowQueryTypeDefs(prefix: string): string {
  return /* GraphQL */ `
input ${prefix}WhereInput {
  AND: [${prefix}WhereInput!]
  OR: [${prefix}WhereInput!]
  NOT: [${prefix}WhereInput!]
  id: StringFilter
  createdAt: DateTimeFilter
  updatedAt: DateTimeFilter
  readonly: BooleanFilter
  data: JsonFilter
}

"Exactly one key per entry."
input ${prefix}OrderByInput {
  id: SortDirection
  createdAt: SortDirection
  updatedAt: SortDirection
  data: JsonOrderByInput
}
`;
}
