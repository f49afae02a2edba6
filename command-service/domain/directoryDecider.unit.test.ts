import { describe, test } from 'node:test';
import type { Principal } from '../../contracts/index.ts';
import { directoryDecider } from './directoryDecider.ts';
import type { DirectoryCommand } from './directoryDecider.ts';
import { deciderSpec } from '../testing/systemDeciderSpec.ts';
import { admin, alice, anonymous, bob, carol, memberSet, userPrincipal, world } from '../testing/systemFixtures.ts';

const given = deciderSpec(directoryDecider.decide);

type Data<T extends DirectoryCommand['type']> = Extract<DirectoryCommand, { type: T }>['data'];
function cmd<T extends DirectoryCommand['type']>(type: T, data: Data<T>, principal: Principal): DirectoryCommand {
  return { type, data, metadata: { principal } } as DirectoryCommand;
}

describe('directoryDecider CreateUser', () => {
  const newUser = (username: string, principal: Principal = admin) =>
    cmd('CreateUser', { userId: 'u-new', username, email: 'd@x.io', role: 'systemUser', passwordHash: 'h' }, principal);

  test('creates the user, the personal organization and the owner membership', () => {
    given(world)
      .when(newUser('dave'))
      .then([
        { type: 'UserCreated', data: { userId: 'u-new', username: 'dave', email: 'd@x.io', role: 'systemUser', passwordHash: 'h' } },
        { type: 'OrganizationCreated', data: { organizationId: 'dave', isPersonal: true } },
        memberSet('dave', 'u-new', 'dave', 'organizationOwner'),
      ]);
  });
  test('only a systemAdmin may create users', () => {
    given(world).when(newUser('dave', alice)).thenThrows('FORBIDDEN');
    given(world).when(newUser('dave', anonymous)).thenThrows('UNAUTHENTICATED');
    given(world)
      .when(newUser('dave', userPrincipal('u-admin', 'admin', { readOnly: true })))
      .thenThrows('API_KEY_READ_ONLY');
  });
  test('identifier rules and reserved names', () => {
    given(world).when(newUser('__x')).thenThrows('INVALID_USERNAME');
    given(world).when(newUser('9lives')).thenThrows('INVALID_USERNAME');
    given(world).when(newUser('GraphQL')).thenThrows('RESERVED_NAME');
  });
  test('usernames share one case-insensitive namespace with organization ids', () => {
    given(world).when(newUser('ALICE')).thenThrows('USER_ALREADY_EXISTS');
    given(world).when(newUser('Acme')).thenThrows('USER_ALREADY_EXISTS');
  });
});

