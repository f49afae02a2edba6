import type { EndpointMode, EndpointType, JsonObject, OrganizationRole, ProjectRole, SystemRole } from '../events/domainEvents.ts';

/** JSON shapes of the system REST API (= GraphQL object types without nested object fields), domain.md §1. */
export type UserView = {
  readonly id: string;
  readonly username: string;
  readonly email: string | null;
  readonly role: SystemRole;
  readonly isActive: boolean;
  readonly organizationId: string;
  readonly createdAt: string;
};
export type UserRefView = { readonly id: string; readonly username: string };
export type OrganizationView = { readonly id: string; readonly isPersonal: boolean; readonly createdAt: string };
export type OrganizationMemberView = { readonly user: UserRefView; readonly role: OrganizationRole };
export type ProjectMemberView = { readonly user: UserRefView; readonly role: ProjectRole };
export type ProjectView = {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  readonly isPublic: boolean;
  readonly rootBranchName: string;
  readonly createdAt: string;
};
export type BranchView = {
  readonly id: string;
  readonly projectId: string;
  readonly name: string;
  readonly isRoot: boolean;
  readonly createdAt: string;
  readonly headRevisionId: string;
  readonly draftRevisionId: string;
  readonly startRevisionId: string;
  readonly parent: { readonly branchName: string; readonly revisionId: string } | null;
  readonly touched: boolean;
};
export type RevisionView = {
  readonly id: string;
  readonly branchId: string;
  readonly sequence: number;
  readonly parentId: string | null;
  readonly isStart: boolean;
  readonly isHead: boolean;
  readonly isDraft: boolean;
  readonly hasChanges: boolean;
  readonly comment: string;
  readonly createdAt: string;
  readonly committedAt: string | null;
  /** Revisions merged into this committed revision (merge.md §5); empty for a draft and ordinary commits. */
  readonly mergedRevisionIds: readonly string[];
  /** The draft's merges not yet committed (merge.md §5); empty for committed revisions. */
  readonly pendingMergeRevisionIds: readonly string[];
};
export type TableView = {
  readonly id: string;
  readonly readonly: boolean;
  readonly schema: JsonObject;
  readonly count: number;
  readonly createdAt: string;
  readonly updatedAt: string;
};
/**
 * What a schema change would do to the rows (domain.md §6 rule 6): `sample` holds at most 5 changed rows;
 * `rowsLossy` counts rows where a conversion could not keep a value and used its rule's fallback, `lossySample`
 * shows at most 5 such values (the first of each of the first lossy rows) with their JSON Pointer in the row data.
 */
export type TableMigrationView = {
  readonly rowsChanged: number;
  readonly rowsUnchanged: number;
  readonly rowsLossy: number;
  readonly sample: readonly { readonly rowId: string; readonly before: JsonObject; readonly after: JsonObject }[];
  readonly lossySample: readonly TableMigrationLossView[];
};
/** One value a migration could not keep. */
export type TableMigrationLossView = { readonly rowId: string; readonly path: string; readonly before: unknown; readonly after: unknown };
/** A dry run of updateTable: the table as it would be, and its migration. */
export type TableUpdatePreviewView = { readonly table: TableView; readonly migration: TableMigrationView };
export type RowView = {
  readonly id: string;
  readonly tableId: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly readonly: boolean;
  /** Stored data with system-ref fields filled (domain.md §5.3). */
  readonly data: JsonObject;
};
export type EndpointView = {
  readonly id: string;
  readonly type: EndpointType;
  readonly mode: EndpointMode;
  readonly organizationId: string;
  readonly projectName: string;
  readonly branchName: string;
  readonly revisionId: string;
  readonly path: string;
  readonly openApiPath: string | null;
  readonly docsPath: string | null;
  readonly createdAt: string;
};
export type SuccessView = { readonly success: true };
export type BulkResultView = { readonly success: true; readonly count: number };

/** A connection page (system-api.md §2). */
export type Connection<T> = {
  readonly edges: readonly { readonly cursor: string; readonly node: T }[];
  readonly pageInfo: {
    readonly hasNextPage: boolean;
    readonly hasPreviousPage: boolean;
    readonly startCursor: string | null;
    readonly endCursor: string | null;
  };
  readonly totalCount: number;
};
