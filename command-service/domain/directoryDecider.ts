import {
  AppError,
  assertCanWrite,
  assertNewOrganizationInScope,
  assertOrganizationId,
  assertSystemAdmin,
  assertUsername,
  createSystemState,
  evolveSystemState,
} from '../../contracts/index.ts';
import type { DomainEvent, OrganizationRecord, OrganizationRole, Principal, ProjectRole, SystemRole, SystemState } from '../../contracts/index.ts';
import { assertMayWrite, requireOrganization, requireProject, requireUser } from './resolveTargets.ts';

/**
 * Decides writes of the `directory` stream: users, organizations and memberships. Passwords arrive hashed (the
 * handler validates and hashes them: hashing is slow and impure) and new ids arrive in the command.
 */
type Meta = { readonly principal: Principal };
type Command<T extends string, D> = { readonly type: T; readonly data: D; readonly metadata: Meta };

export type DirectoryCommand =
  | Command<'CreateUser', { userId: string; username: string; email: string | null; role: SystemRole; passwordHash: string }>
  | Command<'DeactivateUser', { userId: string }>
  | Command<'ReactivateUser', { userId: string }>
  | Command<'SetUserRole', { userId: string; role: SystemRole }>
  | Command<'ResetPassword', { userId: string; passwordHash: string }>
  /** `verifiedPasswordHash`: the hash the old password was checked against; a concurrent change invalidates it. */
  | Command<'UpdatePassword', { passwordHash: string; verifiedPasswordHash: string }>
  | Command<'CreateOrganization', { organizationId: string; ownerId: string | null }>
  | Command<'AddUserToOrganization', { organizationId: string; userId: string; role: OrganizationRole }>
  | Command<'RemoveUserFromOrganization', { organizationId: string; userId: string }>
  | Command<'AddUserToProject', { organizationId: string; projectName: string; userId: string; role: ProjectRole }>
  | Command<'RemoveUserFromProject', { organizationId: string; projectName: string; userId: string }>;

const systemRoles: readonly string[] = ['systemAdmin', 'systemUser'];
const organizationRoles: readonly string[] = ['organizationOwner', 'organizationAdmin', 'developer', 'editor', 'reader'];
const projectRoles: readonly string[] = ['developer', 'editor', 'reader'];
const OWNER: OrganizationRole = 'organizationOwner';

function assertRole(role: string, allowed: readonly string[]): void {
  if (!allowed.includes(role)) {
    throw new AppError('BAD_USER_INPUT', `Invalid role: ${role}`, [{ path: '/role', message: `must be one of ${allowed.join(', ')}` }]);
  }
}

function isSelf(principal: Principal, userId: string): boolean {
  return principal.kind === 'user' && principal.userId === userId;
}

/** Only an organizationOwner (or systemAdmin) user may grant, change or remove the owner role (domain.md §8.2). */
function assertMayManageOwners(state: SystemState, principal: Principal, organization: OrganizationRecord): void {
  if (principal.kind === 'user') {
    if (state.users.get(principal.userId)?.role === 'systemAdmin') return;
    if (organization.members.get(principal.userId) === OWNER) return;
  }
  throw new AppError('FORBIDDEN', 'Only an organization owner can grant, change or remove the owner role');
}

/** The owner invariants of domain.md §1, for an owner about to lose the role. */
function assertOwnerMayLeave(state: SystemState, organization: OrganizationRecord, userId: string): void {
  const personalOwner = organization.isPersonal && state.namespace.get(organization.id.toLowerCase())?.id === userId;
  if (personalOwner) throw new AppError('OWNER_REQUIRED', 'The owner of a personal organization cannot be removed or demoted');
  const owners = [...organization.members.values()].filter((role) => role === OWNER).length;
  if (owners <= 1) throw new AppError('OWNER_REQUIRED');
}

/** Own password changes need the user themself: no API key (errors.md FORBIDDEN), no anonymous caller. */
export function assertPasswordOwner(principal: Principal): asserts principal is Extract<Principal, { kind: 'user' }> {
  if (principal.kind === 'anonymous') throw new AppError('UNAUTHENTICATED');
  if (principal.kind !== 'user' || principal.key !== null) {
    throw new AppError('FORBIDDEN', 'Passwords can only be changed by the user, not with an API key');
  }
}