describe('directoryDecider user state', () => {
  test('deactivate, reactivate and their no-ops', () => {
    given(world)
      .when(cmd('DeactivateUser', { userId: 'u-bob' }, admin))
      .then([{ type: 'UserDeactivated', data: { userId: 'u-bob' } }]);
    const deactivated = [...world, { type: 'UserDeactivated' as const, data: { userId: 'u-bob' } }];
    given(deactivated)
      .when(cmd('DeactivateUser', { userId: 'u-bob' }, admin))
      .then([]);
    given(deactivated)
      .when(cmd('ReactivateUser', { userId: 'u-bob' }, admin))
      .then([{ type: 'UserReactivated', data: { userId: 'u-bob' } }]);
    given(world)
      .when(cmd('ReactivateUser', { userId: 'u-bob' }, admin))
      .then([]);
  });
  test('refusals', () => {
    given(world)
      .when(cmd('DeactivateUser', { userId: 'u-admin' }, admin))
      .thenThrows('BAD_USER_INPUT', /yourself/);
    given(world)
      .when(cmd('DeactivateUser', { userId: 'nope' }, admin))
      .thenThrows('USER_NOT_FOUND');
    given(world)
      .when(cmd('DeactivateUser', { userId: 'u-bob' }, alice))
      .thenThrows('FORBIDDEN');
    given(world)
      .when(cmd('ResetPassword', { userId: 'u-bob', passwordHash: 'h2' }, bob))
      .thenThrows('FORBIDDEN');
  });
  test('set the system role: a change, its no-op, and refusals (own role, non-admins, unknown users and roles)', () => {
    given(world)
      .when(cmd('SetUserRole', { userId: 'u-bob', role: 'systemAdmin' }, admin))
      .then([{ type: 'UserRoleChanged', data: { userId: 'u-bob', role: 'systemAdmin' } }]);
    given(world)
      .when(cmd('SetUserRole', { userId: 'u-bob', role: 'systemUser' }, admin))
      .then([]);
    const promoted = [...world, { type: 'UserRoleChanged' as const, data: { userId: 'u-bob', role: 'systemAdmin' as const } }];
    // The promoted user acts as an administrator at once: the state, not a token, holds the role.
    given(promoted)
      .when(cmd('SetUserRole', { userId: 'u-alice', role: 'systemAdmin' }, bob))
      .then([{ type: 'UserRoleChanged', data: { userId: 'u-alice', role: 'systemAdmin' } }]);
    given(promoted)
      .when(cmd('SetUserRole', { userId: 'u-bob', role: 'systemUser' }, admin))
      .then([{ type: 'UserRoleChanged', data: { userId: 'u-bob', role: 'systemUser' } }]);
    given(world)
      .when(cmd('SetUserRole', { userId: 'u-admin', role: 'systemUser' }, admin))
      .thenThrows('BAD_USER_INPUT', /own system role/);
    given(world)
      .when(cmd('SetUserRole', { userId: 'u-bob', role: 'systemAdmin' }, alice))
      .thenThrows('FORBIDDEN');
    given(world)
      .when(cmd('SetUserRole', { userId: 'u-bob', role: 'systemAdmin' }, anonymous))
      .thenThrows('UNAUTHENTICATED');
    given(world)
      .when(cmd('SetUserRole', { userId: 'u-bob', role: 'systemAdmin' }, userPrincipal('u-admin', 'admin', { readOnly: true })))
      .thenThrows('API_KEY_READ_ONLY');
    given(world)
      .when(cmd('SetUserRole', { userId: 'nope', role: 'systemAdmin' }, admin))
      .thenThrows('USER_NOT_FOUND');
    given(world)
      .when(cmd('SetUserRole', { userId: 'u-bob', role: 'root' as never }, admin))
      .thenThrows('BAD_USER_INPUT');
  });
  test('reset and own password change', () => {
    given(world)
      .when(cmd('ResetPassword', { userId: 'u-bob', passwordHash: 'h2' }, admin))
      .then([{ type: 'UserPasswordChanged', data: { userId: 'u-bob', passwordHash: 'h2', reason: 'reset' } }]);
    given(world)
      .when(cmd('UpdatePassword', { passwordHash: 'h2', verifiedPasswordHash: 'hash-u-bob' }, bob))
      .then([{ type: 'UserPasswordChanged', data: { userId: 'u-bob', passwordHash: 'h2', reason: 'self' } }]);
  });
  test('own password change: no keys, no anonymous, and a concurrent change invalidates the old password', () => {
    const update = (principal: Principal, verified = 'hash-u-bob') =>
      cmd('UpdatePassword', { passwordHash: 'h2', verifiedPasswordHash: verified }, principal);
    given(world)
      .when(update(userPrincipal('u-bob', 'bob', {})))
      .thenThrows('FORBIDDEN');
    given(world).when(update(anonymous)).thenThrows('UNAUTHENTICATED');
    given(world).when(update(bob, 'an-older-hash')).thenThrows('BAD_USER_INPUT');
  });
});

describe('directoryDecider CreateOrganization', () => {
  const create = (organizationId: string, ownerId: string | null = null, principal: Principal = admin) =>
    cmd('CreateOrganization', { organizationId, ownerId }, principal);

  test('the creator owns it unless ownerId names another user', () => {
    given(world)
      .when(create('globex'))
      .then([
        { type: 'OrganizationCreated', data: { organizationId: 'globex', isPersonal: false } },
        memberSet('globex', 'u-admin', 'admin', 'organizationOwner'),
      ]);
    given(world)
      .when(create('globex', 'u-carol'))
      .then([
        { type: 'OrganizationCreated', data: { organizationId: 'globex', isPersonal: false } },
        memberSet('globex', 'u-carol', 'carol', 'organizationOwner'),
      ]);
  });
  test('refusals', () => {
    given(world)
      .when(create('globex', null, alice))
      .thenThrows('FORBIDDEN');
    given(world).when(create('-x')).thenThrows('INVALID_ORGANIZATION_ID');
    given(world).when(create('Metrics')).thenThrows('RESERVED_NAME');
    given(world).when(create('globex', 'nobody')).thenThrows('USER_NOT_FOUND');
    given(world).when(create('ACME')).thenThrows('ORGANIZATION_ALREADY_EXISTS');
    given(world).when(create('Carol')).thenThrows('ORGANIZATION_ALREADY_EXISTS');
  });
});

