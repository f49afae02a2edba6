import {
  AppError,
  assertBranchScope,
  assertCanRead,
  assertCanWrite,
  assertOrganizationScope,
  assertProjectScope,
  assertTableScope,
  findBranchByName,
  findProjectByName,
  findRevision,
} from '../../contracts/index.ts';
import type { Action, BranchRecord, Principal, RevisionRecord, Subject, SystemState } from '../../contracts/index.ts';

/** The permission a command needs (domain.md §8.1) and the subject its target is read as. */
export type Access = { readonly read: Subject; readonly action: Action; readonly subject: Subject };

function checkAccess(system: SystemState, principal: Principal, branch: BranchRecord, access: Access): void {
  const target = { organizationId: branch.organizationId, projectId: branch.projectId };
  assertCanRead(system, principal, access.read, target);
  assertCanWrite(system, principal, access.action, access.subject, target);
}

/**
 * Steps 4-8 of auth.md §10 for a write naming a revision: resolve it (REVISION_NOT_FOUND), organization, project
 * and branch scope, table scope by id string (before the table's existence), read access, write access (each
 * permission of a write that needs several).
 */
export function resolveRevisionTarget(
  system: SystemState,
  principal: Principal,
  revisionId: string,
  tableIds: readonly string[],
  access: Access | readonly Access[],
): { readonly branch: BranchRecord; readonly revision: RevisionRecord } {
  const revision = findRevision(system, revisionId);
  const branch = revision ? system.branches.get(revision.branchId) : undefined;
  if (!revision || !branch) throw new AppError('REVISION_NOT_FOUND');
  assertBranchScope(principal, system, branch);
  for (const tableId of tableIds) assertTableScope(principal, tableId);
  for (const one of Array.isArray(access) ? (access as readonly Access[]) : [access as Access]) checkAccess(system, principal, branch, one);
  return { branch, revision };
}

/** Steps 3-8 of auth.md §10 for a write naming organization, project and branch (`$default` = the root branch). */
export function resolveBranchTarget(
  system: SystemState,
  principal: Principal,
  input: { readonly organizationId: string; readonly projectName: string; readonly branchName: string },
  access: Access,
): BranchRecord {
  assertOrganizationScope(principal, input.organizationId);
  if (!system.organizations.has(input.organizationId)) {
    throw new AppError('ORGANIZATION_NOT_FOUND');
  }
  const project = findProjectByName(system, input.organizationId, input.projectName);
  if (!project) throw new AppError('PROJECT_NOT_FOUND');
  assertProjectScope(principal, project);
  const branch = findBranchByName(system, project, input.branchName);
  if (!branch || branch.deleted) throw new AppError('BRANCH_NOT_FOUND');
  assertBranchScope(principal, system, branch);
  checkAccess(system, principal, branch, access);
  return branch;
}