function decideCreateUser(command: Extract<DirectoryCommand, { type: 'CreateUser' }>, state: SystemState): DomainEvent[] {
  const { principal } = command.metadata;
  const d = command.data;
  assertMayWrite(principal);
  assertSystemAdmin(state, principal);
  assertUsername(d.username);
  assertRole(d.role, systemRoles);
  if (state.namespace.has(d.username.toLowerCase())) throw new AppError('USER_ALREADY_EXISTS');
  return [
    { type: 'UserCreated', data: { userId: d.userId, username: d.username, email: d.email, role: d.role, passwordHash: d.passwordHash } },
    { type: 'OrganizationCreated', data: { organizationId: d.username, isPersonal: true } },
    { type: 'OrganizationMemberSet', data: { organizationId: d.username, userId: d.userId, username: d.username, role: OWNER } },
  ];
}

function decideUserState(
  command: Extract<DirectoryCommand, { type: 'DeactivateUser' | 'ReactivateUser' | 'ResetPassword' }>,
  state: SystemState,
): DomainEvent[] {
  const { principal } = command.metadata;
  assertMayWrite(principal);
  assertSystemAdmin(state, principal);
  const user = requireUser(state, command.data.userId);
  switch (command.type) {
    case 'DeactivateUser':
      if (isSelf(principal, user.id)) throw new AppError('BAD_USER_INPUT', 'You cannot deactivate yourself');
      return user.isActive ? [{ type: 'UserDeactivated', data: { userId: user.id } }] : [];
    case 'ReactivateUser':
      return user.isActive ? [] : [{ type: 'UserReactivated', data: { userId: user.id } }];
    case 'ResetPassword':
      return [{ type: 'UserPasswordChanged', data: { userId: user.id, passwordHash: command.data.passwordHash, reason: 'reset' } }];
    default: {
      const never: never = command;
      return never;
    }
  }
}

/**
 * A systemAdmin changes a user's system role. Changing one's own role is refused, so the last administrator cannot
 * lock everyone out by accident; roles are read from the state on every request, so the change applies to the next one.
 */
function decideSetUserRole(command: Extract<DirectoryCommand, { type: 'SetUserRole' }>, state: SystemState): DomainEvent[] {
  const { principal } = command.metadata;
  assertMayWrite(principal);
  assertSystemAdmin(state, principal);
  assertRole(command.data.role, systemRoles);
  const user = requireUser(state, command.data.userId);
  if (isSelf(principal, user.id)) throw new AppError('BAD_USER_INPUT', 'You cannot change your own system role');
  return user.role === command.data.role ? [] : [{ type: 'UserRoleChanged', data: { userId: user.id, role: command.data.role } }];
}

function decideUpdatePassword(command: Extract<DirectoryCommand, { type: 'UpdatePassword' }>, state: SystemState): DomainEvent[] {
  const { principal } = command.metadata;
  assertPasswordOwner(principal);
  const user = requireUser(state, principal.userId);
  if (user.passwordHash !== command.data.verifiedPasswordHash) throw new AppError('BAD_USER_INPUT', 'Old password is incorrect');
  return [{ type: 'UserPasswordChanged', data: { userId: user.id, passwordHash: command.data.passwordHash, reason: 'self' } }];
}

function decideCreateOrganization(command: Extract<DirectoryCommand, { type: 'CreateOrganization' }>, state: SystemState): DomainEvent[] {
  const { principal } = command.metadata;
  const { organizationId } = command.data;
  // A scoped key cannot create an organization outside its scope (auth.md §8.5, compared as strings first).
  assertNewOrganizationInScope(principal, organizationId);
  assertMayWrite(principal);
  assertSystemAdmin(state, principal);
  assertOrganizationId(organizationId);
  const owner = requireUser(state, command.data.ownerId ?? (principal.kind === 'user' ? principal.userId : ''));
  if (state.namespace.has(organizationId.toLowerCase())) {
    throw new AppError('ORGANIZATION_ALREADY_EXISTS', `Organization with id ${organizationId} already exists`);
  }
  return [
    { type: 'OrganizationCreated', data: { organizationId, isPersonal: false } },
    { type: 'OrganizationMemberSet', data: { organizationId, userId: owner.id, username: owner.username, role: OWNER } },
  ];
}

