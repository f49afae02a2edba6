/**
 * Data of every domain event, by type. Streams (spec operations §3, informative there, fixed here):
 *
 * - `directory`: users, organizations and all memberships. One stream, so username/organization-id uniqueness
 *   (one shared namespace) and owner invariants are checked against one consistent state.
 * - `organization-{orgId}`: projects, branches and endpoints of one organization (project and branch name
 *   uniqueness, branch children, endpoint uniqueness).
 * - `branch-{branchId}`: every table and row edit of the branch's drafts plus commits and reverts. One stream per
 *   branch makes a commit an atomic append: a racing draft write either lands before it (and is committed) or
 *   conflicts and is retried against the new draft.
 *
 * Branch events carry the facts the decider derived (row counts, equality with HEAD, `draftHasChanges`) so
 * projectors never read views to apply them. Event shapes never change in place: add `XxxV2` and an upcaster.
 */

export type SystemRole = 'systemAdmin' | 'systemUser';
export type OrganizationRole = 'organizationOwner' | 'organizationAdmin' | 'developer' | 'editor' | 'reader';
export type ProjectRole = 'developer' | 'editor' | 'reader';
export type EndpointType = 'GRAPHQL' | 'REST_API';
export type EndpointMode = 'head' | 'draft' | 'pinned';

/** A JSON object (row data, table schema). */
export type JsonObject = { readonly [key: string]: unknown };

// ---- directory ----

export type UserCreated = {
  readonly userId: string;
  readonly username: string;
  readonly email: string | null;
  readonly role: SystemRole;
  /** scrypt hash in PHC-like form; never returned by any API or printed by any command. */
  readonly passwordHash: string;
};
export type UserDeactivated = { readonly userId: string };
export type UserReactivated = { readonly userId: string };
/** The user's system role was changed by a systemAdmin; permissions follow on the next request. */
export type UserRoleChanged = { readonly userId: string; readonly role: SystemRole };
/** Password set by the user (`self`), an admin (`reset`) or the CLI (`cli`). Increments the token version. */
export type UserPasswordChanged = {
  readonly userId: string;
  readonly passwordHash: string;
  readonly reason: 'self' | 'reset' | 'cli';
};
/** Token version bumped without a password change (logout-all). */
export type UserTokenVersionIncremented = { readonly userId: string; readonly reason: 'logoutAll' };
export type OrganizationCreated = {
  readonly organizationId: string;
  readonly isPersonal: boolean;
};
/** Adds a member or replaces their role. */
export type OrganizationMemberSet = {
  readonly organizationId: string;
  readonly userId: string;
  /** The user's username (never changes), so views can list members by name without reads. */
  readonly username: string;
  readonly role: OrganizationRole;
};
/** Also removes the user's project roles in the organization's projects. */
export type OrganizationMemberRemoved = { readonly organizationId: string; readonly userId: string };
export type ProjectMemberSet = {
  readonly organizationId: string;
  readonly projectId: string;
  readonly userId: string;
  /** The user's username (never changes), so views can list members by name without reads. */
  readonly username: string;
  readonly role: ProjectRole;
};
export type ProjectMemberRemoved = {
  readonly organizationId: string;
  readonly projectId: string;
  readonly userId: string;
};

// ---- organization-{orgId} ----

export type BranchRevisions = {
  readonly branchId: string;
  readonly name: string;
  /** Sequence 0, committed, content = source revision (empty for a root branch). */
  readonly startRevisionId: string;
  /** Sequence 1. */
  readonly draftRevisionId: string;
};
export type ProjectCreated = {
  readonly projectId: string;
  readonly organizationId: string;
  readonly name: string;
  readonly isPublic: boolean;
  readonly rootBranch: BranchRevisions;
};
export type ProjectVisibilityChanged = { readonly projectId: string; readonly isPublic: boolean };
/** Soft delete: the project disappears, its name is free again, its endpoints are gone. */
export type ProjectDeleted = { readonly projectId: string };
export type BranchCreated = BranchRevisions & {
  readonly projectId: string;
  readonly sourceBranchId: string;
  /** Name of the source branch (branch names never change), shown as the new branch's `parent.branchName`. */
  readonly sourceBranchName: string;
  readonly sourceRevisionId: string;
  /** Sequence of the source revision within the source branch. */
  readonly sourceSeq: number;
};
export type BranchDeleted = { readonly projectId: string; readonly branchId: string };
export type EndpointCreated = {
  readonly endpointId: string;
  readonly projectId: string;
  /** Project and branch names (they never change), denormalized into the endpoint view without reads. */
  readonly projectName: string;
  readonly branchId: string;
  readonly branchName: string;
  readonly type: EndpointType;
  readonly mode: EndpointMode;
  /** The pinned revision; null for head/draft endpoints (they follow the branch). */
  readonly pinnedRevisionId: string | null;
};
export type EndpointDeleted = { readonly endpointId: string; readonly projectId: string };

// ---- branch-{branchId} ----

/** Where a branch event applies: the branch's draft at the time of the append. */
export type DraftRef = {
  readonly projectId: string;
  readonly draftRevisionId: string;
  /** Sequence of the draft revision (HEAD sequence + 1). */
  readonly draftSeq: number;
  /** Whether the draft differs from HEAD after this event. */
  readonly draftHasChanges: boolean;
};

