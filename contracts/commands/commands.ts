import type { EndpointType, OrganizationRole, ProjectRole, SystemRole } from '../events/domainEvents.ts';
import type {
  BranchView,
  BulkResultView,
  EndpointView,
  OrganizationView,
  ProjectView,
  RevisionView,
  RowView,
  SuccessView,
  TableUpdatePreviewView,
  TableView,
  UserView,
} from '../api/views.ts';
import type { ApiKeyView, ApiKeyWithSecretView } from '../api/apiKeyViews.ts';
import type { ApplyDraftChangesInput, DraftChangesResult } from './draftChanges.ts';
import type { MergePreviewView, MergeResultView } from '../merge/mergeViews.ts';
import type { MergeResolution, MergeStrategy } from '../merge/mergeTypes.ts';
import type { WebhookDeliveryView, WebhookView, WebhookWithSecretView } from '../webhooks/webhookViews.ts';

type Cmd<TInput, TResult> = { readonly input: TInput; readonly result: TResult };

type ProjectTarget = { readonly organizationId: string; readonly projectName: string };
type BranchTarget = ProjectTarget & { readonly branchName: string };
type TableTarget = { readonly revisionId: string; readonly tableId: string };
/** Scope and expiry of a new key (auth.md §8.3); omitted or null = unrestricted / default expiry. */
type ApiKeyOptions = {
  readonly projectIds?: readonly string[] | null;
  readonly branchNames?: readonly string[] | null;
  readonly tableIds?: readonly string[] | null;
  readonly readOnly?: boolean | null;
  /** RFC 3339 date-time. */
  readonly expiresAt?: string | null;
};

/**
 * Every write of the system API (system-api.md §3.3), by command name: input (already shape-checked by the edge:
 * types and unknown fields) and result (the REST response body). Single-row writes use the bulk commands with one
 * row and `bulk: false` so errors carry no `index`.
 */
