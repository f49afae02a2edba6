/** Every error code of spec errors.md §2 with its HTTP status (GraphQL `extensions.code` equals the code). */
export const errorCatalogue = {
  BAD_REQUEST: { status: 400, message: 'Bad request' },
  BAD_USER_INPUT: { status: 400, message: 'Invalid input' },
  AMBIGUOUS_CREDENTIALS: { status: 400, message: 'Only one credential may be presented per request' },
  INVALID_USERNAME: {
    status: 400,
    message:
      'Username must be 1 to 64 characters, start with a letter or underscore, not start with two underscores, and contain only letters, digits, hyphens and underscores',
  },
  INVALID_ORGANIZATION_ID: {
    status: 400,
    message:
      'Organization id must be 1 to 64 characters, start with a letter or underscore, not start with two underscores, and contain only letters, digits, hyphens and underscores',
  },
  INVALID_PROJECT_NAME: {
    status: 400,
    message:
      'Project name must be 1 to 64 characters, start with a letter or underscore, not start with two underscores, and contain only letters, digits, hyphens and underscores',
  },
  INVALID_BRANCH_NAME: {
    status: 400,
    message:
      'Branch name must be 1 to 64 characters, start with a letter or underscore, not start with two underscores, and contain only letters, digits, hyphens and underscores',
  },
  INVALID_TABLE_ID: {
    status: 400,
    message: 'Table ID must be 1 to 64 characters, start with a letter or underscore, and contain only letters, digits, hyphens and underscores',
  },
  INVALID_ROW_ID: {
    status: 400,
    message: 'Row ID must be 1 to 64 characters and contain only letters, digits, underscores and hyphens',
  },
  RESERVED_NAME: { status: 400, message: 'This name is reserved and cannot be used' },
  INVALID_PASSWORD: { status: 400, message: 'Password must be 8 to 256 characters' },
  INVALID_SCHEMA: { status: 400, message: 'Invalid table schema' },
  INVALID_PATCH: { status: 400, message: 'Invalid patch' },
  INVALID_DATA: { status: 400, message: 'Row data is invalid' },
  FOREIGN_KEY_NOT_FOUND: { status: 400, message: 'Foreign key target not found' },
  NO_CHANGES: { status: 400, message: 'There are no changes' },
  IMPORT_INVALID: { status: 400, message: 'The import has invalid lines; nothing was imported' },
  REVISION_NOT_DRAFT: { status: 400, message: 'The revision is not a draft' },
  REVISION_IS_DRAFT: { status: 400, message: 'This revision is a draft revision' },
  GRAPHQL_PARSE_FAILED: { status: 400, message: 'GraphQL syntax error' },
  GRAPHQL_VALIDATION_FAILED: { status: 400, message: 'GraphQL document is not valid' },
  QUERY_TOO_COMPLEX: { status: 400, message: 'Query is too complex' },
  UNAUTHENTICATED: { status: 401, message: 'Authentication required' },
  INVALID_CREDENTIALS: { status: 401, message: 'Invalid username or password' },
  TOKEN_INVALID: { status: 401, message: 'Invalid access token' },
  TOKEN_EXPIRED: { status: 401, message: 'Access token has expired' },
  TOKEN_REVOKED: { status: 401, message: 'Access token has been revoked' },
  API_KEY_INVALID: { status: 401, message: 'Invalid API key' },
  API_KEY_REVOKED: { status: 401, message: 'API key has been revoked' },
  API_KEY_EXPIRED: { status: 401, message: 'API key has expired' },
  REFRESH_TOKEN_MISSING: { status: 401, message: 'No refresh token' },
  REFRESH_TOKEN_INVALID: { status: 401, message: 'Invalid refresh token' },
  REFRESH_TOKEN_REUSED: { status: 401, message: 'Refresh token reuse detected' },
  FORBIDDEN: { status: 403, message: 'You are not allowed to perform this action' },
  API_KEY_SCOPE: { status: 403, message: 'API key scope does not allow access to this resource' },
  API_KEY_READ_ONLY: { status: 403, message: 'API key is read-only' },
  CSRF_REJECTED: { status: 403, message: 'Cross-site request rejected' },
  HOST_NOT_ALLOWED: { status: 403, message: 'Host not allowed' },
  ROUTE_NOT_FOUND: { status: 404, message: 'Not found' },
  ENDPOINT_NOT_FOUND: { status: 404, message: 'Endpoint not found' },
  ORGANIZATION_NOT_FOUND: { status: 404, message: 'Organization not found' },
  USER_NOT_FOUND: { status: 404, message: 'User not found' },
  PROJECT_NOT_FOUND: { status: 404, message: 'Project not found' },
  BRANCH_NOT_FOUND: { status: 404, message: 'Branch not found' },
  REVISION_NOT_FOUND: { status: 404, message: 'Revision not found' },
  TABLE_NOT_FOUND: { status: 404, message: 'Table not found in the revision' },
  ROW_NOT_FOUND: { status: 404, message: 'Row not found' },
  API_KEY_NOT_FOUND: { status: 404, message: 'API key not found' },
  PROJECTION_NOT_FOUND: { status: 404, message: 'Projection not found' },
  WEBHOOK_NOT_FOUND: { status: 404, message: 'Webhook not found' },
  OAUTH_GRANT_NOT_FOUND: { status: 404, message: 'OAuth grant not found' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method is not allowed on this route' },
  READ_ONLY_ENDPOINT: { status: 405, message: 'This endpoint is read-only; use the draft endpoint to write' },
  USER_ALREADY_EXISTS: { status: 409, message: 'User already exists' },
  ORGANIZATION_ALREADY_EXISTS: { status: 409, message: 'Organization already exists' },
  PROJECT_ALREADY_EXISTS: { status: 409, message: 'Project already exists' },
  BRANCH_ALREADY_EXISTS: { status: 409, message: 'Branch already exists' },
  TABLE_ALREADY_EXISTS: { status: 409, message: 'A table with this name already exists in the revision' },
  ROW_ALREADY_EXISTS: { status: 409, message: 'Rows already exist' },
  ENDPOINT_ALREADY_EXISTS: { status: 409, message: 'Endpoint already exists' },
  FOREIGN_KEY_IN_USE: { status: 409, message: 'The target is referenced by other rows or tables' },
  BRANCH_HAS_CHILDREN: { status: 409, message: 'Cannot delete branch: it has child branches' },
  CANNOT_DELETE_ROOT_BRANCH: { status: 409, message: 'Cannot delete the root branch' },
  OWNER_REQUIRED: { status: 409, message: 'An organization must keep at least one owner' },
  API_KEY_LIMIT_REACHED: { status: 409, message: 'Maximum number of API keys reached' },
  API_KEY_NOT_ACTIVE: { status: 409, message: 'Cannot rotate a key that is not active' },
  LIMIT_EXCEEDED: { status: 409, message: 'A limit was exceeded' },
  CONCURRENT_MODIFICATION: { status: 409, message: 'The target was modified concurrently; retry the request' },
  UNIQUE_VIOLATION: { status: 409, message: 'Another row already has this value of a unique field' },
  MERGE_CONFLICT: { status: 409, message: 'The merge has unresolved conflicts' },
  REFRESH_IN_PROGRESS: { status: 409, message: 'A refresh of this session is in progress; retry' },
  REBUILD_IN_PROGRESS: { status: 409, message: 'A rebuild of that projection is already running' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Content-Type must be application/json' },
  RATE_LIMITED: { status: 429, message: 'Too many failed login attempts; retry later' },
  INTERNAL_SERVER_ERROR: { status: 500, message: 'Internal server error' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'Service unavailable' },
  QUERY_TIMEOUT: { status: 503, message: 'The query ran longer than QUERY_TIMEOUT_MS allows' },
  CONSISTENCY_TIMEOUT: { status: 503, message: 'Data at the requested position is not available yet' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

export function httpStatusOf(code: ErrorCode): number {
  return errorCatalogue[code].status;
}

export function isErrorCode(value: string): value is ErrorCode {
  return Object.prototype.hasOwnProperty.call(errorCatalogue, value);
}
