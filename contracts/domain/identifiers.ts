import { AppError } from '../errors/appError.ts';
import type { ErrorCode } from '../errors/catalogue.ts';

/** Identifier rules of spec domain.md §2. Lookups are exact; uniqueness is checked with `sameIdentifier`. */
export const IDENTIFIER_MAX_LENGTH = 64;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/** Usernames, organization ids, project names and branch names. */
export const NAME_PATTERN = /^(?!__)[A-Za-z_][A-Za-z0-9_-]*$/;
export const TABLE_ID_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]*$/;
export const ROW_ID_PATTERN = /^[A-Za-z0-9_-]+$/;
/** Schema property names are GraphQL-safe: no hyphen. */
export const PROPERTY_NAME_PATTERN = /^(?!__)[A-Za-z_][A-Za-z0-9_]*$/;

/** Reserved usernames and organization ids (compared case-insensitively). */
export const RESERVED_USERNAMES: readonly string[] = [
  'anonymous',
  'api',
  'assets',
  'docs',
  'endpoint',
  'get-token',
  'graphql',
  'health',
  'login',
  'logout',
  'mcp',
  'me',
  'metrics',
  'null',
  'openapi',
  'public',
  'root',
  'static',
  'strata',
  'system',
  'undefined',
];
export const RESERVED_BRANCH_NAMES: readonly string[] = ['head', 'draft'];
/** Table ids starting with this prefix (any case) are reserved for the system. */
export const RESERVED_TABLE_ID_PREFIX = 'strata_';

const reservedUsernames = new Set(RESERVED_USERNAMES);

function matches(value: unknown, pattern: RegExp): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= IDENTIFIER_MAX_LENGTH && pattern.test(value);
}

export function isValidName(value: unknown): value is string {
  return matches(value, NAME_PATTERN);
}

export function isValidTableId(value: unknown): value is string {
  return matches(value, TABLE_ID_PATTERN);
}

export function isValidRowId(value: unknown): value is string {
  return matches(value, ROW_ID_PATTERN);
}

export function isValidPropertyName(value: unknown): value is string {
  return matches(value, PROPERTY_NAME_PATTERN);
}

/** True for reserved usernames and organization ids, in any case. */
export function isReservedUsername(name: string): boolean {
  return reservedUsernames.has(name.toLowerCase());
}

export function isReservedBranchName(name: string): boolean {
  return RESERVED_BRANCH_NAMES.includes(name.toLowerCase());
}

export function isReservedTableId(tableId: string): boolean {
  return tableId.toLowerCase().startsWith(RESERVED_TABLE_ID_PREFIX);
}

/** Case-insensitive equality used for uniqueness checks (lookups stay exact). */
export function sameIdentifier(a: string, b: string): boolean {
  return a === b || a.toLowerCase() === b.toLowerCase();
}

function fail(code: ErrorCode): never {
  throw new AppError(code);
}

function reserved(what: string): never {
  throw new AppError('RESERVED_NAME', `This ${what} is reserved and cannot be used`);
}

export function assertUsername(value: unknown): asserts value is string {
  if (!isValidName(value)) fail('INVALID_USERNAME');
  if (isReservedUsername(value)) reserved('username');
}

export function assertOrganizationId(value: unknown): asserts value is string {
  if (!isValidName(value)) fail('INVALID_ORGANIZATION_ID');
  if (isReservedUsername(value)) reserved('organization id');
}

export function assertProjectName(value: unknown): asserts value is string {
  if (!isValidName(value)) fail('INVALID_PROJECT_NAME');
}

/** `$default` is only an alias in requests and fails here (the `$` character is not allowed). */
export function assertBranchName(value: unknown): asserts value is string {
  if (!isValidName(value)) fail('INVALID_BRANCH_NAME');
  if (isReservedBranchName(value)) reserved('branch name');
}

export function assertTableId(value: unknown): asserts value is string {
  if (!isValidTableId(value)) fail('INVALID_TABLE_ID');
  if (isReservedTableId(value)) reserved('table ID');
}

export function assertRowId(value: unknown): asserts value is string {
  if (!isValidRowId(value)) fail('INVALID_ROW_ID');
}

/** Length in characters (code points), any characters allowed. */
export function assertPassword(value: unknown): asserts value is string {
  if (typeof value !== 'string') fail('INVALID_PASSWORD');
  // Cheap bound first so a huge string is not split into code points.
  if (value.length > PASSWORD_MAX_LENGTH * 2) fail('INVALID_PASSWORD');
  const length = [...value].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) fail('INVALID_PASSWORD');
}
