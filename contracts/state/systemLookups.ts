import type { BranchRecord, EndpointRecord, ProjectRecord, RevisionRecord } from './systemRecords.ts';
import type { SystemState } from './systemState.ts';

/** Lookups shared by both sides; every one ignores deleted entities. */

export function findProjectByName(state: SystemState, organizationId: string, projectName: string): ProjectRecord | null {
  for (const project of state.projects.values()) {
    if (!project.deleted && project.organizationId === organizationId && project.name === projectName) return project;
  }
  return null;
}

/** `$default` resolves to the root branch. Names are exact (case-sensitive). */
export function findBranchByName(state: SystemState, project: ProjectRecord, branchName: string): BranchRecord | null {
  if (branchName === '$default') return state.branches.get(project.rootBranchId) ?? null;
  for (const branchId of project.branchIds) {
    const branch = state.branches.get(branchId);
    if (branch && !branch.deleted && branch.name === branchName) return branch;
  }
  return null;
}

/** A live revision (its branch and project not deleted), or null. */
export function findRevision(state: SystemState, revisionId: string): RevisionRecord | null {
  const revision = state.revisions.get(revisionId);
  if (!revision) return null;
  const branch = state.branches.get(revision.branchId);
  if (!branch || branch.deleted) return null;
  return revision;
}

export function isDraftRevision(state: SystemState, revision: RevisionRecord): boolean {
  return state.branches.get(revision.branchId)?.draftRevisionId === revision.id;
}

/** The revision an endpoint serves now: head and draft endpoints follow their branch, a pinned one names it. */
export function endpointRevisionId(endpoint: Pick<EndpointRecord, 'mode' | 'pinnedRevisionId'>, branch: BranchRecord): string | null {
  switch (endpoint.mode) {
    case 'head':
      return branch.headRevisionId;
    case 'draft':
      return branch.draftRevisionId;
    case 'pinned':
      return endpoint.pinnedRevisionId;
    default: {
      const never: never = endpoint.mode;
      return never;
    }
  }
}
