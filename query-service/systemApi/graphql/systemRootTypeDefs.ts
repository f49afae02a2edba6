import { webhookMutationFields, webhookQueryFields } from './webhookTypeDefs.ts';

/**
 * Inputs, queries and mutations of the system API (system-api.md §3.2, §3.3). Each operation takes one `data`
 * argument; it is optional when every field of its input is optional. REST bodies and query strings are checked
 * against the same inputs (minus the ids in the path), so this file is the one description of every input.
 * Fields whose signature in system-api.md §3.2/§3.3 shows plain arguments (`serviceApiKeys`, `apiKeyById`,
 * `revokeApiKey`, `rotateApiKey`) take them without `data`, and so does `setUserRole`, which the spec lacks (its
 * signature is the lead's reading of admin-ui.md §3.2 "change the system role": admin-ui/README.md).
 */
export const systemInputTypeDefs = /* GraphQL */ `
input PageInput { first: Int, after: String }
input RowsInput { first: Int, after: String, where: RowWhereInput, orderBy: [RowOrderByInput!] }

input GetMyOrganizationsInput { first: Int, after: String }
input GetOrganizationInput { organizationId: String! }
input GetUsersOrganizationInput { organizationId: String!, first: Int, after: String }
input GetProjectsInput { organizationId: String!, first: Int, after: String }
input GetProjectInput { organizationId: String!, projectName: String! }
input GetUsersProjectInput { organizationId: String!, projectName: String!, first: Int, after: String }
input GetBranchesInput { organizationId: String!, projectName: String!, first: Int, after: String }
input GetBranchInput { organizationId: String!, projectName: String!, branchName: String! }
input GetRevisionsInput { organizationId: String!, projectName: String!, branchName: String!, first: Int, after: String }
input GetRevisionInput { revisionId: ID! }
input GetTablesInput { revisionId: ID!, first: Int, after: String }
input GetTableInput { revisionId: ID!, tableId: String! }
input GetRowsInput {
  revisionId: ID!, tableId: String!, first: Int, after: String, where: RowWhereInput, orderBy: [RowOrderByInput!]
}
input GetRowInput { revisionId: ID!, tableId: String!, rowId: String! }
input GetRevisionChangesInput { revisionId: ID!, compareWith: ID }
input GetRowChangesInput {
  revisionId: ID!, compareWith: ID, tableId: String!, changes: [RowChangeKind!], first: Int, after: String
}
input GetRowHistoryInput { revisionId: ID!, tableId: String!, rowId: String!, first: Int, after: String }
input GetProjectEndpointsInput {
  organizationId: String!, projectName: String!, branchName: String, type: EndpointType, first: Int, after: String
}
input GetEndpointInput { endpointId: ID! }
input GetUsersInput { search: String, first: Int, after: String }
input GetUserInput { userId: ID! }
input SearchUsersInput { search: String!, first: Int, after: String }
input GetMyApiKeysInput { includeRevoked: Boolean = false }

input LoginInput { username: String!, password: String! }
input UpdatePasswordInput { oldPassword: String!, newPassword: String! }
input CreateUserInput { username: String!, password: String!, role: SystemRole = systemUser, email: String }
input DeactivateUserInput { userId: ID! }
input ReactivateUserInput { userId: ID! }
input ResetPasswordInput { userId: ID!, newPassword: String! }
input CreateOrganizationInput { organizationId: String!, ownerId: ID }
input AddUserToOrganizationInput { organizationId: String!, userId: ID!, role: OrganizationRole! }
input RemoveUserFromOrganizationInput { organizationId: String!, userId: ID! }
input CreateProjectInput { organizationId: String!, projectName: String!, branchName: String = "master", isPublic: Boolean = false }
input UpdateProjectInput { organizationId: String!, projectName: String!, isPublic: Boolean! }
input DeleteProjectInput { organizationId: String!, projectName: String! }
input AddUserToProjectInput { organizationId: String!, projectName: String!, userId: ID!, role: ProjectRole! }
input RemoveUserFromProjectInput { organizationId: String!, projectName: String!, userId: ID! }
input CreateBranchInput { revisionId: ID!, branchName: String! }
input DeleteBranchInput { organizationId: String!, projectName: String!, branchName: String! }
input CreateRevisionInput { organizationId: String!, projectName: String!, branchName: String!, comment: String }
input RevertChangesInput { organizationId: String!, projectName: String!, branchName: String! }
"A resolution of one merge conflict (merge.md §2.4): value is a leaf value (ROW_UPDATE) or the whole row data."
input MergeResolution { conflictId: String!, take: MergeTake!, value: JSON }
"Target branch (its draft) and the committed source revision to merge into it (merge.md §3)."
input MergeInput { organizationId: String!, projectName: String!, branchName: String!, sourceRevisionId: ID!, resolutions: [MergeResolution!], strategy: MergeStrategy = FAIL }
input RestoreRevisionInput { organizationId: String!, projectName: String!, branchName: String!, revisionId: ID! }
input CreateTableInput { revisionId: ID!, tableId: String!, schema: JSON! }
"patches: a JSON Patch array (domain.md §6)."
input UpdateTableInput { revisionId: ID!, tableId: String!, patches: JSON! }
input RenameTableInput { revisionId: ID!, tableId: String!, nextTableId: String! }
input DeleteTableInput { revisionId: ID!, tableId: String! }
input RowDataInput { rowId: String!, data: JSON! }
input RowPatchesInput { rowId: String!, patches: [PatchOperationInput!]! }
input CreateRowInput { revisionId: ID!, tableId: String!, rowId: String!, data: JSON! }
input CreateRowsInput { revisionId: ID!, tableId: String!, rows: [RowDataInput!]! }
input UpdateRowInput { revisionId: ID!, tableId: String!, rowId: String!, data: JSON! }
input UpdateRowsInput { revisionId: ID!, tableId: String!, rows: [RowDataInput!]! }
input PatchRowInput { revisionId: ID!, tableId: String!, rowId: String!, patches: [PatchOperationInput!]! }
input PatchRowsInput { revisionId: ID!, tableId: String!, rows: [RowPatchesInput!]! }
input RenameRowInput { revisionId: ID!, tableId: String!, rowId: String!, nextRowId: String! }
input DeleteRowInput { revisionId: ID!, tableId: String!, rowId: String! }
input DeleteRowsInput { revisionId: ID!, tableId: String!, rowIds: [String!]! }
input CreateEndpointInput { revisionId: ID!, type: EndpointType! }
input DeleteEndpointInput { endpointId: ID! }
"Scope and expiry of a personal key (auth.md §8.3): omitted or null scopes are unrestricted."
input CreatePersonalApiKeyInput {
  name: String!, organizationId: String, projectIds: [ID!], branchNames: [String!], tableIds: [String!],
  readOnly: Boolean = false, expiresAt: DateTime
}
"permissions: {rules: [{action, subject, inverted?}]} (auth.md §8.7)."
input CreateServiceApiKeyInput {
  name: String!, organizationId: String!, permissions: JSON!, projectIds: [ID!], branchNames: [String!], tableIds: [String!],
  readOnly: Boolean = false, expiresAt: DateTime
}
`;

