import {
  AppError,
  assertBranchName,
  assertBranchScope,
  assertCanRead,
  assertCanWrite,
  assertNewBranchInScope,
  assertNewProjectInScope,
  assertOrganizationScope,
  assertProjectName,
  createSystemState,
  evolveSystemState,
  isDraftRevision,
  sameIdentifier,
} from '../../contracts/index.ts';
import type {
  BranchRecord,
  DomainEvent,
  EndpointMode,
  EndpointRecord,
  EndpointType,
  Principal,
  ProjectRecord,
  SystemState,
} from '../../contracts/index.ts';
import { requireBranch, requireOrganization, requireProject, requireRevision } from './resolveTargets.ts';

/** Decides writes of the `organization-{orgId}` streams: projects, branches, endpoints. New ids arrive in the command. */
type Meta = { readonly principal: Principal };
type Command<T extends string, D> = { readonly type: T; readonly data: D; readonly metadata: Meta };
type ProjectTarget = { organizationId: string; projectName: string };
export type NewBranchIds = { branchId: string; startRevisionId: string; draftRevisionId: string };

export type OrganizationCommand =
  | Command<'CreateProject', ProjectTarget & { branchName: string; isPublic: boolean; projectId: string } & NewBranchIds>
  | Command<'UpdateProject', ProjectTarget & { isPublic: boolean }>
  | Command<'DeleteProject', ProjectTarget>
  | Command<'CreateBranch', { revisionId: string; branchName: string } & NewBranchIds>
  | Command<'DeleteBranch', ProjectTarget & { branchName: string }>
  | Command<'CreateEndpoint', { revisionId: string; type: EndpointType; endpointId: string }>
  | Command<'DeleteEndpoint', { endpointId: string }>;

const endpointTypes: readonly string[] = ['GRAPHQL', 'REST_API'];

/** The organization whose stream a command writes (null when its target does not exist: decide refuses it). */
export function organizationOfCommand(command: OrganizationCommand, state: SystemState): string | null {
  switch (command.type) {
    case 'CreateBranch':
    case 'CreateEndpoint':
      return state.revisions.get(command.data.revisionId)?.organizationId ?? null;
    case 'DeleteEndpoint':
      return state.endpoints.get(command.data.endpointId)?.organizationId ?? null;
    default:
      return command.data.organizationId;
  }
}

/** Live branches of a project, for name uniqueness and child lookups. */
function liveBranches(state: SystemState, project: ProjectRecord): BranchRecord[] {
  const branches: BranchRecord[] = [];
  for (const id of project.branchIds) {
    const branch = state.branches.get(id);
    if (branch && !branch.deleted) branches.push(branch);
  }
  return branches;
}

function decideProject(
  command: Extract<OrganizationCommand, { type: 'CreateProject' | 'UpdateProject' | 'DeleteProject' }>,
  state: SystemState,
): DomainEvent[] {
  const { principal } = command.metadata;
  const { organizationId, projectName } = command.data;
  if (command.type === 'CreateProject') {
    const d = command.data;
    requireOrganization(state, principal, organizationId);
    assertNewProjectInScope(principal, d.branchName);
    assertCanWrite(state, principal, 'create', 'Project', { organizationId });
    assertProjectName(projectName);
    assertBranchName(d.branchName);
    for (const project of state.projects.values()) {
      if (!project.deleted && project.organizationId === organizationId && sameIdentifier(project.name, projectName)) {
        throw new AppError('PROJECT_ALREADY_EXISTS', `Project with name ${projectName} already exists`);
      }
    }
    const rootBranch = { branchId: d.branchId, name: d.branchName, startRevisionId: d.startRevisionId, draftRevisionId: d.draftRevisionId };
    return [{ type: 'ProjectCreated', data: { projectId: d.projectId, organizationId, name: projectName, isPublic: d.isPublic, rootBranch } }];
  }
  const project = requireProject(state, principal, organizationId, projectName);
  const target = { organizationId, projectId: project.id };
  if (command.type === 'UpdateProject') {
    assertCanWrite(state, principal, 'update', 'Project', target);
    if (project.isPublic === command.data.isPublic) return [];
    return [{ type: 'ProjectVisibilityChanged', data: { projectId: project.id, isPublic: command.data.isPublic } }];
  }
  assertCanWrite(state, principal, 'delete', 'Project', target);
  return [{ type: 'ProjectDeleted', data: { projectId: project.id } }];
}

function decideCreateBranch(command: Extract<OrganizationCommand, { type: 'CreateBranch' }>, state: SystemState): DomainEvent[] {
  const { principal } = command.metadata;
  const d = command.data;
  const { revision, branch: source, project } = requireRevision(state, principal, d.revisionId);
  assertCanWrite(state, principal, 'create', 'Branch', { organizationId: project.organizationId, projectId: project.id });
  assertBranchName(d.branchName);
  // The new branch is a scope dimension too: a key limited to some branches cannot make one outside them.
  assertNewBranchInScope(principal, d.branchName, false);
  if (isDraftRevision(state, revision)) throw new AppError('REVISION_IS_DRAFT');
  if (liveBranches(state, project).some((branch) => sameIdentifier(branch.name, d.branchName))) {
    throw new AppError('BRANCH_ALREADY_EXISTS', `Branch with name ${d.branchName} already exists`);
  }
  return [
    {
      type: 'BranchCreated',
      data: {
        branchId: d.branchId,
        name: d.branchName,
        startRevisionId: d.startRevisionId,
        draftRevisionId: d.draftRevisionId,
        projectId: project.id,
        sourceBranchId: source.id,
        sourceBranchName: source.name,
        sourceRevisionId: revision.id,
        sourceSeq: revision.seq,
      },
    },
  ];
}

