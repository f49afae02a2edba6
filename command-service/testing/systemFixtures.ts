import type { DomainEvent, KeyScope, OrganizationRole, Principal, SystemRole } from '../../contracts/index.ts';

/** Test support (imported by *.unit.test.ts only): events and principals for decider specs. */

export function userEvents(userId: string, username: string, role: SystemRole = 'systemUser'): DomainEvent[] {
  return [
    { type: 'UserCreated', data: { userId, username, email: null, role, passwordHash: `hash-${userId}` } },
    { type: 'OrganizationCreated', data: { organizationId: username, isPersonal: true } },
    { type: 'OrganizationMemberSet', data: { organizationId: username, userId, username, role: 'organizationOwner' } },
  ];
}

export function memberSet(organizationId: string, userId: string, username: string, role: OrganizationRole): DomainEvent {
  return { type: 'OrganizationMemberSet', data: { organizationId, userId, username, role } };
}

export function projectCreated(organizationId: string, projectId: string, name: string, isPublic = false): DomainEvent {
  return {
    type: 'ProjectCreated',
    data: {
      projectId,
      organizationId,
      name,
      isPublic,
      rootBranch: { branchId: `${projectId}-master`, name: 'master', startRevisionId: `${projectId}-r0`, draftRevisionId: `${projectId}-r1` },
    },
  };
}

export function userPrincipal(userId: string, username: string, key: Partial<KeyScope> | null = null): Principal {
  const scope: KeyScope | null = key
    ? { keyId: 'k1', organizationId: null, projectIds: null, branchNames: null, tableIds: null, readOnly: false, ...key }
    : null;
  return { kind: 'user', userId, username, via: key ? 'personalKey' : 'jwt', sid: key ? null : 'sid-1', key: scope };
}

export const anonymous: Principal = { kind: 'anonymous' };

/**
 * A small world: `admin` (systemAdmin), `alice` (owner of `acme`), `bob` (organizationAdmin of `acme`),
 * `carol` (no role in `acme`), project `blog` (p1) in `acme`.
 */
export const world: DomainEvent[] = [
  ...userEvents('u-admin', 'admin', 'systemAdmin'),
  ...userEvents('u-alice', 'alice'),
  ...userEvents('u-bob', 'bob'),
  ...userEvents('u-carol', 'carol'),
  { type: 'OrganizationCreated', data: { organizationId: 'acme', isPersonal: false } },
  memberSet('acme', 'u-alice', 'alice', 'organizationOwner'),
  memberSet('acme', 'u-bob', 'bob', 'organizationAdmin'),
  projectCreated('acme', 'p1', 'blog'),
];

export const admin = userPrincipal('u-admin', 'admin');
export const alice = userPrincipal('u-alice', 'alice');
export const bob = userPrincipal('u-bob', 'bob');
export const carol = userPrincipal('u-carol', 'carol');