export type CommandMap = {
  CreateUser: Cmd<{ username: string; password: string; role?: SystemRole; email?: string | null }, UserView>;
  DeactivateUser: Cmd<{ userId: string }, UserView>;
  ReactivateUser: Cmd<{ userId: string }, UserView>;
  /** The nearest reading of admin-ui.md §3.2 "change the system role" (system-api.md has no operation for it). */
  SetUserRole: Cmd<{ userId: string; role: SystemRole }, UserView>;
  ResetPassword: Cmd<{ userId: string; newPassword: string }, SuccessView>;
  UpdatePassword: Cmd<{ oldPassword: string; newPassword: string }, SuccessView>;
  CreateOrganization: Cmd<{ organizationId: string; ownerId?: string | null }, OrganizationView>;
  AddUserToOrganization: Cmd<{ organizationId: string; userId: string; role: OrganizationRole }, SuccessView>;
  RemoveUserFromOrganization: Cmd<{ organizationId: string; userId: string }, SuccessView>;
  CreateProject: Cmd<ProjectTarget & { branchName?: string | null; isPublic?: boolean | null }, ProjectView>;
  UpdateProject: Cmd<ProjectTarget & { isPublic: boolean }, ProjectView>;
  DeleteProject: Cmd<ProjectTarget, SuccessView>;
  AddUserToProject: Cmd<ProjectTarget & { userId: string; role: ProjectRole }, SuccessView>;
  RemoveUserFromProject: Cmd<ProjectTarget & { userId: string }, SuccessView>;
  CreateBranch: Cmd<{ revisionId: string; branchName: string }, BranchView>;
  DeleteBranch: Cmd<BranchTarget, SuccessView>;
  CreateRevision: Cmd<BranchTarget & { comment?: string | null }, RevisionView>;
  RevertChanges: Cmd<BranchTarget, BranchView>;
  CreateTable: Cmd<TableTarget & { schema: unknown }, TableView>;
  UpdateTable: Cmd<TableTarget & { patches: unknown }, TableView>;
  /** updateTable's dry run (domain.md §6 rule 6): decided like UpdateTable, appends nothing. */
  PreviewUpdateTable: Cmd<TableTarget & { patches: unknown }, TableUpdatePreviewView>;
  RenameTable: Cmd<TableTarget & { nextTableId: string }, TableView>;
  DeleteTable: Cmd<TableTarget, SuccessView>;
  CreateRows: Cmd<TableTarget & { rows: readonly { rowId: string; data: unknown }[]; bulk: boolean }, RowView[]>;
  UpdateRows: Cmd<TableTarget & { rows: readonly { rowId: string; data: unknown }[]; bulk: boolean }, RowView[]>;
  PatchRows: Cmd<TableTarget & { rows: readonly { rowId: string; patches: unknown }[]; bulk: boolean }, RowView[]>;
  RenameRow: Cmd<TableTarget & { rowId: string; nextRowId: string }, RowView>;
  DeleteRows: Cmd<TableTarget & { rowIds: readonly string[]; bulk: boolean }, BulkResultView>;
  /** Several draft operations in one append (merge, restore, imports): docs/reference/versioned-storage.md §3. */
  ApplyDraftChanges: Cmd<ApplyDraftChangesInput, DraftChangesResult>;
  /**
   * merge.md §3-§4. Computed on the query side from the views (query-service/merge), which sends ApplyDraftChanges:
   * the command service has no handler for these three (QUERY_SIDE_COMMANDS).
   */
  PreviewMerge: Cmd<MergeCommandInput, MergePreviewView>;
  MergeRevision: Cmd<MergeCommandInput, MergeResultView>;
  RestoreRevision: Cmd<BranchTarget & { revisionId: string }, BranchView>;
  CreateEndpoint: Cmd<{ revisionId: string; type: EndpointType }, EndpointView>;
  DeleteEndpoint: Cmd<{ endpointId: string }, SuccessView>;
  CreatePersonalApiKey: Cmd<ApiKeyOptions & { name: string; organizationId?: string | null }, ApiKeyWithSecretView>;
  /** `permissions` is `{rules}` as sent (JSON): the handler validates it (auth.md §8.7). */
  CreateServiceApiKey: Cmd<ApiKeyOptions & { name: string; organizationId: string; permissions: unknown }, ApiKeyWithSecretView>;
  RevokeApiKey: Cmd<{ id: string }, ApiKeyView>;
  RotateApiKey: Cmd<{ id: string }, ApiKeyWithSecretView>;
  /** Fields as sent (JSON): the handler validates them (changes.md §6.1). */
  CreateWebhook: Cmd<{ organizationId: string } & WebhookInput, WebhookWithSecretView>;
  UpdateWebhook: Cmd<{ id: string; active?: boolean | null } & Partial<WebhookInput>, WebhookView>;
  RotateWebhookSecret: Cmd<{ id: string }, WebhookWithSecretView>;
  DeleteWebhook: Cmd<{ id: string }, SuccessView>;
  /** Answers the `webhook.ping` delivery as it is queued. */
  PingWebhook: Cmd<{ id: string }, WebhookDeliveryView>;
  /** The edge has read the delivery (it must exist); answers it as queued again. */
  RedeliverWebhook: Cmd<{ deliveryId: string; delivery?: WebhookDeliveryView }, WebhookDeliveryView>;
};

type WebhookInput = {
  readonly url: unknown;
  readonly types: unknown;
  readonly projectName?: unknown;
  readonly branchNames?: unknown;
  readonly description?: unknown;
};

type MergeCommandInput = BranchTarget & {
  readonly sourceRevisionId: string;
  readonly resolutions?: readonly MergeResolution[] | null;
  readonly strategy?: MergeStrategy | null;
};

/** Commands the query side answers itself (it computes them from the views and sends ApplyDraftChanges). */
export const QUERY_SIDE_COMMANDS = ['PreviewMerge', 'MergeRevision', 'RestoreRevision'] as const;
export type QuerySideCommand = (typeof QUERY_SIDE_COMMANDS)[number];

export type CommandType = keyof CommandMap;
export type CommandInput<K extends CommandType> = CommandMap[K]['input'];
export type CommandResult<K extends CommandType> = CommandMap[K]['result'];
