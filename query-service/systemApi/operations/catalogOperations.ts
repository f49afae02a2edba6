import {
  AppError,
  assertCanRead,
  projectTarget,
  resolveBranch,
  resolveBranchById,
  resolveOrganization,
  resolveProject,
  resolveProjectById,
  resolveRevision,
} from '../../../contracts/index.ts';
import type { BranchRecord, Filter, Principal, ProjectRecord, SystemState } from '../../../contracts/index.ts';
import { MATCH_ALL, and, eq, within } from '../../paging/filters.ts';
import { parsePageArgs, type PageRequest } from '../../paging/pageArgs.ts';
import { headsWithMerges } from '../../readers/catalogViews.ts';
import { found, headsFrom, type OperationDeps } from './operationDeps.ts';
import { branchIdsInScope, branchScopeFilter, readableProjectsFilter } from './scopeFilters.ts';
import type { SystemOperations } from './operationTypes.ts';

type CatalogOperations = Pick<
  SystemOperations,
  | 'projects'
  | 'project'
  | 'projectById'
  | 'usersProject'
  | 'branches'
  | 'branchesOfProject'
  | 'branch'
  | 'branchById'
  | 'revisions'
  | 'revisionsOfBranch'
  | 'revision'
  | 'projectEndpoints'
  | 'revisionEndpoints'
  | 'endpoint'
>;

/** Projects, branches, revisions and endpoints (system-api.md §3.2). */
export function createCatalogOperations(deps: OperationDeps): CatalogOperations {
  const { catalog } = deps;
  const current = () => deps.systemState.current();

  async function projectOf(project: ProjectRecord) {
    const view = await catalog.project(project.id);
    return found(deps, view, 'PROJECT_NOT_FOUND', `Project "${project.name}" not found`, project.id);
  }

  async function branchOf(branch: BranchRecord) {
    const view = await catalog.branch(branch.id);
    return found(deps, view, 'BRANCH_NOT_FOUND', `Branch "${branch.name}" not found`, branch.id);
  }

  function branchesPage(state: SystemState, principal: Principal, project: ProjectRecord, page: PageRequest) {
    assertCanRead(state, principal, 'Branch', projectTarget(project));
    return catalog.branches(project.id, branchScopeFilter(principal), page);
  }

  function revisionsPage(state: SystemState, principal: Principal, project: ProjectRecord, branch: BranchRecord, page: PageRequest) {
    assertCanRead(state, principal, 'Revision', projectTarget(project));
    return catalog.revisions(branch.id, headsWithMerges(state, branch), page);
  }

  /** Endpoints of the project in the key's branch scope, optionally of one branch and type. */
  function endpointScope(state: SystemState, principal: Principal, project: ProjectRecord, branch: BranchRecord | null, type: string | null): Filter {
    const inScope = branchIdsInScope(state, principal, project);
    return and(
      inScope === null ? MATCH_ALL : within('branchId', inScope),
      branch === null ? MATCH_ALL : eq('branchId', branch.id),
      type === null ? MATCH_ALL : eq('type', type),
    );
  }

  return {
    async projects(ctx, args) {
      const state = await current();
      resolveOrganization(state, ctx.principal, args.organizationId);
      assertCanRead(state, ctx.principal, 'Organization', { organizationId: args.organizationId });
      const page = parsePageArgs(args);
      return catalog.projects(args.organizationId, readableProjectsFilter(state, ctx.principal, args.organizationId), page);
    },

    async project(ctx, args) {
      const state = await current();
      const project = resolveProject(state, ctx.principal, args);
      assertCanRead(state, ctx.principal, 'Project', projectTarget(project));
      return projectOf(project);
    },

    async projectById(ctx, projectId) {
      const state = await current();
      const project = resolveProjectById(state, ctx.principal, projectId);
      assertCanRead(state, ctx.principal, 'Project', projectTarget(project));
      return projectOf(project);
    },

    async usersProject(ctx, args) {
      const state = await current();
      const project = resolveProject(state, ctx.principal, args);
      assertCanRead(state, ctx.principal, 'User', projectTarget(project));
      return deps.directory.projectMembers(project.id, parsePageArgs(args));
    },

    async branches(ctx, args) {
      const state = await current();
      const project = resolveProject(state, ctx.principal, args);
      return branchesPage(state, ctx.principal, project, parsePageArgs(args));
    },

    async branchesOfProject(ctx, projectId, args) {
      const state = await current();
      const project = resolveProjectById(state, ctx.principal, projectId);
      return branchesPage(state, ctx.principal, project, parsePageArgs(args));
    },

    async branch(ctx, args) {
      const state = await current();
      const { project, branch } = resolveBranch(state, ctx.principal, args);
      assertCanRead(state, ctx.principal, 'Branch', projectTarget(project));
      return branchOf(branch);
    },

    async branchById(ctx, branchId) {
      const state = await current();
      const { project, branch } = resolveBranchById(state, ctx.principal, branchId);
      assertCanRead(state, ctx.principal, 'Branch', projectTarget(project));
      return branchOf(branch);
    },

    async revisions(ctx, args) {
      const state = await current();
      const { project, branch } = resolveBranch(state, ctx.principal, args);
      return revisionsPage(state, ctx.principal, project, branch, parsePageArgs(args));
    },

    async revisionsOfBranch(ctx, branchId, args) {
      const state = await current();
      const { project, branch } = resolveBranchById(state, ctx.principal, branchId);
      return revisionsPage(state, ctx.principal, project, branch, parsePageArgs(args));
    },

    async revision(ctx, { revisionId }) {
      const state = await current();
      const { project, branch } = resolveRevision(state, ctx.principal, revisionId);
      assertCanRead(state, ctx.principal, 'Revision', projectTarget(project));
      const view = await catalog.revision(revisionId, headsWithMerges(state, branch));
      return found(deps, view, 'REVISION_NOT_FOUND', `Revision "${revisionId}" not found`, revisionId);
    },

    async projectEndpoints(ctx, args) {
      const state = await current();
      const project = resolveProject(state, ctx.principal, args);
      const branch = args.branchName == null ? null : resolveBranch(state, ctx.principal, { ...args, branchName: args.branchName }).branch;
      assertCanRead(state, ctx.principal, 'Endpoint', projectTarget(project));
      const page = parsePageArgs(args);
      const scope = endpointScope(state, ctx.principal, project, branch, args.type ?? null);
      return catalog.endpoints(project.id, scope, headsFrom(state), page);
    },

    async revisionEndpoints(ctx, { revisionId }) {
      const state = await current();
      const { project, branch } = resolveRevision(state, ctx.principal, revisionId);
      assertCanRead(state, ctx.principal, 'Endpoint', projectTarget(project));
      const endpoints = await catalog.endpointsOfBranch(branch.id, headsFrom(state));
      return endpoints.filter((endpoint) => endpoint.revisionId === revisionId);
    },

    async endpoint(ctx, { endpointId }) {
      const state = await current();
      const record = state.endpoints.get(endpointId);
      if (!record || record.deleted) throw new AppError('ENDPOINT_NOT_FOUND', 'Endpoint not found');
      const { project } = resolveBranchById(state, ctx.principal, record.branchId);
      assertCanRead(state, ctx.principal, 'Endpoint', projectTarget(project));
      const view = await catalog.endpoint(endpointId, headsFrom(state));
      return found(deps, view, 'ENDPOINT_NOT_FOUND', 'Endpoint not found', endpointId);
    },
  };
}
