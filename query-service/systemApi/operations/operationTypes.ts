import type {
  BranchView,
  EndpointType,
  EndpointView,
  JsonObject,
  OrganizationMemberView,
  OrganizationRole,
  OrganizationView,
  Principal,
  ProjectMemberView,
  ProjectView,
  RevisionView,
  RowView,
  TableView,
  UserRefView,
  UserView,
  WebhookDeliveryView,
  WebhookView,
} from '../../../contracts/index.ts';
import type { RevisionChanges, RowChange, RowVersionEntry } from '../../changes/changeQueries.ts';
import type { RowChangeKind } from '../../changes/rowPairing.ts';
import type { LazyConnection } from '../../paging/lazyConnection.ts';

export type RequestContext = { readonly principal: Principal; readonly requestId: string };

/** Forward pagination of system-api.md §2: `first` 0-1000 (default 100), `after` an opaque cursor. */
export type PageArgs = { readonly first?: number | null; readonly after?: string | null };

/** Row list arguments (generated-api.md §3): `where`/`orderBy` are validated against the table's schema. */
export type RowsArgs = PageArgs & { readonly where?: unknown; readonly orderBy?: unknown };

export type OrganizationRef = { readonly organizationId: string };
export type ProjectRef = OrganizationRef & { readonly projectName: string };
export type BranchRef = ProjectRef & { readonly branchName: string };
export type RevisionRef = { readonly revisionId: string };
export type TableRef = RevisionRef & { readonly tableId: string };
export type RowRef = TableRef & { readonly rowId: string };
/** A diff's target and base (changes.md §1): `compareWith` absent or null = the default base. */
export type RevisionChangesArgs = RevisionRef & { readonly compareWith?: string | null };
export type RowChangesArgs = RevisionChangesArgs & TableRef & PageArgs & { readonly changes?: readonly RowChangeKind[] | null };

/** Webhook reads (changes.md §6.1): owners, admins and systemAdmin of the organization. */
export type WebhookOperations = {
  /** The organization's webhooks, oldest first; others -> FORBIDDEN. */
  webhooks(ctx: RequestContext, args: OrganizationRef): Promise<WebhookView[]>;
  /** Unknown or not manageable -> WEBHOOK_NOT_FOUND. */
  webhook(ctx: RequestContext, args: { readonly id: string }): Promise<WebhookView>;
  /** Newest first. */
  webhookDeliveries(ctx: RequestContext, args: { readonly webhookId: string } & PageArgs): Promise<LazyConnection<WebhookDeliveryView>>;
};

/**
 * The read operations of the system API shared by REST, GraphQL and MCP. Each runs the auth.md §10 checks against
 * the in-memory SystemState, resolves its target (404 codes of errors.md) and reads views. Errors are AppErrors.
 */
export interface SystemOperations extends WebhookOperations {
  /** The calling user; service key -> FORBIDDEN; anonymous -> UNAUTHENTICATED. */
  me(ctx: RequestContext): Promise<UserView>;
  /** Organizations the calling user is a member of (by id). */
  myOrganizations(ctx: RequestContext, args: PageArgs): Promise<LazyConnection<OrganizationView>>;
  organization(ctx: RequestContext, args: OrganizationRef): Promise<OrganizationView>;
  /** The caller's role in the organization, or null (anonymous and service keys: null). */
  myRole(ctx: RequestContext, organizationId: string): Promise<OrganizationRole | null>;
  usersOrganization(ctx: RequestContext, args: OrganizationRef & PageArgs): Promise<LazyConnection<OrganizationMemberView>>;
  /** Projects of the organization the caller may read and the key scope admits (by name). */
  projects(ctx: RequestContext, args: OrganizationRef & PageArgs): Promise<LazyConnection<ProjectView>>;
  project(ctx: RequestContext, args: ProjectRef): Promise<ProjectView>;
  /** For nested GraphQL fields. */
  projectById(ctx: RequestContext, projectId: string): Promise<ProjectView>;
  usersProject(ctx: RequestContext, args: ProjectRef & PageArgs): Promise<LazyConnection<ProjectMemberView>>;
  /** Root branch first, then by name. */
  branches(ctx: RequestContext, args: ProjectRef & PageArgs): Promise<LazyConnection<BranchView>>;
  branchesOfProject(ctx: RequestContext, projectId: string, args: PageArgs): Promise<LazyConnection<BranchView>>;
  branch(ctx: RequestContext, args: BranchRef): Promise<BranchView>;
  branchById(ctx: RequestContext, branchId: string): Promise<BranchView>;
  /** By sequence, descending. */
  revisions(ctx: RequestContext, args: BranchRef & PageArgs): Promise<LazyConnection<RevisionView>>;
  revisionsOfBranch(ctx: RequestContext, branchId: string, args: PageArgs): Promise<LazyConnection<RevisionView>>;
  revision(ctx: RequestContext, args: RevisionRef): Promise<RevisionView>;
  /** Tables of the revision the key scope admits (by id). */
  tables(ctx: RequestContext, args: RevisionRef & PageArgs): Promise<LazyConnection<TableView>>;
  table(ctx: RequestContext, args: TableRef): Promise<TableView>;
  tableSchema(ctx: RequestContext, args: TableRef): Promise<JsonObject>;
  /** Ids of the tables this table's schema references (domain.md §1), sorted. */
  foreignKeysTo(ctx: RequestContext, args: TableRef): Promise<string[]>;
  /** Ids of the tables of the revision whose schema references this table, sorted. */
  foreignKeysBy(ctx: RequestContext, args: TableRef): Promise<string[]>;
  rows(ctx: RequestContext, args: TableRef & RowsArgs): Promise<LazyConnection<RowView>>;
  row(ctx: RequestContext, args: RowRef): Promise<RowView>;
  /** Changed tables between a revision and its base (changes.md §1.1), by table id. */
  revisionChanges(ctx: RequestContext, args: RevisionChangesArgs): Promise<RevisionChanges>;
  /** Changed rows of one table between a revision and its base (changes.md §1.2), by row id. */
  rowChanges(ctx: RequestContext, args: RowChangesArgs): Promise<LazyConnection<RowChange>>;
  /** Versions of a row along the revision's ancestry, newest first (changes.md §2). */
  rowHistory(ctx: RequestContext, args: RowRef & PageArgs): Promise<LazyConnection<RowVersionEntry>>;
  /** Endpoints of the project (by createdAt), optionally of one branch and/or type. */
  projectEndpoints(
    ctx: RequestContext,
    args: ProjectRef & { readonly branchName?: string | null; readonly type?: EndpointType | null } & PageArgs,
  ): Promise<LazyConnection<EndpointView>>;
  /** Endpoints currently serving this revision. */
  revisionEndpoints(ctx: RequestContext, args: RevisionRef): Promise<EndpointView[]>;
  endpoint(ctx: RequestContext, args: { readonly endpointId: string }): Promise<EndpointView>;
  /** System administrators only; `search` matches a username prefix. */
  users(ctx: RequestContext, args: { readonly search?: string | null } & PageArgs): Promise<LazyConnection<UserView>>;
  /** System administrators only. */
  user(ctx: RequestContext, args: { readonly userId: string }): Promise<UserView>;
  /** Any user principal; `search` is a 2-64 character username prefix. */
  searchUsers(ctx: RequestContext, args: { readonly search: string } & PageArgs): Promise<LazyConnection<UserRefView>>;
}
