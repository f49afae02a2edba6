import { endpointRevisionId, invariant } from '../../contracts/index.ts';
import type {
  EndpointRecord,
  EndpointView,
  OrganizationRecord,
  OrganizationView,
  ProjectRecord,
  ProjectView,
  SystemState,
  UserRecord,
  UserView,
} from '../../contracts/index.ts';

/** REST shapes (contracts/api/views.ts) built from system-state records. */

export function userView(user: Pick<UserRecord, 'id' | 'username' | 'email' | 'role' | 'isActive' | 'createdAt'>): UserView {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    role: user.role,
    isActive: user.isActive,
    organizationId: user.username,
    createdAt: user.createdAt,
  };
}

export function organizationView(organization: Pick<OrganizationRecord, 'id' | 'isPersonal' | 'createdAt'>): OrganizationView {
  return { id: organization.id, isPersonal: organization.isPersonal, createdAt: organization.createdAt };
}

export function projectView(
  project: Pick<ProjectRecord, 'id' | 'organizationId' | 'name' | 'isPublic' | 'createdAt'>,
  rootBranchName: string,
): ProjectView {
  return {
    id: project.id,
    organizationId: project.organizationId,
    name: project.name,
    isPublic: project.isPublic,
    rootBranchName,
    createdAt: project.createdAt,
  };
}

/** `/endpoint/graphql|rest/{org}/{project}/{branch}/{head|draft|revisionId}`; REST adds openapi.json and docs. */
export function endpointView(
  state: SystemState,
  endpoint: Pick<EndpointRecord, 'id' | 'type' | 'mode' | 'pinnedRevisionId' | 'projectId' | 'branchId' | 'createdAt'>,
): EndpointView {
  const project = state.projects.get(endpoint.projectId);
  const branch = state.branches.get(endpoint.branchId);
  invariant(project && branch, 'an endpoint belongs to a known project and branch');
  const revisionId = endpointRevisionId(endpoint, branch) ?? branch.headRevisionId;
  const segment = endpoint.mode === 'pinned' ? revisionId : endpoint.mode;
  const kind = endpoint.type === 'GRAPHQL' ? 'graphql' : 'rest';
  const path = `/endpoint/${kind}/${project.organizationId}/${project.name}/${branch.name}/${segment}`;
  const isRest = endpoint.type === 'REST_API';
  return {
    id: endpoint.id,
    type: endpoint.type,
    mode: endpoint.mode,
    organizationId: project.organizationId,
    projectName: project.name,
    branchName: branch.name,
    revisionId,
    path,
    openApiPath: isRest ? `${path}/openapi.json` : null,
    docsPath: isRest ? `${path}/docs` : null,
    createdAt: endpoint.createdAt,
  };
}
