import { AppError } from '../errors/appError.ts';
import { findBranchByName, findProjectByName, findRevision } from '../state/systemLookups.ts';
import type { BranchRecord, OrganizationRecord, ProjectRecord, RevisionRecord } from '../state/systemRecords.ts';
import type { SystemState } from '../state/systemState.ts';
import type { PermissionTarget } from './permissions.ts';
import type { Principal } from './principal.ts';
import { assertBranchScope, assertOrganizationScope, assertProjectScope } from './authorize.ts';

/**
 * Steps 3-5 of auth.md §10 against the system state, written once for every role: organization scope (as a string,
 * before existence), resolution of the target (the 404 codes of errors.md), then the project and branch scope of the
 * resolved target. Read (6) and write (8) access stay with the caller, which knows the subject and the action.
 */

export type ResolvedBranch = { readonly project: ProjectRecord; readonly branch: BranchRecord };
export type ResolvedRevision = ResolvedBranch & { readonly revision: RevisionRecord };

export function resolveOrganization(state: SystemState, principal: Principal, organizationId: string): OrganizationRecord {
  assertOrganizationScope(principal, organizationId);
  const organization = state.organizations.get(organizationId);
  if (!organization) throw new AppError('ORGANIZATION_NOT_FOUND', `Organization "${organizationId}" not found`);
  return organization;
}

/** A live project by exact name. */
export function resolveProject(
  state: SystemState,
  principal: Principal,
  ref: { readonly organizationId: string; readonly projectName: string },
): ProjectRecord {
  resolveOrganization(state, principal, ref.organizationId);
  const project = findProjectByName(state, ref.organizationId, ref.projectName);
  if (!project) throw new AppError('PROJECT_NOT_FOUND', `Project "${ref.projectName}" not found`);
  assertProjectScope(principal, project);
  return project;
}

export function resolveProjectById(state: SystemState, principal: Principal, projectId: string): ProjectRecord {
  const project = state.projects.get(projectId);
  if (!project || project.deleted) throw new AppError('PROJECT_NOT_FOUND', 'Project not found');
  assertProjectScope(principal, project);
  return project;
}

/** Project and branch are both resolved (step 4) before the project and branch scope are checked (step 5). */
export function resolveBranch(
  state: SystemState,
  principal: Principal,
  ref: { readonly organizationId: string; readonly projectName: string; readonly branchName: string },
): ResolvedBranch {
  assertOrganizationScope(principal, ref.organizationId);
  if (!state.organizations.has(ref.organizationId)) {
    throw new AppError('ORGANIZATION_NOT_FOUND', `Organization "${ref.organizationId}" not found`);
  }
  const project = findProjectByName(state, ref.organizationId, ref.projectName);
  if (!project) throw new AppError('PROJECT_NOT_FOUND', `Project "${ref.projectName}" not found`);
  const branch = findBranchByName(state, project, ref.branchName);
  if (!branch || branch.deleted) throw new AppError('BRANCH_NOT_FOUND', `Branch "${ref.branchName}" not found`);
  assertBranchScope(principal, state, branch);
  return { project, branch };
}

function liveProjectOf(state: SystemState, branch: BranchRecord): ProjectRecord | null {
  const project = state.projects.get(branch.projectId);
  return project && !project.deleted ? project : null;
}

export function resolveBranchById(state: SystemState, principal: Principal, branchId: string): ResolvedBranch {
  const branch = state.branches.get(branchId);
  const project = branch && !branch.deleted ? liveProjectOf(state, branch) : null;
  if (!branch || !project) throw new AppError('BRANCH_NOT_FOUND', 'Branch not found');
  assertBranchScope(principal, state, branch);
  return { project, branch };
}

/** The organization, project and branch of a revision come from the revision itself (auth.md §8.5). */
export function resolveRevision(state: SystemState, principal: Principal, revisionId: string): ResolvedRevision {
  const revision = findRevision(state, revisionId);
  const branch = revision ? state.branches.get(revision.branchId) : undefined;
  const project = branch ? liveProjectOf(state, branch) : null;
  if (!revision || !branch || !project) throw new AppError('REVISION_NOT_FOUND', `Revision "${revisionId}" not found`);
  assertBranchScope(principal, state, branch);
  return { project, branch, revision };
}

/** The permission target of a project (for `read Project`, `read Branch`, ...). */
export const projectTarget = (project: ProjectRecord): PermissionTarget => ({
  organizationId: project.organizationId,
  projectId: project.id,
});
