import {
  AppError,
  assertBranchScope,
  assertOrganizationScope,
  assertProjectScope,
  branchInScope,
  can,
  findBranchByName,
  findRevision,
  findProjectByName,
  keyScopeOf,
} from '../../contracts/index.ts';
import type {
  BranchRecord,
  Filter,
  OrganizationRecord,
  Principal,
  ProjectRecord,
  RevisionRecord,
  SystemState,
} from '../../contracts/index.ts';
import { MATCH_ALL, eq, or, within } from '../paging/filters.ts';

/**
 * Steps 3-5 of auth.md §10 against the in-memory system state: organization scope (as a string, before existence),
 * resolution of the target (404 codes of errors.md), then the project and branch scope of the resolved target.
 */

export function resolveOrganization(state: SystemState, principal: Principal, organizationId: string): OrganizationRecord {
  assertOrganizationScope(principal, organizationId);
  const organization = state.organizations.get(organizationId);
  if (!organization) throw new AppError('ORGANIZATION_NOT_FOUND', `Organization "${organizationId}" not found`);
  return organization;
}

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

export type ResolvedBranch = { readonly project: ProjectRecord; readonly branch: BranchRecord };

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

export type ResolvedRevision = ResolvedBranch & { readonly revision: RevisionRecord };

/** The organization, project and branch of a revision come from the revision itself (auth.md §8.5). */
export function resolveRevision(state: SystemState, principal: Principal, revisionId: string): ResolvedRevision {
  const revision = findRevision(state, revisionId);
  const branch = revision ? state.branches.get(revision.branchId) : undefined;
  const project = branch ? liveProjectOf(state, branch) : null;
  if (!revision || !branch || !project) throw new AppError('REVISION_NOT_FOUND', `Revision "${revisionId}" not found`);
  assertBranchScope(principal, state, branch);
  return { project, branch, revision };
}

/** `read Project` target of a project. */
export const projectTarget = (project: ProjectRecord) => ({ organizationId: project.organizationId, projectId: project.id });

/** Projects of an organization the principal may read and its key admits (auth.md §8.5, domain.md §8.1). */
export function readableProjectsFilter(state: SystemState, principal: Principal, organizationId: string): Filter {
  const allowed = keyScopeOf(principal)?.projectIds ?? null;
  const ids: string[] = [];
  let everyProject = true;
  for (const project of state.projects.values()) {
    if (project.organizationId !== organizationId || project.deleted) continue;
    const readable = can(state, principal, 'read', 'Project', projectTarget(project));
    if (readable && (allowed === null || allowed.includes(project.id))) ids.push(project.id);
    else everyProject = false;
  }
  return everyProject ? MATCH_ALL : within('id', ids);
}

/** Branches the key's branch scope admits (`$default` = the root branch), over `catalog.branches`. */
export function branchScopeFilter(principal: Principal): Filter {
  const names = keyScopeOf(principal)?.branchNames ?? null;
  if (names === null) return MATCH_ALL;
  const exact = names.filter((name) => name !== '$default');
  return names.includes('$default') ? or(within('name', exact), eq('isRoot', true)) : within('name', exact);
}

/** Ids of the project's live branches the key admits, or null when every branch is admitted. */
export function branchIdsInScope(state: SystemState, principal: Principal, project: ProjectRecord): string[] | null {
  if (keyScopeOf(principal)?.branchNames == null) return null;
  const ids: string[] = [];
  for (const branchId of project.branchIds) {
    const branch = state.branches.get(branchId);
    if (branch && !branch.deleted && branchInScope(principal, branch)) ids.push(branch.id);
  }
  return ids;
}

/** Tables the key's table scope admits, over `schemas.tables`. */
export function tableScopeFilter(principal: Principal): Filter {
  const tableIds = keyScopeOf(principal)?.tableIds ?? null;
  return tableIds === null ? MATCH_ALL : within('tableId', tableIds);
}
