import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAppError, resolveBranch, resolveRevision } from '../../contracts/index.ts';
import type { ErrorCode } from '../../contracts/index.ts';
import { givenState } from '../testing/systemDeciderSpec.ts';
import { alice, carol, userPrincipal, world } from '../testing/systemFixtures.ts';
import { requireBranch } from './resolveTargets.ts';

// auth.md §10: the target is resolved (step 4, 404) before the remaining scope dimensions (5) and read access (6).
const state = givenState(world);
const blogMaster = { organizationId: 'acme', projectName: 'blog', branchName: 'master' };
const otherProjectKey = userPrincipal('u-alice', 'alice', { projectIds: ['p-other'] });

function throwsCode(run: () => unknown, code: ErrorCode): void {
  assert.throws(run, (err: unknown) => isAppError(err) && err.code === code);
}

test('a missing branch is BRANCH_NOT_FOUND before the key scope of its project is checked', () => {
  throwsCode(() => resolveBranch(state, otherProjectKey, { ...blogMaster, branchName: 'nope' }), 'BRANCH_NOT_FOUND');
  throwsCode(() => resolveBranch(state, otherProjectKey, blogMaster), 'API_KEY_SCOPE');
  assert.equal(resolveBranch(state, alice, blogMaster).branch.name, 'master');
});

test('the organization scope is checked before the organization exists', () => {
  const acmeKey = userPrincipal('u-alice', 'alice', { organizationId: 'acme' });
  throwsCode(() => resolveBranch(state, acmeKey, { ...blogMaster, organizationId: 'nowhere' }), 'API_KEY_SCOPE');
  throwsCode(() => resolveBranch(state, alice, { ...blogMaster, organizationId: 'nowhere' }), 'ORGANIZATION_NOT_FOUND');
});

test('the command side checks read access after resolving the branch', () => {
  throwsCode(() => requireBranch(state, carol, { ...blogMaster, branchName: 'nope' }), 'BRANCH_NOT_FOUND');
  throwsCode(() => requireBranch(state, carol, blogMaster), 'FORBIDDEN');
});

test('a revision of a missing project or branch is REVISION_NOT_FOUND', () => {
  throwsCode(() => resolveRevision(state, alice, 'r-nope'), 'REVISION_NOT_FOUND');
  assert.equal(resolveRevision(state, alice, 'p1-r1').branch.name, 'master');
});
