import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isAppError, rulesGrant } from '../../contracts/index.ts';
import type { ErrorCode, PermissionRule } from '../../contracts/index.ts';
import { givenState } from '../testing/systemDeciderSpec.ts';
import { admin, alice, bob, carol, memberSet, projectCreated, userEvents, userPrincipal, world } from '../testing/systemFixtures.ts';
import {
  assertProjectsInReach,
  assertRulesWithinCreator,
  parseExpiresAt,
  parseKeyName,
  parseKeyScopes,
  parsePermissionRules,
  parseReadOnly,
} from './apiKeyValidation.ts';

const NOW = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

function fails(run: () => unknown, code: ErrorCode, path?: string): void {
  assert.throws(run, (err: unknown) => {
    assert.ok(isAppError(err, code), `expected ${code}, got ${String(err)}`);
    if (path !== undefined) assert.equal(err.details?.[0]?.path, path);
    return true;
  });
}

describe('name, expiry, readOnly', () => {
  test('names are trimmed and 1 to 255 characters', () => {
    assert.equal(parseKeyName('  ci  '), 'ci');
    assert.equal(parseKeyName('é'.repeat(255)), 'é'.repeat(255));
    for (const bad of ['', '   ', 'x'.repeat(256), 42, null]) fails(() => parseKeyName(bad), 'BAD_USER_INPUT', '/name');
  });

  test('expiresAt: default 90 / 365 days, future only, at most 365 / 730 days', () => {
    assert.equal(parseExpiresAt(undefined, 'personal', NOW), new Date(NOW + 90 * DAY).toISOString());
    assert.equal(parseExpiresAt(null, 'service', NOW), new Date(NOW + 365 * DAY).toISOString());
    assert.equal(parseExpiresAt(new Date(NOW + 365 * DAY).toISOString(), 'personal', NOW), new Date(NOW + 365 * DAY).toISOString());
    assert.equal(parseExpiresAt('2026-01-02T01:00:00+01:00', 'personal', NOW), '2026-01-02T00:00:00.000Z');
    assert.equal(parseExpiresAt(new Date(NOW + 730 * DAY).toISOString(), 'service', NOW), new Date(NOW + 730 * DAY).toISOString());
    const bad = [
      new Date(NOW).toISOString(),
      new Date(NOW - 1).toISOString(),
      new Date(NOW + 365 * DAY + 1).toISOString(),
      'tomorrow',
      '2026-02-01',
      5,
    ];
    for (const value of bad) fails(() => parseExpiresAt(value, 'personal', NOW), 'BAD_USER_INPUT', '/expiresAt');
    fails(() => parseExpiresAt(new Date(NOW + 731 * DAY).toISOString(), 'service', NOW), 'BAD_USER_INPUT');
  });

  test('readOnly defaults to false', () => {
    assert.equal(parseReadOnly(undefined), false);
    assert.equal(parseReadOnly(null), false);
    assert.equal(parseReadOnly(true), true);
    fails(() => parseReadOnly('yes'), 'BAD_USER_INPUT', '/readOnly');
  });
});

describe('scopes (auth.md §8.3 rule 5)', () => {
  test('null or omitted is unrestricted; entries are checked by their naming rule', () => {
    assert.deepEqual(parseKeyScopes({}), { projectIds: null, branchNames: null, tableIds: null });
    assert.deepEqual(parseKeyScopes({ projectIds: null, branchNames: ['$default', 'dev-1'], tableIds: ['posts', '_x'] }), {
      projectIds: null,
      branchNames: ['$default', 'dev-1'],
      tableIds: ['posts', '_x'],
    });
  });

  test('empty, too long, not an array, or a bad entry is BAD_USER_INPUT with a pointer', () => {
    fails(() => parseKeyScopes({ projectIds: [] }), 'BAD_USER_INPUT', '/projectIds');
    fails(() => parseKeyScopes({ tableIds: Array.from({ length: 101 }, (_, i) => `t${i}`) }), 'BAD_USER_INPUT', '/tableIds');
    assert.equal(parseKeyScopes({ tableIds: Array.from({ length: 100 }, (_, i) => `t${i}`) }).tableIds?.length, 100);
    fails(() => parseKeyScopes({ branchNames: 'dev' }), 'BAD_USER_INPUT', '/branchNames');
    fails(() => parseKeyScopes({ branchNames: ['dev', 'no spaces'] }), 'BAD_USER_INPUT', '/branchNames/1');
    fails(() => parseKeyScopes({ branchNames: ['$other'] }), 'BAD_USER_INPUT', '/branchNames/0');
    fails(() => parseKeyScopes({ tableIds: ['1abc'] }), 'BAD_USER_INPUT', '/tableIds/0');
    fails(() => parseKeyScopes({ projectIds: [7] }), 'BAD_USER_INPUT', '/projectIds/0');
  });

  test('project ids must be live projects the caller can read, inside the organization when given', () => {
    const state = givenState([
      ...world,
      { type: 'OrganizationCreated', data: { organizationId: 'globex', isPersonal: false } },
      memberSet('globex', 'u-carol', 'carol', 'organizationOwner'),
      projectCreated('globex', 'p-pub', 'site', true),
      projectCreated('globex', 'p-priv', 'secret'),
      projectCreated('acme', 'p-gone', 'old'),
      { type: 'ProjectDeleted', data: { projectId: 'p-gone' } },
    ]);
    assertProjectsInReach(state, alice, ['p1', 'p-pub'], null);
    assertProjectsInReach(state, alice, null, 'acme');
    fails(() => assertProjectsInReach(state, alice, ['p-pub'], 'acme'), 'PROJECT_NOT_FOUND');
    fails(() => assertProjectsInReach(state, alice, ['p-priv'], null), 'PROJECT_NOT_FOUND');
    fails(() => assertProjectsInReach(state, alice, ['p-gone'], null), 'PROJECT_NOT_FOUND');
    fails(() => assertProjectsInReach(state, alice, ['nope'], null), 'PROJECT_NOT_FOUND');
    fails(() => assertProjectsInReach(state, carol, ['p1'], null), 'PROJECT_NOT_FOUND');
    assertProjectsInReach(state, admin, ['p1', 'p-priv'], null);
  });
});

