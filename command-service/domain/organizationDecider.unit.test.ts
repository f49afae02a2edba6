import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DomainEvent, EndpointType, Principal } from '../../contracts/index.ts';
import { organizationDecider, organizationOfCommand } from './organizationDecider.ts';
import type { OrganizationCommand } from './organizationDecider.ts';
import { deciderSpec, givenState } from '../testing/systemDeciderSpec.ts';
import type { GivenEvent } from '../testing/systemDeciderSpec.ts';
import { admin, alice, anonymous, bob, carol, projectCreated, userPrincipal, world } from '../testing/systemFixtures.ts';

const given = deciderSpec(organizationDecider.decide);

type Data<T extends OrganizationCommand['type']> = Extract<OrganizationCommand, { type: T }>['data'];
function cmd<T extends OrganizationCommand['type']>(type: T, data: Data<T>, principal: Principal): OrganizationCommand {
  return { type, data, metadata: { principal } } as OrganizationCommand;
}

const ids = { branchId: 'b-new', startRevisionId: 'r-new0', draftRevisionId: 'r-new1' };
const projectMember = (userId: string, username: string, role: 'developer' | 'editor' | 'reader'): DomainEvent => ({
  type: 'ProjectMemberSet',
  data: { organizationId: 'acme', projectId: 'p1', userId, username, role },
});
/** master: r0 (start), r1 committed = HEAD, r2 = draft. */
const committed: GivenEvent = {
  stream: 'branch-p1-master',
  event: {
    type: 'RevisionCommitted',
    data: { projectId: 'p1', revisionId: 'p1-r1', seq: 1, comment: '', newDraftRevisionId: 'p1-r2', newDraftSeq: 2 },
  },
};
const branchCreated = (branchId: string, name: string, source: string, sourceBranch = 'master'): DomainEvent => ({
  type: 'BranchCreated',
  data: {
    branchId,
    name,
    startRevisionId: `${branchId}-r0`,
    draftRevisionId: `${branchId}-r1`,
    projectId: 'p1',
    sourceBranchId: `p1-${sourceBranch}`,
    sourceBranchName: sourceBranch,
    sourceRevisionId: source,
    sourceSeq: 0,
  },
});

describe('organizationDecider projects', () => {
  const create = (projectName: string, principal: Principal = alice, branchName = 'master') =>
    cmd('CreateProject', { organizationId: 'acme', projectName, branchName, isPublic: false, projectId: 'p-new', ...ids }, principal);

  test('creates the project with its root branch, start revision and draft', () => {
    given(world)
      .when(create('shop', bob, 'main'))
      .then([
        {
          type: 'ProjectCreated',
          data: { projectId: 'p-new', organizationId: 'acme', name: 'shop', isPublic: false, rootBranch: { ...ids, name: 'main' } },
        },
      ]);
  });
  test('names are unique case-insensitively among live projects', () => {
    given(world).when(create('BLOG')).thenThrows('PROJECT_ALREADY_EXISTS', /BLOG/);
    given([...world, { type: 'ProjectDeleted', data: { projectId: 'p1' } }])
      .when(create('Blog'))
      .then([
        {
          type: 'ProjectCreated',
          data: { projectId: 'p-new', organizationId: 'acme', name: 'Blog', isPublic: false, rootBranch: { ...ids, name: 'master' } },
        },
      ]);
  });
  test('refusals in evaluation order', () => {
    given(world)
      .when(cmd('CreateProject', { organizationId: 'nope', projectName: 'x', branchName: 'master', isPublic: false, projectId: 'p', ...ids }, alice))
      .thenThrows('ORGANIZATION_NOT_FOUND');
    given(world).when(create('shop', anonymous)).thenThrows('UNAUTHENTICATED');
    given(world).when(create('shop', carol)).thenThrows('FORBIDDEN');
    given([...world, projectMember('u-carol', 'carol', 'developer')])
      .when(create('shop', carol))
      .thenThrows('FORBIDDEN');
    given(world).when(create('__shop')).thenThrows('INVALID_PROJECT_NAME');
    given(world)
      .when(create('shop', alice, 'Head'))
      .thenThrows('RESERVED_NAME');
    given(world)
      .when(create('shop', alice, '$default'))
      .thenThrows('INVALID_BRANCH_NAME');
  });
  test('visibility change and delete', () => {
    const update = (isPublic: boolean, principal: Principal = alice) =>
      cmd('UpdateProject', { organizationId: 'acme', projectName: 'blog', isPublic }, principal);
    given(world)
      .when(update(true))
      .then([{ type: 'ProjectVisibilityChanged', data: { projectId: 'p1', isPublic: true } }]);
    given(world).when(update(false)).then([]);
    given(world).when(update(true, carol)).thenThrows('FORBIDDEN');
    given([...world, projectMember('u-carol', 'carol', 'developer')])
      .when(update(true, carol))
      .thenThrows('FORBIDDEN');
    given(world)
      .when(cmd('DeleteProject', { organizationId: 'acme', projectName: 'blog' }, admin))
      .then([{ type: 'ProjectDeleted', data: { projectId: 'p1' } }]);
    given(world)
      .when(cmd('DeleteProject', { organizationId: 'acme', projectName: 'Blog' }, admin))
      .thenThrows('PROJECT_NOT_FOUND');
  });
  test('anonymous callers get 401 even on public projects', () => {
    const publicWorld = [...world.slice(0, -1), projectCreated('acme', 'p1', 'blog', true)];
    given(publicWorld)
      .when(cmd('DeleteProject', { organizationId: 'acme', projectName: 'blog' }, anonymous))
      .thenThrows('UNAUTHENTICATED');
    given(publicWorld)
      .when(cmd('DeleteProject', { organizationId: 'acme', projectName: 'blog' }, carol))
      .thenThrows('FORBIDDEN');
  });
});