describe('directoryDecider organization members', () => {
  const add = (userId: string, role: 'organizationOwner' | 'organizationAdmin' | 'developer' | 'reader', principal: Principal, org = 'acme') =>
    cmd('AddUserToOrganization', { organizationId: org, userId, role }, principal);
  const remove = (userId: string, principal: Principal, org = 'acme') =>
    cmd('RemoveUserFromOrganization', { organizationId: org, userId }, principal);

  test('owners and admins add and change members; same role is a no-op', () => {
    given(world)
      .when(add('u-carol', 'developer', alice))
      .then([memberSet('acme', 'u-carol', 'carol', 'developer')]);
    given(world)
      .when(add('u-carol', 'reader', bob))
      .then([memberSet('acme', 'u-carol', 'carol', 'reader')]);
    given(world)
      .when(add('u-bob', 'organizationAdmin', alice))
      .then([]);
  });
  test('only owners (or systemAdmin) grant, change or remove the owner role', () => {
    given(world)
      .when(add('u-carol', 'organizationOwner', bob))
      .thenThrows('FORBIDDEN');
    given(world)
      .when(add('u-alice', 'developer', bob))
      .thenThrows('FORBIDDEN');
    given(world).when(remove('u-alice', bob)).thenThrows('FORBIDDEN');
    given(world)
      .when(add('u-carol', 'organizationOwner', admin))
      .then([memberSet('acme', 'u-carol', 'carol', 'organizationOwner')]);
  });
  test('an organization keeps at least one owner', () => {
    given(world)
      .when(add('u-alice', 'developer', alice))
      .thenThrows('OWNER_REQUIRED');
    given(world).when(remove('u-alice', alice)).thenThrows('OWNER_REQUIRED');
    const twoOwners = [...world, memberSet('acme', 'u-carol', 'carol', 'organizationOwner')];
    given(twoOwners)
      .when(add('u-alice', 'developer', carol))
      .then([memberSet('acme', 'u-alice', 'alice', 'developer')]);
    given(twoOwners)
      .when(remove('u-alice', alice))
      .then([{ type: 'OrganizationMemberRemoved', data: { organizationId: 'acme', userId: 'u-alice' } }]);
  });
  test("a personal organization's owner is never removed or demoted", () => {
    const withSecondOwner = [...world, memberSet('alice', 'u-carol', 'carol', 'organizationOwner')];
    given(withSecondOwner)
      .when(add('u-alice', 'reader', carol, 'alice'))
      .thenThrows('OWNER_REQUIRED', /personal/);
    given(withSecondOwner)
      .when(remove('u-alice', admin, 'alice'))
      .thenThrows('OWNER_REQUIRED');
  });
  test('members may remove themselves; others need delete User', () => {
    const removed = [{ type: 'OrganizationMemberRemoved' as const, data: { organizationId: 'acme', userId: 'u-bob' } }];
    given(world).when(remove('u-bob', bob)).then(removed);
    given(world).when(remove('u-bob', alice)).then(removed);
    given(world).when(remove('u-bob', carol)).thenThrows('FORBIDDEN');
    given(world).when(remove('u-carol', alice)).then([]);
  });
  test('resolution order: scope, organization, permission, user', () => {
    const scoped = userPrincipal('u-alice', 'alice', { organizationId: 'other' });
    given(world)
      .when(add('u-carol', 'reader', scoped, 'nope'))
      .thenThrows('API_KEY_SCOPE');
    given(world)
      .when(add('u-carol', 'reader', alice, 'nope'))
      .thenThrows('ORGANIZATION_NOT_FOUND');
    given(world)
      .when(add('u-carol', 'reader', anonymous))
      .thenThrows('UNAUTHENTICATED');
    given(world)
      .when(add('u-nobody', 'reader', carol))
      .thenThrows('FORBIDDEN');
    given(world)
      .when(add('u-nobody', 'reader', alice))
      .thenThrows('USER_NOT_FOUND');
  });
});

describe('directoryDecider project members', () => {
  const add = (userId: string, role: 'developer' | 'editor' | 'reader', principal: Principal, projectName = 'blog') =>
    cmd('AddUserToProject', { organizationId: 'acme', projectName, userId, role }, principal);
  const projectMember = (role: 'developer' | 'editor' | 'reader') => ({
    type: 'ProjectMemberSet' as const,
    data: { organizationId: 'acme', projectId: 'p1', userId: 'u-carol', username: 'carol', role },
  });

  test('adds, changes and removes project roles', () => {
    given(world)
      .when(add('u-carol', 'editor', bob))
      .then([projectMember('editor')]);
    given([...world, projectMember('editor')])
      .when(add('u-carol', 'editor', alice))
      .then([]);
    given([...world, projectMember('editor')])
      .when(cmd('RemoveUserFromProject', { organizationId: 'acme', projectName: 'blog', userId: 'u-carol' }, carol))
      .then([{ type: 'ProjectMemberRemoved', data: { organizationId: 'acme', projectId: 'p1', userId: 'u-carol' } }]);
  });
  test('refusals', () => {
    given(world)
      .when(add('u-carol', 'editor', alice, 'nope'))
      .thenThrows('PROJECT_NOT_FOUND');
    given([...world, { type: 'ProjectDeleted', data: { projectId: 'p1' } }])
      .when(add('u-carol', 'editor', alice))
      .thenThrows('PROJECT_NOT_FOUND');
    given(world)
      .when(add('u-carol', 'editor', carol))
      .thenThrows('FORBIDDEN');
    given([...world, projectMember('developer')])
      .when(cmd('RemoveUserFromProject', { organizationId: 'acme', projectName: 'blog', userId: 'u-bob' }, carol))
      .thenThrows('FORBIDDEN');
    given(world)
      .when(cmd('AddUserToProject', { organizationId: 'acme', projectName: 'blog', userId: 'u-carol', role: 'organizationOwner' as 'reader' }, alice))
      .thenThrows('BAD_USER_INPUT');
  });
});