describe('service-key rules (auth.md §8.7)', () => {
  test('1 to 50 rules of the vocabulary, strings or arrays, optional inverted', () => {
    const rules = parsePermissionRules({
      rules: [
        { action: ['read'], subject: ['Row', 'Table'] },
        { action: 'create', subject: 'Row' },
        { action: 'manage', subject: 'all', inverted: true },
      ],
    });
    assert.deepEqual(rules, [
      { action: ['read'], subject: ['Row', 'Table'] },
      { action: 'create', subject: 'Row' },
      { action: 'manage', subject: 'all', inverted: true },
    ]);
    assert.equal(parsePermissionRules({ rules: Array.from({ length: 50 }, () => ({ action: 'read', subject: 'Row' })) }).length, 50);
  });

  test('unknown values, conditions, fields and bad shapes are BAD_USER_INPUT', () => {
    const rule = { action: 'read', subject: 'Row' };
    const cases: [unknown, string][] = [
      [null, '/permissions'],
      [[rule], '/permissions'],
      [{ rules: [] }, '/permissions/rules'],
      [{ rules: Array.from({ length: 51 }, () => rule) }, '/permissions/rules'],
      [{ rules: [rule], extra: 1 }, '/permissions/extra'],
      [{ rules: [{ ...rule, conditions: { id: 1 } }] }, '/permissions/rules/0/conditions'],
      [{ rules: [rule, { ...rule, fields: ['data'] }] }, '/permissions/rules/1/fields'],
      [{ rules: [{ action: 'write', subject: 'Row' }] }, '/permissions/rules/0/action'],
      [{ rules: [{ action: [], subject: 'Row' }] }, '/permissions/rules/0/action'],
      [{ rules: [{ action: 'read', subject: ['Row', 'Secrets'] }] }, '/permissions/rules/0/subject'],
      [{ rules: [{ action: 'read' }] }, '/permissions/rules/0/subject'],
      [{ rules: [{ ...rule, inverted: 'no' }] }, '/permissions/rules/0/inverted'],
      [{ rules: ['read Row'] }, '/permissions/rules/0'],
    ];
    for (const [value, path] of cases) fails(() => parsePermissionRules(value), 'BAD_USER_INPUT', path);
  });

  test('rules may not grant what the creator lacks in the organization', () => {
    const state = givenState(world);
    const grants = (rules: PermissionRule[]) => (action: Parameters<typeof rulesGrant>[1], subject: Parameters<typeof rulesGrant>[2]) =>
      rulesGrant(rules, action, subject);
    const rowsOnly: PermissionRule[] = [{ action: ['read', 'create', 'update', 'delete'], subject: ['Row', 'Table'] }];
    const dave = userPrincipal('u-dave', 'dave');
    const withDeveloper = givenState([...world, ...userEvents('u-dave', 'dave'), memberSet('acme', 'u-dave', 'dave', 'developer')]);
    assertRulesWithinCreator(withDeveloper, dave, 'acme', grants(rowsOnly));
    assertRulesWithinCreator(withDeveloper, dave, 'acme', grants([{ action: 'manage', subject: 'Row' }]));
    fails(() => assertRulesWithinCreator(withDeveloper, dave, 'acme', grants([{ action: 'create', subject: 'Project' }])), 'FORBIDDEN');
    fails(() => assertRulesWithinCreator(withDeveloper, dave, 'acme', grants([{ action: 'manage', subject: 'all' }])), 'FORBIDDEN');
    // The last matching rule decides: an inverted rule takes back what `manage all` gave.
    const narrowed: PermissionRule[] = [
      { action: 'manage', subject: 'all' },
      { action: 'manage', subject: ['Organization', 'Project', 'User', 'Branch', 'Endpoint', 'Webhook'], inverted: true },
    ];
    assertRulesWithinCreator(withDeveloper, dave, 'acme', grants(narrowed));
    // Owners and admins hold every permission an operation checks.
    assertRulesWithinCreator(state, bob, 'acme', grants([{ action: 'manage', subject: 'all' }]));
    assertRulesWithinCreator(state, admin, 'acme', grants([{ action: 'manage', subject: 'all' }]));
    fails(() => assertRulesWithinCreator(state, carol, 'acme', grants(rowsOnly)), 'FORBIDDEN');
  });
});
