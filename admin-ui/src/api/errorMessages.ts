import { ApiError } from './apiError.ts';

/** Readable sentences for the error codes of errors.md §2 (the server's message is shown where it says more). */
const MESSAGES: Readonly<Record<string, string>> = {
  BAD_REQUEST: 'The request was malformed.',
  BAD_USER_INPUT: 'Some input is not valid.',
  INVALID_USERNAME: 'That username is not allowed.',
  INVALID_ORGANIZATION_ID: 'That organization id is not allowed.',
  INVALID_PROJECT_NAME: 'Project names are 1 to 64 letters, digits, hyphens or underscores.',
  INVALID_BRANCH_NAME: 'Branch names are 1 to 64 letters, digits, hyphens or underscores.',
  INVALID_TABLE_ID: 'Table ids are 1 to 64 letters, digits, hyphens or underscores and start with a letter or underscore.',
  INVALID_ROW_ID: 'Row ids are 1 to 64 letters, digits, hyphens or underscores.',
  RESERVED_NAME: 'That name is reserved.',
  INVALID_PASSWORD: 'Passwords are 8 to 256 characters long.',
  INVALID_SCHEMA: 'The table schema is not valid.',
  INVALID_PATCH: 'The change could not be applied.',
  INVALID_DATA: 'The data does not match the table schema.',
  FOREIGN_KEY_NOT_FOUND: 'A reference points to a row that does not exist.',
  NO_CHANGES: 'There are no changes in the draft.',
  REVISION_NOT_DRAFT: 'Only the draft revision can be changed.',
  REVISION_IS_DRAFT: 'Branches can only be created from a committed revision.',
  IMPORT_INVALID: 'The file has invalid lines.',
  QUERY_TOO_COMPLEX: 'The request is too large.',
  UNAUTHENTICATED: 'Please sign in.',
  INVALID_CREDENTIALS: 'Wrong username or password.',
  TOKEN_INVALID: 'Your session is not valid. Please sign in again.',
  TOKEN_EXPIRED: 'Your session has expired. Please sign in again.',
  TOKEN_REVOKED: 'Your session has ended. Please sign in again.',
  REFRESH_TOKEN_MISSING: 'Your session has ended. Please sign in again.',
  REFRESH_TOKEN_INVALID: 'Your session has ended. Please sign in again.',
  REFRESH_TOKEN_REUSED: 'Your session was ended for safety. Please sign in again.',
  FORBIDDEN: 'You do not have permission to do this.',
  CSRF_REJECTED: 'The request was rejected as cross-site.',
  ROUTE_NOT_FOUND: 'This feature is not available on the server.',
  ENDPOINT_NOT_FOUND: 'Endpoint not found.',
  ORGANIZATION_NOT_FOUND: 'Organization not found.',
  USER_NOT_FOUND: 'User not found.',
  PROJECT_NOT_FOUND: 'Project not found.',
  BRANCH_NOT_FOUND: 'Branch not found.',
  REVISION_NOT_FOUND: 'Revision not found.',
  TABLE_NOT_FOUND: 'Table not found.',
  ROW_NOT_FOUND: 'Row not found.',
  API_KEY_NOT_FOUND: 'API key not found.',
  USER_ALREADY_EXISTS: 'A user with this name already exists.',
  ORGANIZATION_ALREADY_EXISTS: 'An organization with this id already exists.',
  PROJECT_ALREADY_EXISTS: 'A project with this name already exists.',
  BRANCH_ALREADY_EXISTS: 'A branch with this name already exists.',
  TABLE_ALREADY_EXISTS: 'A table with this id already exists.',
  ROW_ALREADY_EXISTS: 'A row with this id already exists.',
  ENDPOINT_ALREADY_EXISTS: 'This endpoint already exists.',
  FOREIGN_KEY_IN_USE: 'Other rows still refer to this.',
  BRANCH_HAS_CHILDREN: 'Delete the child branches first.',
  CANNOT_DELETE_ROOT_BRANCH: 'The root branch cannot be deleted.',
  OWNER_REQUIRED: 'An organization must keep at least one owner.',
  API_KEY_LIMIT_REACHED: 'The maximum number of active keys is reached. Revoke unused keys first.',
  API_KEY_NOT_ACTIVE: 'Only active keys can be rotated.',
  LIMIT_EXCEEDED: 'A limit was reached.',
  CONCURRENT_MODIFICATION: 'Someone else changed this at the same time. Please retry.',
  UNIQUE_VIOLATION: 'Another row already has this value of a unique field.',
  REFRESH_IN_PROGRESS: 'Your session is being renewed. Please retry.',
  REBUILD_IN_PROGRESS: 'A rebuild of this projection is already running.',
  PROJECTION_NOT_FOUND: 'There is no projection with this name.',
  PAYLOAD_TOO_LARGE: 'The request is too large.',
  MERGE_CONFLICT: 'The merge still has unresolved conflicts; nothing was changed.',
  UNSUPPORTED_MEDIA_TYPE: 'The server does not accept this file type.',
  API_KEY_SCOPE: 'Your key does not reach every table this needs.',
  RATE_LIMITED: 'Too many failed sign-in attempts.',
  INTERNAL_SERVER_ERROR: 'Something went wrong on the server.',
  SERVICE_UNAVAILABLE: 'The server is not available right now. Please retry shortly.',
  QUERY_TIMEOUT: 'The query took too long. Narrow the filter, or ask an owner to index the field.',
  CONSISTENCY_TIMEOUT: 'The server is still catching up. Please retry shortly.',
  NETWORK_ERROR: 'The server could not be reached.',
};

/** Codes whose server message names the exact problem (which row, which path) and is worth showing. */
const SPECIFIC = new Set([
  'BAD_USER_INPUT',
  'INVALID_SCHEMA',
  'INVALID_PATCH',
  'INVALID_DATA',
  'FOREIGN_KEY_NOT_FOUND',
  'FOREIGN_KEY_IN_USE',
  'BRANCH_HAS_CHILDREN',
  'ROW_ALREADY_EXISTS',
  'TABLE_NOT_FOUND',
  'ROW_NOT_FOUND',
  'API_KEY_LIMIT_REACHED',
  'LIMIT_EXCEEDED',
  'UNIQUE_VIOLATION',
  'IMPORT_INVALID',
]);

/** A readable sentence for a failure: never a stack trace or a JSON dump. */
export function errorMessage(err: unknown): string {
  if (!(err instanceof ApiError)) return 'Something went wrong in the browser. Please reload the page.';
  const base = MESSAGES[err.code] ?? 'The request failed.';
  if (err.code === 'RATE_LIMITED') {
    return err.retryAfterSeconds !== null ? `${base} Try again in ${formatWait(err.retryAfterSeconds)}.` : `${base} Try again later.`;
  }
  if (SPECIFIC.has(err.code) && err.message && err.message !== base) return `${base} ${err.message}`;
  return base;
}

export function formatWait(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}
