import {
  AppError,
  assertBranchScope,
  assertCanRead,
  assertOrganizationScope,
  assertProjectScope,
  findBranchByName,
  findProjectByName,
  findRevision,
  keyScopeOf,
} from '../../contracts/index.ts';
import type {
  BranchRecord,
  OrganizationRecord,
  Principal,
  ProjectRecord,
  RevisionRecord,
  Subject,
  SystemState,
  UserRecord,
} from '../../contracts/index.ts';

/**
 * Target resolution in the order of auth.md §10: organization scope (3) -> existence (4) -> other scope
 * dimensions (5) -> read access (6). Write access (8) stays with the caller, which knows the action.
 */

export function requireOrganization(state: SystemState, principal: Principal, organizationId: string): OrganizationRecord {
  assertOrganizationScope(principal, organizationId);
  const organization = state.organizations.get(organizationId);
  if (!organization) throw new AppError('ORGANIZATION_NOT_FOUND');
  return organization;
}

/** Resolves a live project by exact name and checks the key scope and `read <subject>` on it. */
export function requireProject(
  state: SystemState,
  principal: Principal,
  organizationId: string,
  projectName: string,
  readSubject: Subject = 'Project',
): ProjectRecord {
  requireOrganization(state, principal, organizationId);
  const project = findProjectByName(state, organizationId, projectName);
  if (!project) throw new AppError('PROJECT_NOT_FOUND');
  assertProjectScope(principal, project);
  assertCanRead(state, principal, readSubject, { organizationId, projectId: project.id });
  return project;
}

export function requireBranch(
  state: SystemState,
  principal: Principal,
  target: { readonly organizationId: string; readonly projectName: string; readonly branchName: string },
): { readonly project: ProjectRecord; readonly branch: BranchRecord } {
  const project = requireProject(state, principal, target.organizationId, target.projectName, 'Branch');
  const branch = findBranchByName(state, project, target.branchName);
  if (!branch) throw new AppError('BRANCH_NOT_FOUND');
  assertBranchScope(principal, state, branch);
  return { project, branch };
}

/** A revision is named without its organization: it is resolved first, then every scope dimension is checked. */
export function requireRevision(
  state: SystemState,
  principal: Principal,
  revisionId: string,
  readSubject: Subject = 'Revision',
): { readonly revision: RevisionRecord; readonly branch: BranchRecord; readonly project: ProjectRecord } {
  const revision = findRevision(state, revisionId);
  const branch = revision ? state.branches.get(revision.branchId) : undefined;
  const project = revision ? state.projects.get(revision.projectId) : undefined;
  if (!revision || !branch || !project || project.deleted) {
    throw new AppError('REVISION_NOT_FOUND');
  }
  assertBranchScope(principal, state, branch);
  assertCanRead(state, principal, readSubject, { organizationId: project.organizationId, projectId: project.id });
  return { revision, branch, project };
}

export function requireUser(state: SystemState, userId: string): UserRecord {
  const user = state.users.get(userId);
  if (!user) throw new AppError('USER_NOT_FOUND');
  return user;
}

/** Step 8 for operations outside the permission matrix: a principal is needed and a read-only key cannot write. */
export function assertMayWrite(principal: Principal): void {
  if (principal.kind === 'anonymous') throw new AppError('UNAUTHENTICATED', 'Authentication required');
  if (keyScopeOf(principal)?.readOnly) throw new AppError('API_KEY_READ_ONLY');
}
