/** GraphQL selections shared by several screens (system-api.md §3.1). */

export const PAGE_INFO = 'totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';

export const REVISION_FIELDS = 'id sequence isStart isHead isDraft hasChanges comment createdAt committedAt';

export const BRANCH_FIELDS = `id name isRoot createdAt headRevisionId draftRevisionId touched parent { branchName revisionId }
  head { ${REVISION_FIELDS} } draft { ${REVISION_FIELDS} }`;

export const ENDPOINT_FIELDS = 'id type mode branchName revisionId path openApiPath docsPath createdAt';

export const API_KEY_FIELDS = `id name prefix type status organizationId projectIds branchNames tableIds readOnly permissions
  expiresAt revokedAt lastUsedAt createdAt`;