/** State of one table in the draft after the event. */
export type TableFacts = {
  readonly tableKey: string;
  readonly count: number;
  /** The draft table (id, schema, rows) equals the HEAD table: readers show the HEAD version again. */
  readonly equalsHead: boolean;
};

/** A row written to the draft. `restored` = equal to its HEAD row again: readers show the HEAD version. */
export type RowWrite =
  | {
      readonly rowId: string;
      readonly data: JsonObject;
      readonly createdAt: string;
      readonly updatedAt: string;
      readonly restored?: false;
    }
  | { readonly rowId: string; readonly restored: true };

export type TableCreated = DraftRef & {
  /** Stable internal id; survives renames. */
  readonly tableKey: string;
  readonly tableId: string;
  readonly schema: JsonObject;
  readonly table: TableFacts;
};
/** Schema changed by `updateTable`; `rows` are the rows whose data the migration changed. */
export type TableSchemaUpdated = DraftRef & {
  readonly tableKey: string;
  readonly tableId: string;
  readonly schema: JsonObject;
  readonly patches: readonly unknown[];
  readonly rows: readonly RowWrite[];
  readonly table: TableFacts;
};
/** Id change; `schemaRewrites` are other tables whose `foreignKey` named the old id. */
export type TableRenamed = DraftRef & {
  readonly tableKey: string;
  readonly tableId: string;
  readonly previousTableId: string;
  readonly table: TableFacts;
  readonly schemaRewrites: readonly { readonly tableKey: string; readonly schema: JsonObject; readonly table: TableFacts }[];
};
export type TableDeleted = DraftRef & { readonly tableKey: string; readonly tableId: string };
export type RowsCreated = DraftRef & {
  readonly tableKey: string;
  readonly rows: readonly RowWrite[];
  readonly table: TableFacts;
};
/** Full-data updates (update, patch, migrations of foreign-key values). */
export type RowsUpdated = DraftRef & {
  readonly tableKey: string;
  readonly rows: readonly RowWrite[];
  readonly table: TableFacts;
};
export type RowsDeleted = DraftRef & {
  readonly tableKey: string;
  readonly rowIds: readonly string[];
  readonly table: TableFacts;
};
/** The row `rowId` now has id `nextRowId` (same createdAt). Foreign-key rewrites follow as RowsUpdated events. */
export type RowRenamed = DraftRef & {
  readonly tableKey: string;
  readonly rowId: string;
  readonly row: RowWrite;
  readonly table: TableFacts;
};
/** The draft became HEAD (same id); a new draft with identical content was opened. */
export type RevisionCommitted = {
  readonly projectId: string;
  readonly revisionId: string;
  readonly seq: number;
  readonly comment: string;
  readonly newDraftRevisionId: string;
  readonly newDraftSeq: number;
};
/** The draft's content was replaced by HEAD's; the draft keeps its id. */
export type DraftReverted = {
  readonly projectId: string;
  readonly draftRevisionId: string;
  readonly draftSeq: number;
};

/**
 * A merge was applied to the draft (merge.md §5): the table and row events of the same append made the draft equal
 * to the merge result; this records the source and base for the revision graph and `branch.merged`.
 * `totalRowChanges` is what the merge changed in the draft (merge.md §3).
 */
export type MergeRecorded = DraftRef & {
  readonly sourceRevisionId: string;
  readonly baseRevisionId: string;
  readonly totalRowChanges: number;
};

/** Event type -> data. Versioned names (`XxxV2`) are added here when a shape changes. */
export type DomainEventMap = {
  UserCreated: UserCreated;
  UserDeactivated: UserDeactivated;
  UserReactivated: UserReactivated;
  UserRoleChanged: UserRoleChanged;
  UserPasswordChanged: UserPasswordChanged;
  UserTokenVersionIncremented: UserTokenVersionIncremented;
  OrganizationCreated: OrganizationCreated;
  OrganizationMemberSet: OrganizationMemberSet;
  OrganizationMemberRemoved: OrganizationMemberRemoved;
  ProjectMemberSet: ProjectMemberSet;
  ProjectMemberRemoved: ProjectMemberRemoved;
  ProjectCreated: ProjectCreated;
  ProjectVisibilityChanged: ProjectVisibilityChanged;
  ProjectDeleted: ProjectDeleted;
  BranchCreated: BranchCreated;
  BranchDeleted: BranchDeleted;
  EndpointCreated: EndpointCreated;
  EndpointDeleted: EndpointDeleted;
  TableCreated: TableCreated;
  TableSchemaUpdated: TableSchemaUpdated;
  TableRenamed: TableRenamed;
  TableDeleted: TableDeleted;
  RowsCreated: RowsCreated;
  RowsUpdated: RowsUpdated;
  RowsDeleted: RowsDeleted;
  RowRenamed: RowRenamed;
  RevisionCommitted: RevisionCommitted;
  DraftReverted: DraftReverted;
  MergeRecorded: MergeRecorded;
};

export type DomainEventType = keyof DomainEventMap;

/** A domain event as plain tagged data: `{ type, data }` (the envelope adds schemaVersion and metadata). */
export type DomainEvent = { [K in DomainEventType]: { readonly type: K; readonly data: DomainEventMap[K] } }[DomainEventType];

/** Event types of the `branch` category that change revision lifecycle (read by the in-memory system state). */
export const revisionLifecycleEventTypes = ['RevisionCommitted', 'DraftReverted'] as const;
