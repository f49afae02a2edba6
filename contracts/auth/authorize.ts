import { AppError } from '../errors/appError.ts';
import type { BranchRecord, ProjectRecord } from '../state/systemRecords.ts';
import type { SystemState } from '../state/systemState.ts';
import { can, type Action, type PermissionTarget, type Subject } from './permissions.ts';
import { keyScopeOf, type Principal } from './principal.ts';

/**
 * The checks of auth.md §10 as separate steps, so every edge and handler can run them in the specified order:
 * 3 organization scope -> 4 resolve target -> 5 other scope dimensions -> 6 read access -> 8 write access.
 */

/** Step 3: the key's organization scope, compared as strings before any existence check. */
export function assertOrganizationScope(principal: Principal, organizationId: string): void {
  const scope = keyScopeOf(principal);
  if (scope?.organizationId && scope.organizationId !== organizationId) {
    if (principal.kind === 'user' && principal.oauth) throw new AppError('FORBIDDEN', 'The target is outside the organization granted to this app');
    throw new AppError('API_KEY_SCOPE', 'API key scope does not allow access to this organization');
  }
}

/** Step 5: project scope (by id, after resolution). */
export function assertProjectScope(principal: Principal, project: ProjectRecord): void {
  assertOrganizationScope(principal, project.organizationId);
  const scope = keyScopeOf(principal);
  if (scope?.projectIds && !scope.projectIds.includes(project.id)) {
    throw new AppError('API_KEY_SCOPE', 'API key scope does not allow access to this project');
  }
}

/** Whether a key's branch scope admits the branch (`$default` matches the project's root branch now). */
export function branchInScope(principal: Principal, branch: BranchRecord): boolean {
  const scope = keyScopeOf(principal);
  if (!scope?.branchNames) return true;
  return scope.branchNames.some((name) => name === branch.name || (name === '$default' && branch.isRoot));
}

/** Step 5: branch scope (after resolution). */
export function assertBranchScope(principal: Principal, state: SystemState, branch: BranchRecord): void {
  const project = state.projects.get(branch.projectId);
  if (project) assertProjectScope(principal, project);
  if (!branchInScope(principal, branch)) {
    throw new AppError('API_KEY_SCOPE', 'API key scope does not allow access to this branch');
  }
}

/**
 * Steps 3 and 5 for a write that creates an organization: it is outside an organization scope naming another one,
 * and outside every project scope (the listed projects live in existing organizations).
 */
export function assertNewOrganizationInScope(principal: Principal, organizationId: string): void {
  assertOrganizationScope(principal, organizationId);
  if (keyScopeOf(principal)?.projectIds) throw new AppError('API_KEY_SCOPE', 'API key scope does not allow creating an organization');
}

/**
 * Step 5 for a write that creates a project (auth.md §8.5): a key with a project scope lists existing project ids,
 * so no new project is ever in it; the new root branch must be in the branch scope (`$default` names the root).
 */
export function assertNewProjectInScope(principal: Principal, rootBranchName: string): void {
  const scope = keyScopeOf(principal);
  if (scope?.projectIds) throw new AppError('API_KEY_SCOPE', 'API key scope does not allow creating a project');
  assertNewBranchInScope(principal, rootBranchName, true);
}

/** Step 5 for a write that creates a branch: its name must be listed (`$default` only admits a new root branch). */
export function assertNewBranchInScope(principal: Principal, branchName: string, isRoot: boolean): void {
  const names = keyScopeOf(principal)?.branchNames;
  if (names && !names.some((name) => name === branchName || (name === '$default' && isRoot))) {
    throw new AppError('API_KEY_SCOPE', 'API key scope does not allow access to this branch');
  }
}

export function tableInScope(principal: Principal, tableId: string): boolean {
  const scope = keyScopeOf(principal);
  return !scope?.tableIds || scope.tableIds.includes(tableId);
}

/** Step 5: table scope, compared as a string before the table's existence is checked. */
export function assertTableScope(principal: Principal, tableId: string): void {
  if (!tableInScope(principal, tableId)) {
    throw new AppError('API_KEY_SCOPE', 'API key scope does not allow access to this table');
  }
}

/** Step 6: read access (auth.md §9): anonymous -> 401, authenticated without permission -> 403. */
export function assertCanRead(state: SystemState, principal: Principal, subject: Subject, target: PermissionTarget): void {
  if (can(state, principal, 'read', subject, target)) return;
  if (principal.kind === 'anonymous') throw new AppError('UNAUTHENTICATED', 'Authentication required');
  throw new AppError('FORBIDDEN', `You are not allowed to read on ${subject}`);
}

/** Step 8: write access: anonymous -> 401, readOnly key -> API_KEY_READ_ONLY, missing permission -> 403. */
export function assertCanWrite(state: SystemState, principal: Principal, action: Action, subject: Subject, target: PermissionTarget): void {
  if (principal.kind === 'anonymous') throw new AppError('UNAUTHENTICATED', 'Authentication required');
  if (keyScopeOf(principal)?.readOnly) {
    throw new AppError('API_KEY_READ_ONLY', `API key is read-only: ${action} on ${subject} is not allowed`);
  }
  if (!can(state, principal, action, subject, target)) {
    throw new AppError('FORBIDDEN', `You are not allowed to ${action} on ${subject}`);
  }
}

/** Operations only a user (not a service key) may call: `me`, password changes. */
export function assertUserPrincipal(principal: Principal): asserts principal is Extract<Principal, { kind: 'user' }> {
  if (principal.kind === 'anonymous') throw new AppError('UNAUTHENTICATED', 'Authentication required');
  if (principal.kind !== 'user') throw new AppError('FORBIDDEN', 'This operation requires a user');
}

/** Operations reserved for system administrators. */
export function assertSystemAdmin(state: SystemState, principal: Principal): void {
  assertUserPrincipal(principal);
  const user = state.users.get(principal.userId);
  if (user?.role !== 'systemAdmin') throw new AppError('FORBIDDEN', 'This operation requires a system administrator');
}
