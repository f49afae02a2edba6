export { createUpcaster } from './events/upcasters.ts';
export {
  comparePositions,
  isPosition,
  kurrentPosition,
  maxPosition,
  positionBackend,
  sqliteGlobalPosition,
  sqlitePosition,
} from './events/position.ts';
export {
  apiKeyStreamId,
  branchStreamId,
  directoryStreamId,
  organizationStreamId,
  projectStreamId,
  sessionStreamId,
  streamCategories,
  streamCategory,
  userStreamId,
} from './events/streamIds.ts';
export { revisionLifecycleEventTypes } from './events/domainEvents.ts';
export { StreamConflictError, appendOneByOne, isStreamConflict } from './ports/eventStore.ts';
export { addressLiteralOf, isPublicAddress } from './net/publicAddress.ts';
export { fieldsEqual } from './ports/viewStore.ts';
export { isoTime, systemClock } from './ports/clock.ts';
export { errorCatalogue, httpStatusOf, isErrorCode } from './errors/catalogue.ts';
export { AppError, MAX_ERROR_DETAILS, invariant, isAppError, toErrorBody } from './errors/appError.ts';

export type { EventMetadata, NewEvent, PrincipalRef, RecordedEvent } from './events/envelope.ts';
export type { Position, PositionBackend } from './events/position.ts';
export type { StreamCategory } from './events/streamIds.ts';
export type { UpcastFn, Upcaster } from './events/upcasters.ts';
export type {
  AppendBatchOutcome,
  AppendRequest,
  AppendResult,
  EventStaging,
  StagedUniqueCheck,
  StagedUniqueClash,
  EventStore,
  ExpectedRevision,
  ReadAllOptions,
  ReadAllResult,
  ReadStreamOptions,
} from './ports/eventStore.ts';
export type {
  CollectionSpec,
  CompareOp,
  EnsureProjectionOptions,
  FieldRef,
  FieldType,
  Filter,
  FindQuery,
  IndexSpec,
  JsonPathSegment,
  JsonTest,
  PathSegment,
  ProjectionRef,
  ProjectionSpec,
  ProjectionStatus,
  Scalar,
  SortIndex,
  SortKey,
  VersionLayer,
  VersionedRead,
  ViewChange,
  ViewDoc,
  ViewStore,
} from './ports/viewStore.ts';
export type { Queue } from './ports/queue.ts';
export type { ProjectionOperations, ProjectionRebuildView, ProjectionStatusView } from './ports/projectionOperations.ts';
export type { Clock } from './ports/clock.ts';
export type { OutboundFailureKind, OutboundHttp, OutboundRequest, OutboundResult } from './ports/outboundHttp.ts';
export type { ConsistencyWaiter } from './ports/consistency.ts';
export type { RoleHandle } from './ports/role.ts';
export type { ErrorCode } from './errors/catalogue.ts';
export type { ErrorDetail } from './errors/appError.ts';
export type {
  BranchCreated,
  BranchDeleted,
  BranchRevisions,
  DomainEvent,
  DomainEventMap,
  DomainEventType,
  DraftRef,
  DraftReverted,
  EndpointCreated,
  EndpointDeleted,
  EndpointMode,
  EndpointType,
  JsonObject,
  MergeRecorded,
  OrganizationCreated,
  OrganizationMemberRemoved,
  OrganizationMemberSet,
  OrganizationRole,
  ProjectCreated,
  ProjectDeleted,
  ProjectMemberRemoved,
  ProjectMemberSet,
  ProjectRole,
  ProjectVisibilityChanged,
  RevisionCommitted,
  RowRenamed,
  RowsCreated,
  RowsDeleted,
  RowsUpdated,
  RowWrite,
  SystemRole,
  TableCreated,
  TableDeleted,
  TableFacts,
  TableRenamed,
  TableSchemaUpdated,
  UserCreated,
  UserDeactivated,
  UserPasswordChanged,
  UserReactivated,
  UserRoleChanged,
  UserTokenVersionIncremented,
} from './events/domainEvents.ts';
export { anonymousPrincipal, isJwtUser, keyScopeOf, principalRef } from './auth/principal.ts';
export { actions, can, organizationRoleOf, roleHasPermission, rulesGrant, subjects, userRoleGrants } from './auth/permissions.ts';
export { createSystemState, evolveSystemState, systemStateFilter } from './state/systemState.ts';
export { endpointRevisionId, findBranchByName, findProjectByName, findRevision, isDraftRevision } from './state/systemLookups.ts';
export type { KeyScope, PermissionRule, Principal, UserCredentialKind } from './auth/principal.ts';
export type { Action, PermissionTarget, Subject } from './auth/permissions.ts';
export type { SystemState } from './state/systemState.ts';
export type { BranchRecord, EndpointRecord, OrganizationRecord, ProjectRecord, RevisionRecord, UserRecord } from './state/systemRecords.ts';
export type {
  BranchView,
  BulkResultView,
  Connection,
  EndpointView,
  OrganizationMemberView,
  OrganizationView,
  ProjectMemberView,
  ProjectView,
  RevisionView,
  RowView,
  SuccessView,
  TableMigrationLossView,
  TableMigrationView,
  TableUpdatePreviewView,
  TableView,
  UserRefView,
  UserView,
} from './api/views.ts';
export { MAX_JSON_DEPTH, isJsonTextTooDeep, parseRequestJson, tooDeepJsonError } from './api/jsonNesting.ts';
export type { CommandInput, CommandMap, CommandResult, CommandType } from './commands/commands.ts';
export { MAX_DRAFT_ROW_CHANGES, MAX_IMPORT_ROWS } from './commands/draftChanges.ts';
export type {
  ApplyDraftChangesInput,
  DeferredReference,
  DeferredUniqueValue,
  DraftChangesResult,
  DraftMergeRecord,
  DraftStaging,
  ReferenceChecks,
  ReferencedRows,
  StagedTotals,
} from './commands/draftChanges.ts';
export type { DraftOperation, DraftOperationResult, DraftOperationType, InvalidDraftRow } from './commands/draftChanges.ts';
export type { CommandContext, CommandGateway, CommandOutcome } from './ports/commandGateway.ts';
export type { SystemStateSource } from './ports/systemStateSource.ts';
export type { Authenticator, LoginResult, PresentedCredentials } from './ports/authenticator.ts';
export { clearsSessionCookies } from './ports/sessions.ts';
export type { RefreshResult, Sessions } from './ports/sessions.ts';
export type { ApiKeyDirectory } from './ports/apiKeyDirectory.ts';
export { apiKeyCreatedFields, apiKeyOwnerStreamId, organizationApiKeysStreamId, userApiKeysStreamId } from './events/authEvents.ts';
export type {
  ApiKeyCreated,
  ApiKeyPermissions,
  ApiKeyRevoked,
  ApiKeyType,
  AuthEvent,
  AuthEventMap,
  AuthEventType,
  RefreshFamilyRevoked,
  RefreshFamilyRevokeReason,
  RefreshFamilyStarted,
  RefreshTokenRotated,
} from './events/authEvents.ts';
export { apiKeyStatus } from './state/authState.ts';
export type { ApiKeyRecord, ApiKeyStatus, AuthState, RefreshFamilyRecord, RefreshTokenRecord } from './state/authState.ts';
export type { ApiKeyView, ApiKeyWithSecretView } from './api/apiKeyViews.ts';
export {
  IDENTIFIER_MAX_LENGTH,
  NAME_PATTERN,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PROPERTY_NAME_PATTERN,
  RESERVED_BRANCH_NAMES,
  RESERVED_TABLE_ID_PREFIX,
  RESERVED_USERNAMES,
  ROW_ID_PATTERN,
  TABLE_ID_PATTERN,
  assertBranchName,
  assertOrganizationId,
  assertPassword,
  assertProjectName,
  assertRowId,
  assertTableId,
  assertUsername,
  isReservedBranchName,
  isReservedTableId,
  isReservedUsername,
  isValidName,
  isValidPropertyName,
  isValidRowId,
  isValidTableId,
  sameIdentifier,
} from './domain/identifiers.ts';
export {
  CONTENT_MEDIA_TYPES,
  MAX_INDEXED_FIELDS,
  MAX_SCHEMA_BYTES,
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_NODES,
  STRING_FORMATS,
  SYSTEM_REFS,
  SYSTEM_REF_URNS,
  isContentMediaType,
  isStringFormat,
  isSystemRefUrn,
} from './tables/tableSchema.ts';
export { compileTableModel, defaultValueOf, foreignKeyFields, nodeAtDataPath } from './tables/tableModel.ts';
export { fillSystemRefs, normalizeRowData, normalizeValue } from './tables/rowData.ts';
export { canonicalJson, isPlainObject, jsonDeepEqual } from './tables/jsonValue.ts';
export { escapePointerToken, parseJsonPointer, toJsonPointer } from './tables/jsonPointer.ts';
export { applySchemaPatch } from './tables/applySchemaPatch.ts';
export type { SchemaPatchResult } from './tables/applySchemaPatch.ts';
export { parseDecimal, rawDefault } from './tables/convertValue.ts';
export type { LossListener, DataPath as MigrationDataPath } from './tables/convertValue.ts';
export { setOwn } from './tables/jsonPatchValue.ts';
export { assertPatchList, invalidPatch, readPatchOperation } from './tables/patchOperations.ts';
export type {
  ArraySchema,
  BooleanSchema,
  ContentMediaType,
  IndexKeywords,
  IntegerSchema,
  ItemSchema,
  NumberSchema,
  ObjectSchema,
  PropertySchema,
  SchemaAnnotations,
  StringFormat,
  StringSchema,
  SystemRefSchema,
  SystemRefUrn,
  TableSchema,
} from './tables/tableSchema.ts';
export type {
  ArrayNode,
  BooleanNode,
  DataPath,
  ForeignKeyField,
  IndexedField,
  NumberNode,
  ObjectNode,
  StringNode,
  SystemRefField,
  SystemRefNode,
  TableModel,
  TableModelNode,
  TableProperty,
} from './tables/tableModel.ts';
export type { SystemRefValues } from './tables/rowData.ts';
export type { JsonValue } from './tables/jsonValue.ts';
export {
  assertBranchScope,
  assertCanRead,
  assertCanWrite,
  assertNewBranchInScope,
  assertNewOrganizationInScope,
  assertNewProjectInScope,
  assertOrganizationScope,
  assertProjectScope,
  assertSystemAdmin,
  assertTableScope,
  assertUserPrincipal,
  branchInScope,
  tableInScope,
} from './auth/authorize.ts';
export {
  projectTarget,
  resolveBranch,
  resolveBranchById,
  resolveOrganization,
  resolveProject,
  resolveProjectById,
  resolveRevision,
} from './auth/resolveTargets.ts';
export type { ResolvedBranch, ResolvedRevision } from './auth/resolveTargets.ts';
export { OPEN_SEQ, catalogViews, directoryViews, domainViewSpecs, rowViews, schemaViews } from './views/viewSpecs.ts';
export { apiKeyViews, sessionViews } from './views/authViews.ts';
export { visibleAt } from './views/visibility.ts';
export { fieldIndex } from './views/fieldIndex.ts';
export * from './views/contentViews.ts';
export { castValue, isCast, parseTimestamp } from './views/castValue.ts';
export type { Cast, CastResult } from './views/castValue.ts';
export { organizationWebhooksStreamId, webhookEventTypes } from './events/webhookEvents.ts';
export type { WebhookEvent, WebhookEventMap, WebhookEventType, WebhookSettings } from './events/webhookEvents.ts';
export type { WebhookRecord } from './state/webhookState.ts';
export { changeEventTypes, webhookEventTypeNames } from './webhooks/changeEvents.ts';
export type { ChangeEventPayload, ChangeEventSource, ChangeEventType, RoutedChangeEvent } from './webhooks/changeEvents.ts';
export { MAX_KEPT_ATTEMPTS, MAX_WEBHOOKS_PER_ORGANIZATION, SECRET_OVERLAP_MS, deliveryIdOf, webhookIdOfDelivery } from './webhooks/webhookViews.ts';
export type { WebhookAttemptView, WebhookDeliveryStatus, WebhookDeliveryView, WebhookView, WebhookWithSecretView } from './webhooks/webhookViews.ts';
export { webhookViewOfDoc, webhookViews } from './views/webhookViewSpec.ts';
export { assertManagesWebhooks, findManageableWebhook } from './webhooks/webhookAccess.ts';
export { oauthClientStreamId, oauthGrantStreamId } from './events/oauthEvents.ts';
export type {
  OAuthClientKind,
  OAuthClientRegistered,
  OAuthFamilyStarted,
  OAuthGrantApproved,
  OAuthGrantRevoked,
  OAuthTokenEndpointAuthMethod,
} from './events/oauthEvents.ts';
export { isOAuthGrantActive, oauthGrantPairKey } from './state/oauthState.ts';
export type { OAuthClientRecord, OAuthCodeRecord, OAuthFamilyLink, OAuthGrantRecord } from './state/oauthState.ts';
export { OAuthError, isOAuthError } from './errors/oauthError.ts';
export {
  OAUTH_READ_SCOPE,
  OAUTH_SCOPES,
  OAUTH_WRITE_SCOPE,
  isCodeChallenge,
  isLoopbackHttpUri,
  isMetadataDocumentClientId,
} from './auth/oauthRules.ts';
export { isOAuthProblem, matchRedirectUri, parseOAuthScopes, redirectUriProblem, validateClientMetadata } from './auth/oauthRules.ts';
export type { OAuthClientMetadata, OAuthProblem, OAuthScope } from './auth/oauthRules.ts';
export type { OAuthApproval, OAuthClientCredentials, OAuthClientView, OAuthGrantView, OAuthServer, OAuthTokenResponse } from './ports/oauthServer.ts';
export type { OAuthAuthority } from './auth/principal.ts';
export { ENTRY_OVERHEAD_BYTES, createBoundedCache, estimateBytes } from './caching/boundedCache.ts';
export type { BoundedCache, BoundedCacheOptions } from './caching/boundedCache.ts';
export { sharedPerTurn } from './caching/sharedPerTurn.ts';
export { createKeyedLock } from './caching/keyedLock.ts';
export type { KeyedLock } from './caching/keyedLock.ts';
export { QUERY_SIDE_COMMANDS } from './commands/commands.ts';
export type { QuerySideCommand } from './commands/commands.ts';
export { ancestorIds, mergeBaseOf, revisionParents } from './merge/revisionGraph.ts';
export type { MergeBase } from './merge/revisionGraph.ts';
export { ALLOWED_TAKES } from './merge/mergeTypes.ts';
export type {
  MergeConflict,
  MergeConflictKind,
  MergeResolution,
  MergeStatus,
  MergeStrategy,
  MergeTableChange,
  MergeTake,
} from './merge/mergeTypes.ts';
export type { SideRowChange, SideTableChange } from './merge/mergeTypes.ts';
export { threeWayMerge } from './merge/threeWayMerge.ts';
export { orderConflicts } from './merge/conflictIds.ts';
export type { ThreeWayMergeInput, ThreeWayMergeResult } from './merge/mergeTypes.ts';
export { conflictIdOf } from './merge/conflictIds.ts';
export { schemaPatches } from './merge/schemaPatches.ts';
export { createPatchChains, patchEntryOf, patchSegments } from './merge/schemaPatchChain.ts';
export type { PatchEntry, PatchSegment } from './merge/schemaPatchChain.ts';
export { MAX_CONFLICT_DETAILS, MAX_PREVIEW_CONFLICTS } from './merge/mergeViews.ts';
export type { MergePreviewView, MergeResultView } from './merge/mergeViews.ts';
