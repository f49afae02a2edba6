const connectionNames = [
  'Organization',
  'OrganizationMember',
  'Project',
  'ProjectMember',
  'Branch',
  'Revision',
  'Table',
  'Row',
  'Endpoint',
  'User',
  'UserRef',
  'RowChange',
  'RowVersion',
  'WebhookDelivery',
] as const;

const connectionTypeDefs = connectionNames
  .map(
    (name) => `
type ${name}Connection {
  edges: [${name}Edge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type ${name}Edge {
  cursor: String!
  node: ${name}!
}
`,
  )
  .join('');

/**
 * Object types and enums of the system API (system-api.md §1, §3.1). Fields with arguments and the nested lookups
 * listed in `nestedFields` are GraphQL-only; the other fields are exactly the REST JSON (contracts/api/views.ts).
 */
export const systemObjectTypeDefs = /* GraphQL */ `
enum SystemRole {
  systemAdmin
  systemUser
}

enum OrganizationRole {
  organizationOwner
  organizationAdmin
  developer
  editor
  reader
}

enum ProjectRole {
  developer
  editor
  reader
}

enum EndpointType {
  GRAPHQL
  REST_API
}

enum EndpointMode {
  head
  draft
  pinned
}

enum ApiKeyType {
  personal
  service
}

enum ApiKeyStatus {
  active
  revoked
  expired
}

type PageInfo {
  hasNextPage: Boolean!
  hasPreviousPage: Boolean!
  startCursor: String
  endCursor: String
}

type User {
  id: ID!
  username: String!
  email: String
  role: SystemRole!
  isActive: Boolean!
  "The user's personal organization (its id equals the username)."
  organizationId: String!
  createdAt: DateTime!
}

type UserRef {
  id: ID!
  username: String!
}

type Organization {
  id: ID!
  isPersonal: Boolean!
  createdAt: DateTime!
  "The caller's role in this organization, if any."
  myRole: OrganizationRole
  projects(data: PageInput): ProjectConnection!
}

type OrganizationMember {
  user: UserRef!
  role: OrganizationRole!
}

type ProjectMember {
  user: UserRef!
  role: ProjectRole!
}

type Project {
  id: ID!
  organizationId: String!
  name: String!
  isPublic: Boolean!
  rootBranchName: String!
  createdAt: DateTime!
  rootBranch: Branch!
  branches(data: PageInput): BranchConnection!
}

type BranchParent {
  branchName: String!
  revisionId: ID!
}

type Branch {
  id: ID!
  projectId: ID!
  name: String!
  isRoot: Boolean!
  createdAt: DateTime!
  headRevisionId: ID!
  draftRevisionId: ID!
  startRevisionId: ID!
  parent: BranchParent
  "Whether the draft has changes."
  touched: Boolean!
  head: Revision!
  draft: Revision!
  start: Revision!
  project: Project!
  revisions(data: PageInput): RevisionConnection!
}

type Revision {
  id: ID!
  branchId: ID!
  sequence: Int!
  parentId: ID
  isStart: Boolean!
  isHead: Boolean!
  isDraft: Boolean!
  hasChanges: Boolean!
  comment: String!
  createdAt: DateTime!
  committedAt: DateTime
  "Revisions merged into this committed revision (merge.md §5); empty for the draft and ordinary commits."
  mergedRevisionIds: [ID!]!
  "The draft's merges not yet committed, in merge order; empty for committed revisions."
  pendingMergeRevisionIds: [ID!]!
  branch: Branch!
  tables(data: PageInput): TableConnection!
  "Endpoints currently serving this revision."
  endpoints: [Endpoint!]!
}

type Table {
  id: ID!
  readonly: Boolean!
  schema: JSON!
  count: Int!
  createdAt: DateTime!
  updatedAt: DateTime!
  "Tables this table references (domain.md §1)."
  foreignKeysTo: [String!]!
  "Tables that reference this table."
  foreignKeysBy: [String!]!
  rows(data: RowsInput): RowConnection!
}


type Row {
  id: ID!
  tableId: String!
  createdAt: DateTime!
  updatedAt: DateTime!
  readonly: Boolean!
  data: JSON!
}

type Endpoint {
  id: ID!
  type: EndpointType!
  mode: EndpointMode!
  organizationId: String!
  projectName: String!
  branchName: String!
  revisionId: ID!
  path: String!
  openApiPath: String
  docsPath: String
  createdAt: DateTime!
}

type LoginResult {
  accessToken: String!
  "Seconds."
  expiresIn: Int!
}

type BulkResult {
  success: Boolean!
  count: Int!
}

"An API key (auth.md §8.2); its secret is shown only by create and rotate."
type ApiKey {
  id: ID!
  name: String!
  "\`svc_\` and the first 6 characters of the secret."
  prefix: String!
  type: ApiKeyType!
  status: ApiKeyStatus!
  "Owner of a personal key; null for service keys."
  userId: ID
  organizationId: String
  "null: all projects within reach."
  projectIds: [ID!]
  "null: all branches; entries are exact names or \`$default\`."
  branchNames: [String!]
  "null: all tables."
  tableIds: [String!]
  readOnly: Boolean!
  "Service keys: {rules}; null for personal keys."
  permissions: JSON
  expiresAt: DateTime!
  revokedAt: DateTime
  lastUsedAt: DateTime
  createdAt: DateTime!
  "User who created the key (for a rotated key: who rotated it)."
  createdBy: ID!
  rotatedFromId: ID
  replacedById: ID
}

type ApiKeyWithSecret {
  secret: String!
  apiKey: ApiKey!
}

enum OAuthClientKind {
  registered
  metadataDocument
}

"An app connected through OAuth (oauth.md §6): a grant of one user to one client."
type OAuthGrant {
  id: ID!
  clientId: String!
  clientName: String
  clientKind: OAuthClientKind!
  scopes: [String!]!
  "The organization narrowing; null = all the user's organizations."
  organizationId: String
  createdAt: DateTime!
  lastUsedAt: DateTime
}
${connectionTypeDefs}
`;

/** GraphQL-only fields of each object type (nested lookups); the remaining fields are the REST JSON shape. */
export const nestedFields: Readonly<Record<string, readonly string[]>> = {
  Organization: ['myRole', 'projects'],
  Project: ['rootBranch', 'branches'],
  Branch: ['head', 'draft', 'start', 'project', 'revisions'],
  Revision: ['branch', 'tables', 'endpoints'],
  Table: ['foreignKeysTo', 'foreignKeysBy', 'rows'],
};
