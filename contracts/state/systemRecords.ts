import type { EndpointMode, EndpointType, OrganizationRole, ProjectRole, SystemRole } from '../events/domainEvents.ts';

/** The entities of the system state (systemState.ts), one record per id. */

export type UserRecord = {
  id: string;
  username: string;
  email: string | null;
  role: SystemRole;
  isActive: boolean;
  passwordHash: string;
  tokenVersion: number;
  createdAt: string;
};

export type OrganizationRecord = {
  id: string;
  isPersonal: boolean;
  createdAt: string;
  members: Map<string, OrganizationRole>;
};

export type ProjectRecord = {
  id: string;
  organizationId: string;
  name: string;
  isPublic: boolean;
  createdAt: string;
  deleted: boolean;
  rootBranchId: string;
  members: Map<string, ProjectRole>;
  branchIds: Set<string>;
};

export type BranchRecord = {
  id: string;
  projectId: string;
  organizationId: string;
  name: string;
  isRoot: boolean;
  createdAt: string;
  deleted: boolean;
  startRevisionId: string;
  headRevisionId: string;
  draftRevisionId: string;
  headSeq: number;
  /** Revisions of this branch by sequence (index = sequence). */
  revisionIds: string[];
  parent: { readonly branchId: string; readonly revisionId: string } | null;
};

export type RevisionRecord = {
  id: string;
  branchId: string;
  projectId: string;
  organizationId: string;
  seq: number;
  createdAt: string;
  /**
   * Revisions merged into this one (merge.md §5): for a committed revision its `mergedRevisionIds`, for the draft
   * its `pendingMergeRevisionIds` (in merge order; cleared by a revert).
   */
  mergedRevisionIds: string[];
  /** When the revision was committed (log time); null for the draft. Orders criss-cross merge bases. */
  committedAt: string | null;
  /**
   * Branch stream revision of the RevisionCommitted event that committed it: the events of the next draft follow it
   * (a merge reads one side's schema patches from there, merge.md §2.1). Absent for start revisions and the draft.
   */
  commitStreamRevision?: number;
};

export type EndpointRecord = {
  id: string;
  organizationId: string;
  projectId: string;
  branchId: string;
  type: EndpointType;
  mode: EndpointMode;
  pinnedRevisionId: string | null;
  createdAt: string;
  deleted: boolean;
};