describe('organizationDecider branches', () => {
  const create = (revisionId: string, branchName: string, principal: Principal = alice) =>
    cmd('CreateBranch', { revisionId, branchName, ...ids }, principal);

  test('creates a branch from a committed revision', () => {
    given([...world, committed])
      .when(create('p1-r1', 'dev'))
      .then([
        {
          type: 'BranchCreated',
          data: {
            ...ids,
            name: 'dev',
            projectId: 'p1',
            sourceBranchId: 'p1-master',
            sourceBranchName: 'master',
            sourceRevisionId: 'p1-r1',
            sourceSeq: 1,
          },
        },
      ]);
  });
  test('refusals', () => {
    given(world).when(create('p1-r1', 'dev')).thenThrows('REVISION_IS_DRAFT');
    given(world).when(create('nope', 'dev')).thenThrows('REVISION_NOT_FOUND');
    given(world).when(create('p1-r0', 'MASTER')).thenThrows('BRANCH_ALREADY_EXISTS');
    given(world).when(create('p1-r0', 'draft')).thenThrows('RESERVED_NAME');
    given([...world, projectMember('u-carol', 'carol', 'editor')])
      .when(create('p1-r0', 'dev', carol))
      .thenThrows('FORBIDDEN');
    given(world)
      .when(create('p1-r0', 'dev', userPrincipal('u-alice', 'alice', { branchNames: ['master'] })))
      .thenThrows('API_KEY_SCOPE');
    given(world)
      .when(create('p1-r0', 'dev', userPrincipal('u-alice', 'alice', { projectIds: ['p9'] })))
      .thenThrows('API_KEY_SCOPE');
  });
  test('delete: root and parents with live children are refused', () => {
    const del = (branchName: string) => cmd('DeleteBranch', { organizationId: 'acme', projectName: 'blog', branchName }, alice);
    const tree = [
      ...world,
      branchCreated('b-dev', 'dev', 'p1-r0'),
      branchCreated('b-feat', 'feat', 'b-dev-r0', 'dev'),
      branchCreated('b-fix', 'fix', 'b-dev-r0', 'dev'),
    ];
    // Children point at their parent branch by id.
    const withIds = tree.map((event) =>
      event.type === 'BranchCreated' && event.data.sourceBranchName === 'dev'
        ? { ...event, data: { ...event.data, sourceBranchId: 'b-dev' } }
        : event,
    );
    given(withIds).when(del('master')).thenThrows('CANNOT_DELETE_ROOT_BRANCH');
    given(withIds).when(del('$default')).thenThrows('CANNOT_DELETE_ROOT_BRANCH');
    given(withIds)
      .when(del('dev'))
      .thenThrows('BRANCH_HAS_CHILDREN', /\(feat, fix\)\. Delete them first\./);
    given(withIds)
      .when(del('feat'))
      .then([{ type: 'BranchDeleted', data: { projectId: 'p1', branchId: 'b-feat' } }]);
    const childrenGone = [
      ...withIds,
      { type: 'BranchDeleted' as const, data: { projectId: 'p1', branchId: 'b-feat' } },
      { type: 'BranchDeleted' as const, data: { projectId: 'p1', branchId: 'b-fix' } },
    ];
    given(childrenGone)
      .when(del('dev'))
      .then([{ type: 'BranchDeleted', data: { projectId: 'p1', branchId: 'b-dev' } }]);
    given(childrenGone).when(del('feat')).thenThrows('BRANCH_NOT_FOUND');
  });
});