function decideDeleteBranch(command: Extract<OrganizationCommand, { type: 'DeleteBranch' }>, state: SystemState): DomainEvent[] {
  const { principal } = command.metadata;
  const { project, branch } = requireBranch(state, principal, command.data);
  assertCanWrite(state, principal, 'delete', 'Branch', { organizationId: project.organizationId, projectId: project.id });
  if (branch.isRoot) throw new AppError('CANNOT_DELETE_ROOT_BRANCH');
  const children = liveBranches(state, project).filter((candidate) => candidate.parent?.branchId === branch.id);
  if (children.length > 0) {
    const names = children.map((child) => child.name).join(', ');
    throw new AppError('BRANCH_HAS_CHILDREN', `Cannot delete branch: it has child branches (${names}). Delete them first.`);
  }
  return [{ type: 'BranchDeleted', data: { projectId: project.id, branchId: branch.id } }];
}

/** head = the branch's HEAD, draft = its draft, any other committed revision = pinned (domain.md §1 Endpoint). */
export function endpointModeOf(branch: BranchRecord, revisionId: string): EndpointMode {
  if (revisionId === branch.headRevisionId) return 'head';
  if (revisionId === branch.draftRevisionId) return 'draft';
  return 'pinned';
}

function isDuplicateEndpoint(endpoint: EndpointRecord, branchId: string, mode: EndpointMode, type: EndpointType, revisionId: string): boolean {
  if (endpoint.deleted || endpoint.type !== type) return false;
  if (mode === 'pinned') return endpoint.mode === 'pinned' && endpoint.pinnedRevisionId === revisionId;
  return endpoint.branchId === branchId && endpoint.mode === mode;
}

function decideCreateEndpoint(command: Extract<OrganizationCommand, { type: 'CreateEndpoint' }>, state: SystemState): DomainEvent[] {
  const { principal } = command.metadata;
  const d = command.data;
  const { revision, branch, project } = requireRevision(state, principal, d.revisionId, 'Endpoint');
  assertCanWrite(state, principal, 'create', 'Endpoint', { organizationId: project.organizationId, projectId: project.id });
  if (!endpointTypes.includes(d.type)) {
    throw new AppError('BAD_USER_INPUT', `Invalid endpoint type: ${d.type}`, [{ path: '/type', message: 'must be GRAPHQL or REST_API' }]);
  }
  const mode = endpointModeOf(branch, revision.id);
  for (const endpoint of state.endpoints.values()) {
    if (isDuplicateEndpoint(endpoint, branch.id, mode, d.type, revision.id)) throw new AppError('ENDPOINT_ALREADY_EXISTS');
  }
  return [
    {
      type: 'EndpointCreated',
      data: {
        endpointId: d.endpointId,
        projectId: project.id,
        projectName: project.name,
        branchId: branch.id,
        branchName: branch.name,
        type: d.type,
        mode,
        pinnedRevisionId: mode === 'pinned' ? revision.id : null,
      },
    },
  ];
}

function decideDeleteEndpoint(command: Extract<OrganizationCommand, { type: 'DeleteEndpoint' }>, state: SystemState): DomainEvent[] {
  const { principal } = command.metadata;
  const endpoint = state.endpoints.get(command.data.endpointId);
  const branch = endpoint ? state.branches.get(endpoint.branchId) : undefined;
  if (!endpoint || endpoint.deleted || !branch || branch.deleted) throw new AppError('ENDPOINT_NOT_FOUND');
  assertOrganizationScope(principal, endpoint.organizationId);
  assertBranchScope(principal, state, branch);
  const target = { organizationId: endpoint.organizationId, projectId: endpoint.projectId };
  assertCanRead(state, principal, 'Endpoint', target);
  assertCanWrite(state, principal, 'delete', 'Endpoint', target);
  return [{ type: 'EndpointDeleted', data: { endpointId: endpoint.id, projectId: endpoint.projectId } }];
}

function decide(command: OrganizationCommand, state: SystemState): DomainEvent[] {
  switch (command.type) {
    case 'CreateProject':
    case 'UpdateProject':
    case 'DeleteProject':
      return decideProject(command, state);
    case 'CreateBranch':
      return decideCreateBranch(command, state);
    case 'DeleteBranch':
      return decideDeleteBranch(command, state);
    case 'CreateEndpoint':
      return decideCreateEndpoint(command, state);
    case 'DeleteEndpoint':
      return decideDeleteEndpoint(command, state);
    default: {
      const never: never = command;
      return never;
    }
  }
}

/** Emmett-shaped decider over the system state (evolve = the shared fold of contracts/state). */
export const organizationDecider = { decide, evolve: evolveSystemState, initialState: createSystemState };
