import type { OrganizationRole, ProjectRole } from '../events/domainEvents.ts';
import type { SystemState } from '../state/systemState.ts';
import type { PermissionRule, Principal } from './principal.ts';

/** Vocabulary of domain.md §8.1. */
export const actions = ['read', 'create', 'update', 'delete', 'revert', 'add', 'manage'] as const;
export const subjects = ['Organization', 'Project', 'Branch', 'Revision', 'Table', 'Row', 'Endpoint', 'User', 'Webhook', 'all'] as const;
export type Action = (typeof actions)[number];
export type Subject = (typeof subjects)[number];

/** What a permission check is about: an organization, optionally one of its projects. */
export type PermissionTarget = { readonly organizationId: string; readonly projectId?: string | null };

type Grant = Readonly<Partial<Record<Exclude<Subject, 'all'>, readonly Action[]>>>;

const readAll: Grant = {
  Organization: ['read'],
  Project: ['read'],
  Branch: ['read'],
  Revision: ['read'],
  Table: ['read'],
  Row: ['read'],
  Endpoint: ['read'],
  User: ['read'],
};
const crud = ['read', 'create', 'update', 'delete'] as const;

/** Owners and admins hold the same grants; the owner-only rules are checked by the decider. */
const managerGrants: Grant = {
  ...readAll,
  Webhook: crud,
  Project: crud,
  User: ['read', 'add', 'update', 'delete'],
  Branch: ['read', 'create', 'delete'],
  Revision: ['read', 'create', 'revert'],
  Table: crud,
  Row: crud,
  Endpoint: ['read', 'create', 'delete'],
};

/** The matrix of domain.md §8.2. */
const roleGrants: Readonly<Record<OrganizationRole, Grant>> = {
  organizationOwner: managerGrants,
  organizationAdmin: managerGrants,
  developer: {
    ...readAll,
    Branch: ['read', 'create', 'delete'],
    Revision: ['read', 'create', 'revert'],
    Table: crud,
    Row: crud,
    Endpoint: ['read', 'create', 'delete'],
  },
  editor: { ...readAll, Revision: ['read', 'create', 'revert'], Row: crud },
  reader: readAll,
};

const publicReadSubjects: ReadonlySet<Subject> = new Set(['Project', 'Branch', 'Revision', 'Table', 'Row', 'Endpoint']);

export function roleHasPermission(role: OrganizationRole | ProjectRole, action: Action, subject: Subject): boolean {
  const grant = roleGrants[role];
  if (subject === 'all') return false;
  const granted = grant[subject];
  return granted !== undefined && (granted.includes(action) || granted.includes('manage'));
}

/** Whether the service-key rules grant (action, subject): the last matching rule decides (auth.md §8.7). */
export function rulesGrant(rules: readonly PermissionRule[], action: Action, subject: Subject): boolean {
  let granted = false;
  for (const rule of rules) {
    const ruleActions = typeof rule.action === 'string' ? [rule.action] : rule.action;
    const ruleSubjects = typeof rule.subject === 'string' ? [rule.subject] : rule.subject;
    const actionMatches = ruleActions.includes('manage') || ruleActions.includes(action);
    const subjectMatches = ruleSubjects.includes('all') || ruleSubjects.includes(subject);
    if (actionMatches && subjectMatches) granted = rule.inverted !== true;
  }
  return granted;
}

/** The caller's organization role, or null. */
export function organizationRoleOf(state: SystemState, userId: string, organizationId: string): OrganizationRole | null {
  return state.organizations.get(organizationId)?.members.get(userId) ?? null;
}

/**
 * Whether a user holds (action, subject) on the target through their system, organization or project role
 * (union of roles, domain.md §8.2). Public visibility and key scopes are not considered here.
 */
export function userRoleGrants(state: SystemState, userId: string, action: Action, subject: Subject, target: PermissionTarget): boolean {
  const user = state.users.get(userId);
  if (!user || !user.isActive) return false;
  if (user.role === 'systemAdmin') return true;
  const orgRole = organizationRoleOf(state, userId, target.organizationId);
  if (orgRole && roleHasPermission(orgRole, action, subject)) return true;
  if (target.projectId) {
    const projectRole = state.projects.get(target.projectId)?.members.get(userId);
    if (projectRole && roleHasPermission(projectRole, action, subject)) return true;
  }
  return false;
}

/**
 * Whether the principal may perform (action, subject) on the target, including guest reads of public projects
 * (`read Organization` for everyone). Key scopes and `readOnly` are checked separately (authorize.ts).
 */
export function can(state: SystemState, principal: Principal, action: Action, subject: Subject, target: PermissionTarget): boolean {
  if (action === 'read' && subject === 'Organization') return true;
  if (action === 'read' && publicReadSubjects.has(subject) && target.projectId) {
    const project = state.projects.get(target.projectId);
    if (project?.isPublic) return true;
  }
  switch (principal.kind) {
    case 'anonymous':
      return false;
    case 'user':
      return userRoleGrants(state, principal.userId, action, subject, target);
    case 'service':
      return principal.organizationId === target.organizationId && rulesGrant(principal.rules, action, subject);
    default: {
      const never: never = principal;
      return never;
    }
  }
}