describe('organizationDecider endpoints', () => {
  const create = (revisionId: string, type: EndpointType = 'GRAPHQL', principal: Principal = alice) =>
    cmd('CreateEndpoint', { revisionId, type, endpointId: 'e-new' }, principal);
  const created = (
    mode: 'head' | 'draft' | 'pinned',
    type: EndpointType = 'GRAPHQL',
    pinnedRevisionId: string | null = null,
    endpointId = 'e-new',
  ): DomainEvent => ({
    type: 'EndpointCreated',
    data: { endpointId, projectId: 'p1', projectName: 'blog', branchId: 'p1-master', branchName: 'master', type, mode, pinnedRevisionId },
  });
  const history = [...world, committed];

  test('the mode follows the revision: HEAD, draft, any other committed revision', () => {
    given(history)
      .when(create('p1-r1'))
      .then([created('head')]);
    given(history)
      .when(create('p1-r2', 'REST_API'))
      .then([created('draft', 'REST_API')]);
    given(history)
      .when(create('p1-r0'))
      .then([created('pinned', 'GRAPHQL', 'p1-r0')]);
  });
  test('one endpoint per (branch, mode, type) and per (revision, type) when pinned', () => {
    const existing = [...history, created('head', 'GRAPHQL', null, 'e1')];
    given(existing).when(create('p1-r1')).thenThrows('ENDPOINT_ALREADY_EXISTS');
    given(existing)
      .when(create('p1-r1', 'REST_API'))
      .then([created('head', 'REST_API')]);
    const pinned = [...history, created('pinned', 'GRAPHQL', 'p1-r0', 'e2')];
    given(pinned).when(create('p1-r0')).thenThrows('ENDPOINT_ALREADY_EXISTS');
    const deleted = [...existing, { type: 'EndpointDeleted' as const, data: { endpointId: 'e1', projectId: 'p1' } }];
    given(deleted)
      .when(create('p1-r1'))
      .then([created('head')]);
  });
  test('refusals and delete', () => {
    given(history)
      .when(create('p1-r1', 'SOAP' as EndpointType))
      .thenThrows('BAD_USER_INPUT');
    given(history)
      .when(create('p1-r1', 'GRAPHQL', carol))
      .thenThrows('FORBIDDEN');
    const existing = [...history, created('head', 'GRAPHQL', null, 'e1')];
    given(existing)
      .when(cmd('DeleteEndpoint', { endpointId: 'e1' }, bob))
      .then([{ type: 'EndpointDeleted', data: { endpointId: 'e1', projectId: 'p1' } }]);
    given(existing)
      .when(cmd('DeleteEndpoint', { endpointId: 'e1' }, carol))
      .thenThrows('FORBIDDEN');
    given(existing)
      .when(cmd('DeleteEndpoint', { endpointId: 'e9' }, bob))
      .thenThrows('ENDPOINT_NOT_FOUND');
    given([...existing, { type: 'ProjectDeleted', data: { projectId: 'p1' } }])
      .when(cmd('DeleteEndpoint', { endpointId: 'e1' }, bob))
      .thenThrows('ENDPOINT_NOT_FOUND');
  });
});

test('organizationOfCommand names the stream of commands that name no organization', () => {
  const state = givenState([...world, committed]);
  assert.equal(organizationOfCommand(cmd('CreateBranch', { revisionId: 'p1-r1', branchName: 'x', ...ids }, alice), state), 'acme');
  assert.equal(organizationOfCommand(cmd('CreateEndpoint', { revisionId: 'nope', type: 'GRAPHQL', endpointId: 'e' }, alice), state), null);
});
