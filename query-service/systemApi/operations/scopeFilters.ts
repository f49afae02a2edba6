import { branchInScope, can, keyScopeOf, projectTarget } from '../../../contracts/index.ts';
import type { Filter, Principal, ProjectRecord, SystemState } from '../../../contracts/index.ts';
import { MATCH_ALL, eq, or, within } from '../../paging/filters.ts';

/** Step 5 of auth.md §10 over lists: the view filters that keep what the principal and its key scope admit. */

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
