import {
  AppError,
  assertCanRead,
  keyScopeOf,
  projectTarget,
  resolveBranch,
  resolveOrganization,
  resolveProject,
  resolveRevision,
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
 * The targets of a command: steps 3-5 of auth.md §10 come from contracts (resolveTargets.ts, shared with the query
 * side), then read access (6) on the resolved target. Write access (8) stays with the caller, which knows the action.
 */

export function requireOrganization(state: SystemState, principal: Principal, organizationId: string): OrganizationRecord {
  return resolveOrganization(state, principal, organizationId);
}

/** Resolves a live project by exact name and checks the key scope and `read <subject>` on it. */
export function requireProject(
  state: SystemState,
  principal: Principal,
  organizationId: string,
  projectName: string,
  readSubject: Subject = 'Project',
): ProjectRecord {
  const project = resolveProject(state, principal, { organizationId, projectName });
  assertCanRead(state, principal, readSubject, projectTarget(project));
  return project;
}

export function requireBranch(
  state: SystemState,
  principal: Principal,
  target: { readonly organizationId: string; readonly projectName: string; readonly branchName: string },
): { readonly project: ProjectRecord; readonly branch: BranchRecord } {
  const resolved = resolveBranch(state, principal, target);
  assertCanRead(state, principal, 'Branch', projectTarget(resolved.project));
  return resolved;
}

/** A revision is named without its organization: it is resolved first, then every scope dimension is checked. */
export function requireRevision(
  state: SystemState,
  principal: Principal,
  revisionId: string,
  readSubject: Subject = 'Revision',
): { readonly revision: RevisionRecord; readonly branch: BranchRecord; readonly project: ProjectRecord } {
  const resolved = resolveRevision(state, principal, revisionId);
  assertCanRead(state, principal, readSubject, projectTarget(resolved.project));
  return resolved;
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
