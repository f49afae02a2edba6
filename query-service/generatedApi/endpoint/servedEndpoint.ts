import {
  AppError,
  assertBranchScope,
  assertCanRead,
  assertOrganizationScope,
  endpointRevisionId,
  findBranchByName,
  findProjectByName,
  findRevision,
} from '../../../contracts/index.ts';
import type {
  BranchRecord,
  EndpointMode,
  EndpointRecord,
  EndpointType,
  Principal,
  ProjectRecord,
  Subject,
  SystemState,
} from '../../../contracts/index.ts';
import { revisionScopeOf, type RevisionScope } from '../../readers/revisionScope.ts';

export type EndpointKind = 'graphql' | 'rest';

/** A generated endpoint URL as requested: `/endpoint/{kind}/{org}/{project}/{branch}/{segment}`. */
export type EndpointAddress = {
  readonly kind: EndpointKind;
  readonly org: string;
  readonly project: string;
  /** As the URL names it (`$default` included). */
  readonly branch: string;
  /** `head`, `draft` or a pinned revision id. */
  readonly segment: string;
};

/** The endpoint a URL names and the revision it serves now (head and draft follow commits). */
export type ServedEndpoint = {
  readonly address: EndpointAddress;
  readonly endpoint: EndpointRecord;
  readonly project: ProjectRecord;
  readonly branch: BranchRecord;
  readonly mode: EndpointMode;
  readonly revisionId: string;
  readonly scope: RevisionScope;
};

const TYPES: Readonly<Record<EndpointKind, EndpointType>> = { graphql: 'GRAPHQL', rest: 'REST_API' };

function notFound(): AppError {
  return new AppError('ENDPOINT_NOT_FOUND', 'Endpoint not found');
}

function findEndpoint(state: SystemState, branch: BranchRecord, type: EndpointType, segment: string): EndpointRecord | null {
  const mode: EndpointMode = segment === 'head' || segment === 'draft' ? segment : 'pinned';
  for (const endpoint of state.endpoints.values()) {
    if (endpoint.deleted || endpoint.branchId !== branch.id || endpoint.type !== type || endpoint.mode !== mode) continue;
    if (mode !== 'pinned' || endpoint.pinnedRevisionId === segment) return endpoint;
  }
  return null;
}

/**
 * Steps 3-6 of auth.md §10 for a generated endpoint URL, against the in-memory system state: organization scope (as
 * a string), resolution (organization, live project, branch — `$default` is the root — and an endpoint of that type
 * in that mode, else 404 ENDPOINT_NOT_FOUND), project and branch scope, then read access on `readSubject`
 * (public projects admit anyone; anonymous on a private one -> 401, no role -> 403).
 */
export function resolveServedEndpoint(state: SystemState, principal: Principal, address: EndpointAddress, readSubject: Subject): ServedEndpoint {
  assertOrganizationScope(principal, address.org);
  if (!state.organizations.has(address.org)) throw notFound();
  const project = findProjectByName(state, address.org, address.project);
  const branch = project === null ? null : findBranchByName(state, project, address.branch);
  if (project === null || branch === null || branch.deleted) throw notFound();
  const endpoint = findEndpoint(state, branch, TYPES[address.kind], address.segment);
  const revisionId = endpoint === null ? null : endpointRevisionId(endpoint, branch);
  const revision = revisionId === null ? null : findRevision(state, revisionId);
  if (endpoint === null || revision === null || revision.branchId !== branch.id) throw notFound();
  assertBranchScope(principal, state, branch);
  assertCanRead(state, principal, readSubject, { organizationId: project.organizationId, projectId: project.id });
  return {
    address,
    endpoint,
    project,
    branch,
    mode: endpoint.mode,
    revisionId: revision.id,
    scope: revisionScopeOf(state, revision),
  };
}
