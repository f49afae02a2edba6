/** The system API's object types as this app selects them (system-api.md §3.1). */

export type PageInfo = { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
/** A page of a list (system-api.md §2); `cursor` of an edge where the query selects it. */
export type Connection<T> = { totalCount: number; pageInfo: PageInfo; edges: { cursor?: string; node: T }[] };

export type OrganizationRole = 'organizationOwner' | 'organizationAdmin' | 'developer' | 'editor' | 'reader';

export type SystemRole = 'systemAdmin' | 'systemUser';

/** A user as the Users screen shows it (system-api.md §3.1 `User`). */
export type User = {
  id: string;
  username: string;
  email: string | null;
  role: SystemRole;
  isActive: boolean;
  organizationId: string;
  createdAt: string;
};

export type Organization = { id: string; isPersonal: boolean; createdAt: string; myRole: OrganizationRole | null };

export type Member = { user: { id: string; username: string }; role: string };

export type Project = { id: string; organizationId: string; name: string; isPublic: boolean; createdAt: string };

export type RevisionSummary = {
  id: string;
  sequence: number;
  isStart: boolean;
  isHead: boolean;
  isDraft: boolean;
  hasChanges: boolean;
  comment: string;
  createdAt: string;
  committedAt: string | null;
  /** Sources merged into this commit (merge.md §5); empty for ordinary commits and drafts. */
  mergedRevisionIds: string[];
  /** The draft's merges not committed yet. */
  pendingMergeRevisionIds: string[];
};

export type Branch = {
  id: string;
  name: string;
  isRoot: boolean;
  createdAt: string;
  headRevisionId: string;
  draftRevisionId: string;
  touched: boolean;
  parent: { branchName: string; revisionId: string } | null;
  head: RevisionSummary;
  draft: RevisionSummary;
};

export type TableSummary = { id: string; readonly: boolean; count: number; updatedAt: string };

export type Table = TableSummary & { schema: JsonSchema; foreignKeysTo: string[]; foreignKeysBy: string[] };

export type Row = { id: string; readonly: boolean; createdAt: string; updatedAt: string; data: unknown };

export type EndpointType = 'GRAPHQL' | 'REST_API';

export type Endpoint = {
  id: string;
  type: EndpointType;
  mode: 'head' | 'draft' | 'pinned';
  branchName: string;
  revisionId: string;
  path: string;
  openApiPath: string | null;
  docsPath: string | null;
  createdAt: string;
};

export type PermissionRule = { action: string | string[]; subject: string | string[]; inverted?: boolean };

/** A service key's `permissions` (auth.md §8.7); null on personal keys. */
export type ApiKeyPermissions = { rules: PermissionRule[] };

export type ApiKey = {
  id: string;
  name: string;
  prefix: string;
  type: 'personal' | 'service';
  status: 'active' | 'revoked' | 'expired';
  organizationId: string | null;
  projectIds: string[] | null;
  branchNames: string[] | null;
  tableIds: string[] | null;
  readOnly: boolean;
  permissions: ApiKeyPermissions | null;
  expiresAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
};

export type ApiKeyWithSecret = { secret: string; apiKey: ApiKey };

/** A table schema node (domain.md §5): only the keys this app reads are typed. */
export type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  default?: unknown;
  $ref?: string;
  [keyword: string]: unknown;
};