export const systemRootTypeDefs = /* GraphQL */ `
type Query {
  me: User!
  "A fresh access token for the calling JWT session (auth.md §11)."
  issueAccessToken: LoginResult!
  myOrganizations(data: GetMyOrganizationsInput): OrganizationConnection!
  organization(data: GetOrganizationInput!): Organization!
  usersOrganization(data: GetUsersOrganizationInput!): OrganizationMemberConnection!
  projects(data: GetProjectsInput!): ProjectConnection!
  project(data: GetProjectInput!): Project!
  usersProject(data: GetUsersProjectInput!): ProjectMemberConnection!
  branches(data: GetBranchesInput!): BranchConnection!
  branch(data: GetBranchInput!): Branch!
  revisions(data: GetRevisionsInput!): RevisionConnection!
  revision(data: GetRevisionInput!): Revision!
  tables(data: GetTablesInput!): TableConnection!
  table(data: GetTableInput!): Table!
  "updateTable's dry run: validates and migrates exactly like updateTable but changes nothing."
  previewUpdateTable(data: UpdateTableInput!): TableUpdatePreview!
  "A merge's preview (merge.md §3): what mergeRevision would change, and its open conflicts; changes nothing."
  previewMerge(data: MergeInput!): MergePreview!
  rows(data: GetRowsInput!): RowConnection!
  row(data: GetRowInput!): Row!
  "Changed tables against a base revision (default: the previous revision, HEAD for a draft)."
  revisionChanges(data: GetRevisionChangesInput!): RevisionChanges!
  "Changed rows of one table against a base revision, by row id."
  rowChanges(data: GetRowChangesInput!): RowChangeConnection!
  "A row's versions along the revision's ancestry, newest first."
  rowHistory(data: GetRowHistoryInput!): RowVersionConnection!
  projectEndpoints(data: GetProjectEndpointsInput!): EndpointConnection!
  endpoint(data: GetEndpointInput!): Endpoint!
  users(data: GetUsersInput): UserConnection!
  user(data: GetUserInput!): User!
  searchUsers(data: SearchUsersInput!): UserRefConnection!
  "The caller's personal keys, newest first."
  myApiKeys(data: GetMyApiKeysInput): [ApiKey!]!
  "Service keys of an organization, newest first."
  serviceApiKeys(organizationId: String!, includeRevoked: Boolean = false): [ApiKey!]!
  apiKeyById(id: ID!): ApiKey!
  "Status and lag of every projection (systemAdmin)."
  projections: [ProjectionStatus!]!
  "The caller's connected apps (active OAuth grants)."
  myOAuthGrants: [OAuthGrant!]!
${webhookQueryFields}}

type Mutation {
  login(data: LoginInput!): LoginResult!
  updatePassword(data: UpdatePasswordInput!): Boolean!
  createUser(data: CreateUserInput!): User!
  deactivateUser(data: DeactivateUserInput!): User!
  reactivateUser(data: ReactivateUserInput!): User!
  "Changes a user's system role (systemAdmin; not one's own). Applies from the next request."
  setUserRole(userId: ID!, role: SystemRole!): User!
  resetPassword(data: ResetPasswordInput!): Boolean!
  createOrganization(data: CreateOrganizationInput!): Organization!
  addUserToOrganization(data: AddUserToOrganizationInput!): Boolean!
  removeUserFromOrganization(data: RemoveUserFromOrganizationInput!): Boolean!
  createProject(data: CreateProjectInput!): Project!
  updateProject(data: UpdateProjectInput!): Project!
  deleteProject(data: DeleteProjectInput!): Boolean!
  addUserToProject(data: AddUserToProjectInput!): Boolean!
  removeUserFromProject(data: RemoveUserFromProjectInput!): Boolean!
  createBranch(data: CreateBranchInput!): Branch!
  deleteBranch(data: DeleteBranchInput!): Boolean!
  "Commits the branch's draft; returns the committed revision."
  createRevision(data: CreateRevisionInput!): Revision!
  revertChanges(data: RevertChangesInput!): Branch!
  "Merges a committed revision into the branch's draft as ordinary draft changes, in one append (merge.md §3)."
  mergeRevision(data: MergeInput!): MergeResult!
  "Makes the branch's draft equal to a committed revision, as draft changes (merge.md §4)."
  restoreRevision(data: RestoreRevisionInput!): Branch!
  createTable(data: CreateTableInput!): Table!
  updateTable(data: UpdateTableInput!): Table!
  renameTable(data: RenameTableInput!): Table!
  deleteTable(data: DeleteTableInput!): Boolean!
  createRow(data: CreateRowInput!): Row!
  createRows(data: CreateRowsInput!): [Row!]!
  updateRow(data: UpdateRowInput!): Row!
  updateRows(data: UpdateRowsInput!): [Row!]!
  patchRow(data: PatchRowInput!): Row!
  patchRows(data: PatchRowsInput!): [Row!]!
  renameRow(data: RenameRowInput!): Row!
  deleteRow(data: DeleteRowInput!): Boolean!
  deleteRows(data: DeleteRowsInput!): BulkResult!
  createEndpoint(data: CreateEndpointInput!): Endpoint!
  deleteEndpoint(data: DeleteEndpointInput!): Boolean!
  createPersonalApiKey(data: CreatePersonalApiKeyInput!): ApiKeyWithSecret!
  createServiceApiKey(data: CreateServiceApiKeyInput!): ApiKeyWithSecret!
  "Revokes a key; revoking a revoked key returns it unchanged."
  revokeApiKey(id: ID!): ApiKey!
  "Revokes the key and creates its replacement in one step; returns the new key with its secret."
  rotateApiKey(id: ID!): ApiKeyWithSecret!
  "Starts a shadow rebuild of one projection or all (systemAdmin); progress is read from projections."
  rebuildProjection(name: String!): RebuildStarted!
  "Disconnects an app: revokes every token of one of the caller's OAuth grants."
  revokeOAuthGrant(id: ID!): OAuthGrant!
${webhookMutationFields}}
`;
