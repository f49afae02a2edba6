import { AppError, actions, can, isPlainObject, isValidName, isValidTableId, isoTime, roleHasPermission, subjects } from '../../contracts/index.ts';
import type { Action, ApiKeyType, PermissionRule, Principal, Subject, SystemState } from '../../contracts/index.ts';

/** Limits of operations.md §7 and auth.md §8.3. */
export const API_KEY_NAME_MAX_LENGTH = 255;
export const API_KEY_SCOPE_MAX_ENTRIES = 100;
export const API_KEY_MAX_RULES = 50;
export const API_KEY_EXPIRY_DAYS: Readonly<Record<ApiKeyType, { readonly default: number; readonly max: number }>> = {
  personal: { default: 90, max: 365 },
  service: { default: 365, max: 730 },
};
const DAY_MS = 86_400_000;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;
const RULE_KEYS: readonly string[] = ['action', 'subject', 'inverted'];

function badInput(path: string, message: string): AppError {
  return new AppError('BAD_USER_INPUT', `${path.slice(1).replaceAll('/', '.')} ${message}`, [{ path, message }]);
}

/** 1–255 characters after trimming; returns the trimmed name. */
export function parseKeyName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  const length = [...name].length;
  if (length < 1 || length > API_KEY_NAME_MAX_LENGTH) throw badInput('/name', `must be 1 to ${API_KEY_NAME_MAX_LENGTH} characters`);
  return name;
}

/** Omitted/null -> the default expiry; else a future RFC 3339 time at most the type's maximum ahead. */
export function parseExpiresAt(value: unknown, type: ApiKeyType, nowMs: number): string {
  const days = API_KEY_EXPIRY_DAYS[type];
  if (value === undefined || value === null) return isoTime(nowMs + days.default * DAY_MS);
  const ms = typeof value === 'string' && DATE_TIME.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) throw badInput('/expiresAt', 'must be an ISO 8601 date-time');
  if (ms <= nowMs) throw badInput('/expiresAt', 'must be in the future');
  if (ms > nowMs + days.max * DAY_MS) throw badInput('/expiresAt', `must be at most ${days.max} days ahead`);
  return isoTime(ms);
}

export function parseReadOnly(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw badInput('/readOnly', 'must be a boolean');
  return value;
}

/** Omitted/null = unrestricted; an array of 1–100 entries each passing `valid`. */
function parseScope(value: unknown, field: string, valid: (entry: string) => boolean, rule: string): readonly string[] | null {
  if (value === undefined || value === null) return null;
  const path = `/${field}`;
  if (!Array.isArray(value)) throw badInput(path, 'must be an array or null');
  if (value.length === 0) throw badInput(path, 'must not be empty (omit it or pass null for no restriction)');
  if (value.length > API_KEY_SCOPE_MAX_ENTRIES) throw badInput(path, `must have at most ${API_KEY_SCOPE_MAX_ENTRIES} entries`);
  value.forEach((entry: unknown, index) => {
    if (typeof entry !== 'string' || !valid(entry)) throw badInput(`${path}/${index}`, rule);
  });
  return [...(value as string[])];
}

export type KeyScopeInput = {
  readonly projectIds: readonly string[] | null;
  readonly branchNames: readonly string[] | null;
  readonly tableIds: readonly string[] | null;
};

/** Scope arrays (auth.md §8.3 rule 5); project existence is checked against state by `assertProjectsInReach`. */
export function parseKeyScopes(input: { projectIds?: unknown; branchNames?: unknown; tableIds?: unknown }): KeyScopeInput {
  return {
    projectIds: parseScope(input.projectIds, 'projectIds', (id) => id.length > 0, 'must be a project id'),
    branchNames: parseScope(
      input.branchNames,
      'branchNames',
      (name) => name === '$default' || isValidName(name),
      'must be a branch name or $default',
    ),
    tableIds: parseScope(input.tableIds, 'tableIds', isValidTableId, 'must be a table id'),
  };
}

/** Every project id names a live project the caller can read, inside `organizationId` when given; else 404. */
export function assertProjectsInReach(
  state: SystemState,
  principal: Principal,
  projectIds: readonly string[] | null,
  organizationId: string | null,
): void {
  for (const projectId of projectIds ?? []) {
    const project = state.projects.get(projectId);
    const inReach =
      project !== undefined &&
      !project.deleted &&
      (organizationId === null || project.organizationId === organizationId) &&
      can(state, principal, 'read', 'Project', { organizationId: project.organizationId, projectId });
    if (!inReach) throw new AppError('PROJECT_NOT_FOUND', `Project "${projectId}" not found`);
  }
}

function parseVocabulary<T extends string>(value: unknown, allowed: readonly T[], path: string): T | readonly T[] {
  const isAllowed = (entry: unknown): entry is T => typeof entry === 'string' && (allowed as readonly string[]).includes(entry);
  if (isAllowed(value)) return value;
  if (Array.isArray(value) && value.length > 0 && value.every(isAllowed)) return [...value];
  throw badInput(path, `must be one of ${allowed.join(', ')}, or a non-empty array of them`);
}

/** `{rules}` with 1–50 rules of the domain.md §8.1 vocabulary; `conditions` and `fields` are not supported. */
export function parsePermissionRules(value: unknown): readonly PermissionRule[] {
  if (!isPlainObject(value)) throw badInput('/permissions', 'must be an object {rules}');
  for (const key of Object.keys(value)) if (key !== 'rules') throw badInput(`/permissions/${key}`, 'is not allowed');
  const rules = value.rules;
  if (!Array.isArray(rules) || rules.length < 1 || rules.length > API_KEY_MAX_RULES) {
    throw badInput('/permissions/rules', `must be an array of 1 to ${API_KEY_MAX_RULES} rules`);
  }
  return rules.map((rule: unknown, index): PermissionRule => {
    const path = `/permissions/rules/${index}`;
    if (!isPlainObject(rule)) throw badInput(path, 'must be an object {action, subject, inverted?}');
    for (const key of Object.keys(rule)) {
      if (!RULE_KEYS.includes(key)) throw badInput(`${path}/${key}`, 'is not supported');
    }
    const action = parseVocabulary<Action>(rule.action, actions, `${path}/action`);
    const subject = parseVocabulary<Subject>(rule.subject, subjects, `${path}/subject`);
    if (rule.inverted !== undefined && typeof rule.inverted !== 'boolean') throw badInput(`${path}/inverted`, 'must be a boolean');
    return rule.inverted === undefined ? { action, subject } : { action, subject, inverted: rule.inverted };
  });
}

/**
 * Rules may not grant what the creator lacks in the organization (auth.md §8.7) -> FORBIDDEN. Only permissions some
 * operation checks are compared (those of the organization-owner matrix row): `manage Row` also matches `revert Row`,
 * which no role has and nothing checks.
 */
export function assertRulesWithinCreator(
  state: SystemState,
  creator: Principal,
  organizationId: string,
  grants: (action: Action, subject: Subject) => boolean,
): void {
  for (const action of actions) {
    if (action === 'manage') continue;
    for (const subject of subjects) {
      if (subject === 'all' || !roleHasPermission('organizationOwner', action, subject)) continue;
      if (grants(action, subject) && !can(state, creator, action, subject, { organizationId })) {
        throw new AppError('FORBIDDEN', `Service key rules may not grant ${action} on ${subject}, which you do not have in this organization`);
      }
    }
  }
}