function decideOrganizationMember(
  command: Extract<DirectoryCommand, { type: 'AddUserToOrganization' | 'RemoveUserFromOrganization' }>,
  state: SystemState,
): DomainEvent[] {
  const { principal } = command.metadata;
  const { organizationId, userId } = command.data;
  const organization = requireOrganization(state, principal, organizationId);
  const currentRole = organization.members.get(userId) ?? null;
  const target = { organizationId };
  if (command.type === 'AddUserToOrganization') {
    assertCanWrite(state, principal, currentRole ? 'update' : 'add', 'User', target);
    assertRole(command.data.role, organizationRoles);
    const user = requireUser(state, userId);
    const { role } = command.data;
    if (role === OWNER || currentRole === OWNER) assertMayManageOwners(state, principal, organization);
    if (currentRole === role) return [];
    if (currentRole === OWNER) assertOwnerMayLeave(state, organization, userId);
    return [{ type: 'OrganizationMemberSet', data: { organizationId, userId, username: user.username, role } }];
  }
  // Any member may leave; removing someone else needs `delete User`.
  if (isSelf(principal, userId)) assertMayWrite(principal);
  else assertCanWrite(state, principal, 'delete', 'User', target);
  requireUser(state, userId);
  if (currentRole === null) return [];
  if (currentRole === OWNER) {
    if (!isSelf(principal, userId)) assertMayManageOwners(state, principal, organization);
    assertOwnerMayLeave(state, organization, userId);
  }
  return [{ type: 'OrganizationMemberRemoved', data: { organizationId, userId } }];
}

function decideProjectMember(
  command: Extract<DirectoryCommand, { type: 'AddUserToProject' | 'RemoveUserFromProject' }>,
  state: SystemState,
): DomainEvent[] {
  const { principal } = command.metadata;
  const { organizationId, projectName, userId } = command.data;
  const project = requireProject(state, principal, organizationId, projectName);
  const currentRole = project.members.get(userId) ?? null;
  const target = { organizationId, projectId: project.id };
  if (command.type === 'AddUserToProject') {
    assertCanWrite(state, principal, currentRole ? 'update' : 'add', 'User', target);
    assertRole(command.data.role, projectRoles);
    const user = requireUser(state, userId);
    if (currentRole === command.data.role) return [];
    const data = { organizationId, projectId: project.id, userId, username: user.username, role: command.data.role };
    return [{ type: 'ProjectMemberSet', data }];
  }
  if (isSelf(principal, userId)) assertMayWrite(principal);
  else assertCanWrite(state, principal, 'delete', 'User', target);
  requireUser(state, userId);
  if (currentRole === null) return [];
  return [{ type: 'ProjectMemberRemoved', data: { organizationId, projectId: project.id, userId } }];
}

function decide(command: DirectoryCommand, state: SystemState): DomainEvent[] {
  switch (command.type) {
    case 'CreateUser':
      return decideCreateUser(command, state);
    case 'DeactivateUser':
    case 'ReactivateUser':
    case 'ResetPassword':
      return decideUserState(command, state);
    case 'SetUserRole':
      return decideSetUserRole(command, state);
    case 'UpdatePassword':
      return decideUpdatePassword(command, state);
    case 'CreateOrganization':
      return decideCreateOrganization(command, state);
    case 'AddUserToOrganization':
    case 'RemoveUserFromOrganization':
      return decideOrganizationMember(command, state);
    case 'AddUserToProject':
    case 'RemoveUserFromProject':
      return decideProjectMember(command, state);
    default: {
      const never: never = command;
      return never;
    }
  }
}

/** Emmett-shaped decider over the system state (evolve = the shared fold of contracts/state). */
export const directoryDecider = { decide, evolve: evolveSystemState, initialState: createSystemState };
