import type {
  BranchRecord,
  BranchView,
  EndpointMode,
  EndpointType,
  EndpointView,
  ProjectView,
  RevisionView,
  SystemState,
  ViewDoc,
} from '../../contracts/index.ts';

/** REST shapes (contracts/api/views.ts) of `catalog` documents. */

export function projectView(doc: ViewDoc): ProjectView {
  return {
    id: doc.id as string,
    organizationId: doc.organizationId as string,
    name: doc.name as string,
    isPublic: doc.isPublic as boolean,
    rootBranchName: doc.rootBranchName as string,
    createdAt: doc.createdAt as string,
  };
}

export function branchView(doc: ViewDoc): BranchView {
  const parentBranchName = doc.parentBranchName as string | null;
  const parentRevisionId = doc.parentRevisionId as string | null;
  return {
    id: doc.id as string,
    projectId: doc.projectId as string,
    name: doc.name as string,
    isRoot: doc.isRoot as boolean,
    createdAt: doc.createdAt as string,
    headRevisionId: doc.headRevisionId as string,
    draftRevisionId: doc.draftRevisionId as string,
    startRevisionId: doc.startRevisionId as string,
    parent: parentBranchName !== null && parentRevisionId !== null ? { branchName: parentBranchName, revisionId: parentRevisionId } : null,
    touched: doc.touched as boolean,
  };
}

/** HEAD and draft ids of a branch, from the in-memory system state (always current). */
export type BranchHeads = {
  readonly headRevisionId: string;
  readonly draftRevisionId: string;
  /** Merge edges of a revision (system state: merge.md §5); none when absent. */
  readonly mergesOf?: (revisionId: string) => readonly string[];
};

/** A branch's heads with the revision graph's merge edges from the system state. */
export function headsWithMerges(state: SystemState, branch: BranchRecord): BranchHeads {
  return {
    headRevisionId: branch.headRevisionId,
    draftRevisionId: branch.draftRevisionId,
    mergesOf: (revisionId) => state.revisions.get(revisionId)?.mergedRevisionIds ?? [],
  };
}

export function revisionView(doc: ViewDoc, heads: BranchHeads): RevisionView {
  const id = doc.id as string;
  const isDraft = heads.draftRevisionId === id;
  const merges = [...(heads.mergesOf?.(id) ?? [])];
  return {
    id,
    branchId: doc.branchId as string,
    sequence: doc.sequence as number,
    parentId: (doc.parentId as string | null) ?? null,
    isStart: doc.isStart as boolean,
    isHead: heads.headRevisionId === id,
    isDraft,
    // Only a draft can differ from HEAD (domain.md §4).
    hasChanges: isDraft && doc.hasChanges === true,
    comment: (doc.comment as string | null) ?? '',
    createdAt: doc.createdAt as string,
    committedAt: isDraft ? null : ((doc.committedAt as string | null) ?? null),
    mergedRevisionIds: isDraft ? [] : merges,
    pendingMergeRevisionIds: isDraft ? merges : [],
  };
}

/** `/endpoint/graphql|rest/{org}/{project}/{branch}/{head|draft|revisionId}`; REST adds openapi.json and docs. */
export function endpointView(doc: ViewDoc, heads: BranchHeads): EndpointView {
  const mode = doc.mode as EndpointMode;
  const type = doc.type as EndpointType;
  const pinned = (doc.pinnedRevisionId as string | null) ?? heads.headRevisionId;
  const revisionId = mode === 'head' ? heads.headRevisionId : mode === 'draft' ? heads.draftRevisionId : pinned;
  const segment = mode === 'pinned' ? revisionId : mode;
  const kind = type === 'GRAPHQL' ? 'graphql' : 'rest';
  const organizationId = doc.organizationId as string;
  const projectName = doc.projectName as string;
  const branchName = doc.branchName as string;
  const path = `/endpoint/${kind}/${organizationId}/${projectName}/${branchName}/${segment}`;
  const isRest = type === 'REST_API';
  return {
    id: doc.id as string,
    type,
    mode,
    organizationId,
    projectName,
    branchName,
    revisionId,
    path,
    openApiPath: isRest ? `${path}/openapi.json` : null,
    docsPath: isRest ? `${path}/docs` : null,
    createdAt: doc.createdAt as string,
  };
}
