import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldsEqual } from '../../contracts/index.ts';
import { directoryProjector } from './directoryProjector.ts';
import { createTestLog, dumpViews, openProjectedViews } from '../testing/projectorTestKit.ts';

const DIR = 'directory';

test('directory keeps users, organizations and memberships', async (t) => {
  const log = createTestLog();
  const alice = log.add(DIR, 'UserCreated', { userId: 'u1', username: 'Alice', email: null, role: 'systemUser', passwordHash: 'h' });
  log.add(DIR, 'OrganizationCreated', { organizationId: 'Alice', isPersonal: true });
  log.add(DIR, 'OrganizationMemberSet', { organizationId: 'Alice', userId: 'u1', username: 'Alice', role: 'organizationOwner' });
  log.add(DIR, 'UserCreated', { userId: 'u2', username: 'bob', email: 'b@x.io', role: 'systemAdmin', passwordHash: 'h' });
  log.add(DIR, 'OrganizationCreated', { organizationId: 'acme', isPersonal: false });
  log.add(DIR, 'OrganizationMemberSet', { organizationId: 'acme', userId: 'u1', username: 'Alice', role: 'organizationOwner' });
  log.add(DIR, 'OrganizationMemberSet', { organizationId: 'acme', userId: 'u2', username: 'bob', role: 'reader' });
  log.add(DIR, 'OrganizationMemberSet', { organizationId: 'acme', userId: 'u2', username: 'bob', role: 'editor' });
  const member = { organizationId: 'acme', userId: 'u2', username: 'bob', role: 'developer' } as const;
  log.add(DIR, 'ProjectMemberSet', { ...member, projectId: 'p1' });
  log.add(DIR, 'ProjectMemberSet', { ...member, projectId: 'p2' });
  log.add(DIR, 'ProjectMemberSet', { ...member, projectId: 'p3', organizationId: 'other' });
  log.add(DIR, 'ProjectMemberSet', { ...member, projectId: 'p1', userId: 'u1', username: 'Alice' });
  log.add(DIR, 'ProjectMemberRemoved', { organizationId: 'acme', projectId: 'p1', userId: 'u1' });
  log.add(DIR, 'UserDeactivated', { userId: 'u2' });
  log.add(DIR, 'UserPasswordChanged', { userId: 'u1', passwordHash: 'h2', reason: 'self' });

  const views = await openProjectedViews([directoryProjector]);
  t.after(() => views.close());
  await views.catchUp(log.events);

  assert.deepEqual(await views.store.get(DIR, 'users', { id: 'u1' }), {
    id: 'u1',
    username: 'Alice',
    usernameLower: 'alice',
    email: null,
    role: 'systemUser',
    isActive: true,
    organizationId: 'Alice',
    createdAt: alice.metadata.time,
  });
  assert.equal((await views.store.get(DIR, 'users', { id: 'u2' }))?.isActive, false);
  assert.equal((await views.store.get(DIR, 'organizations', { id: 'acme' }))?.isPersonal, false);
  const members = await views.store.find(DIR, 'organization_members', {
    filter: fieldsEqual({ organizationId: 'acme' }),
    orderBy: [{ ref: { field: 'username' }, direction: 'asc' }],
  });
  assert.deepEqual(
    members.map((m) => `${String(m.username)}:${String(m.role)}`),
    ['Alice:organizationOwner', 'bob:editor'],
  );
  const projectMembers = async () =>
    (await views.store.find(DIR, 'project_members', { orderBy: [{ ref: { field: 'projectId' }, direction: 'asc' }] })).map(
      (m) => `${String(m.projectId)}:${String(m.username)}`,
    );
  assert.deepEqual(await projectMembers(), ['p1:bob', 'p2:bob', 'p3:bob']);

  // Leaving an organization drops the user's project roles there, and only there.
  log.add(DIR, 'OrganizationMemberRemoved', { organizationId: 'acme', userId: 'u2' });
  log.add(DIR, 'UserReactivated', { userId: 'u2' });
  log.add(DIR, 'UserRoleChanged', { userId: 'u2', role: 'systemUser' });
  log.add(DIR, 'UserRoleChanged', { userId: 'u1', role: 'systemAdmin' });
  await views.catchUp(log.events);
  assert.equal(await views.store.count(DIR, 'organization_members', fieldsEqual({ organizationId: 'acme' })), 1);
  assert.deepEqual(await projectMembers(), ['p3:bob']);
  assert.equal((await views.store.get(DIR, 'users', { id: 'u2' }))?.isActive, true);
  const roles = await views.store.find(DIR, 'users', { orderBy: [{ ref: { field: 'id' }, direction: 'asc' }] });
  assert.deepEqual(
    roles.map((u) => `${String(u.id)}:${String(u.role)}`),
    ['u1:systemAdmin', 'u2:systemUser'],
  );

  const expected = await dumpViews(views.store, [directoryProjector]);
  const replay = await openProjectedViews([directoryProjector]);
  try {
    await replay.catchUp(log.events, 3);
    assert.deepEqual(await dumpViews(replay.store, [directoryProjector]), expected);
  } finally {
    await replay.close();
  }
});
