import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isAppError, userApiKeysStreamId } from '../../contracts/index.ts';
import type { ApiKeyWithSecretView, ErrorCode, Principal } from '../../contracts/index.ts';
import type { CommandService } from '../createCommandService.ts';
import { START_MS, as, openAuthWorld } from '../testing/authWorldFixture.ts';
import type { AuthWorld } from '../testing/authWorldFixture.ts';

const DAY = 86_400_000;
let world: AuthWorld;
let alice: Principal;
let bob: Principal;
let carol: Principal;
let root: Principal;

const refused = (promise: Promise<unknown>, code: ErrorCode, message?: string) =>
  assert.rejects(promise, (err: unknown) => {
    assert.ok(isAppError(err, code), `expected ${code}, got ${String(err)}`);
    if (message !== undefined) assert.equal(err.message, message);
    return true;
  });

before(async () => {
  world = await openAuthWorld({ apiKeyMaxPerUser: 3, apiKeyMaxServicePerOrg: 2 });
  await world.user('u-root', 'root', 'systemAdmin');
  await world.user('u-alice', 'alice');
  await world.user('u-bob', 'bob');
  await world.user('u-carol', 'carol');
  await world.organization('acme', ['u-alice', 'alice', 'organizationOwner'], ['u-bob', 'bob', 'developer']);
  await world.project('acme', 'p-blog', 'blog');
  [alice, bob, carol, root] = [
    world.jwtUser('u-alice', 'alice'),
    world.jwtUser('u-bob', 'bob'),
    world.jwtUser('u-carol', 'carol'),
    world.jwtUser('u-root', 'root'),
  ];
});
after(() => world.close());

const gateway = (service: CommandService = world.service) => service.gateway;
const personal = (principal: Principal, input: Record<string, unknown> = {}, service?: CommandService) =>
  gateway(service).execute('CreatePersonalApiKey', { name: 'ci', ...input }, as(principal));
const service = (principal: Principal, input: Record<string, unknown> = {}) =>
  gateway().execute(
    'CreateServiceApiKey',
    { name: 'deploy', organizationId: 'acme', permissions: { rules: [{ action: 'read', subject: 'Row' }] }, ...input },
    as(principal),
  );

describe('create (auth.md §8.3)', () => {
  test('a personal key: the secret once, the record of system-api.md §4.5', async () => {
    const { result, position, projections } = await personal(alice, { name: '  ci  ', organizationId: 'acme', readOnly: true });
    assert.match(result.secret, /^svc_[0-9A-Za-z]{22}$/);
    assert.deepEqual(Object.keys(result.apiKey), [
      'id',
      'name',
      'prefix',
      'type',
      'status',
      'userId',
      'organizationId',
      'projectIds',
      'branchNames',
      'tableIds',
      'readOnly',
      'permissions',
      'expiresAt',
      'revokedAt',
      'lastUsedAt',
      'createdAt',
      'createdBy',
      'rotatedFromId',
      'replacedById',
    ]);
    assert.deepEqual(
      { ...result.apiKey, id: 'x' },
      {
        id: 'x',
        name: 'ci',
        prefix: result.secret.slice(0, 10),
        type: 'personal',
        status: 'active',
        userId: 'u-alice',
        organizationId: 'acme',
        projectIds: null,
        branchNames: null,
        tableIds: null,
        readOnly: true,
        permissions: null,
        expiresAt: new Date(START_MS + 90 * DAY).toISOString(),
        revokedAt: null,
        lastUsedAt: null,
        createdAt: new Date(START_MS).toISOString(),
        createdBy: 'u-alice',
        rotatedFromId: null,
        replacedById: null,
      },
    );
    assert.equal(position, await world.store.headPosition());
    assert.deepEqual(projections, []);
    const stored = JSON.stringify(await world.store.readStream(userApiKeysStreamId('u-alice')));
    assert.ok(!stored.includes(result.secret), 'the secret is never stored');
    assert.ok(!JSON.stringify(world.lines).includes(result.secret), 'nor logged');
    assert.ok(world.lines.some((line) => line.audit === true && line.event === 'apikey.created' && line.keyId === result.apiKey.id));
    await gateway().execute('RevokeApiKey', { id: result.apiKey.id }, as(alice));
  });

  test('only a JWT user; organization membership; readable projects; valid input', async () => {
    const viaKey: Principal = { ...(alice as Extract<Principal, { kind: 'user' }>), via: 'personalKey', sid: null };
    await refused(personal({ kind: 'anonymous' }), 'UNAUTHENTICATED');
    await refused(personal(viaKey), 'FORBIDDEN');
    await refused(personal(carol, { organizationId: 'acme' }), 'FORBIDDEN');
    await refused(personal(carol, { organizationId: 'nowhere' }), 'ORGANIZATION_NOT_FOUND');
    await refused(personal(carol, { projectIds: ['p-blog'] }), 'PROJECT_NOT_FOUND');
    await refused(personal(alice, { organizationId: 'alice', projectIds: ['p-blog'] }), 'PROJECT_NOT_FOUND');
    await refused(personal(alice, { projectIds: [] }), 'BAD_USER_INPUT');
    await refused(personal(alice, { name: '' }), 'BAD_USER_INPUT');
    await refused(personal(alice, { expiresAt: new Date(START_MS + 366 * DAY).toISOString() }), 'BAD_USER_INPUT');
    const scoped = await personal(bob, { projectIds: ['p-blog'], branchNames: ['$default'], tableIds: ['posts'] });
    assert.deepEqual(scoped.result.apiKey.projectIds, ['p-blog']);
    await gateway().execute('RevokeApiKey', { id: scoped.result.apiKey.id }, as(bob));
  });

  test('service keys: owners/admins of the organization (or systemAdmin), rules checked', async () => {
    await refused(service(bob), 'FORBIDDEN');
    await refused(service(carol), 'FORBIDDEN');
    await refused(service(alice, { organizationId: 'nowhere' }), 'ORGANIZATION_NOT_FOUND');
    await refused(service(alice, { permissions: { rules: [{ action: 'read', subject: 'Row', conditions: {} }] } }), 'BAD_USER_INPUT');
    const { result } = await service(alice, { expiresAt: new Date(START_MS + 700 * DAY).toISOString() });
    assert.equal(result.apiKey.type, 'service');
    assert.equal(result.apiKey.userId, null);
    assert.deepEqual(result.apiKey.permissions, { rules: [{ action: 'read', subject: 'Row' }] });
    const byRoot = await service(root);
    assert.equal(byRoot.result.apiKey.createdBy, 'u-root');
    await refused(
      service(alice),
      'API_KEY_LIMIT_REACHED',
      'Maximum number of service API keys for this organization (2) reached. Revoke unused keys to create new ones.',
    );
    for (const key of [result, byRoot.result]) await gateway().execute('RevokeApiKey', { id: key.apiKey.id }, as(alice));
  });
});

describe('limits (auth.md §8.9)', () => {
  test('parallel creates on two replicas: exactly the limit succeed', async () => {
    const replica = world.replica();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => personal(carol, { name: `k${i}` }, i % 2 ? replica : world.service)),
    );
    const created = results.filter((r) => r.status === 'fulfilled');
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(created.length, 3);
    for (const { reason } of rejected) {
      assert.ok(isAppError(reason, 'API_KEY_LIMIT_REACHED'), String(reason));
      assert.equal(reason.message, 'Maximum number of personal API keys (3) reached. Revoke unused keys to create new ones.');
    }
    const mine = await world.service.apiKeys.listMyApiKeys(carol);
    assert.equal(mine.length, 3);
  });

  test('revoked and expired keys do not count; rotation does not change the count', async () => {
    const [newest] = await world.service.apiKeys.listMyApiKeys(carol);
    const rotated = await gateway().execute('RotateApiKey', { id: newest!.id }, as(carol));
    assert.equal(rotated.result.apiKey.rotatedFromId, newest!.id);
    await refused(personal(carol), 'API_KEY_LIMIT_REACHED');
    await gateway().execute('RevokeApiKey', { id: rotated.result.apiKey.id }, as(carol));
    const soon = await personal(carol, { expiresAt: new Date(world.clock.ms + DAY).toISOString() });
    await refused(personal(carol), 'API_KEY_LIMIT_REACHED');
    world.clock.ms += DAY;
    await personal(carol);
    assert.equal((await world.service.apiKeys.getApiKey(carol, soon.result.apiKey.id)).status, 'expired');
    world.clock.ms -= DAY;
  });
});

describe('revoke and rotate (auth.md §8.8)', () => {
  let key: ApiKeyWithSecretView;
  before(async () => {
    key = (await personal(bob, { name: 'rotating', organizationId: 'acme', tableIds: ['posts'] })).result;
  });

  test('only owners, org owners/admins (service keys) and systemAdmin manage a key; others see API_KEY_NOT_FOUND', async () => {
    await refused(world.service.apiKeys.getApiKey(carol, key.apiKey.id), 'API_KEY_NOT_FOUND');
    await refused(world.service.apiKeys.getApiKey(alice, key.apiKey.id), 'API_KEY_NOT_FOUND', 'API key not found');
    await refused(gateway().execute('RevokeApiKey', { id: key.apiKey.id }, as(carol)), 'API_KEY_NOT_FOUND');
    await refused(gateway().execute('RotateApiKey', { id: 'unknown' }, as(bob)), 'API_KEY_NOT_FOUND');
    assert.equal((await world.service.apiKeys.getApiKey(root, key.apiKey.id)).id, key.apiKey.id);
    assert.equal((await world.service.apiKeys.getApiKey(bob, key.apiKey.id)).name, 'rotating');
  });

  test('two concurrent rotations on two replicas: exactly one succeeds, in one atomic append', async () => {
    const replica = world.replica();
    const results = await Promise.allSettled([
      gateway().execute('RotateApiKey', { id: key.apiKey.id }, as(bob)),
      gateway(replica).execute('RotateApiKey', { id: key.apiKey.id }, as(root)),
    ]);
    const winners = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.result] : []));
    assert.equal(winners.length, 1);
    const loser = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.ok(isAppError(loser?.reason, 'API_KEY_NOT_ACTIVE'), String(loser?.reason));
    const rotated = winners[0] as ApiKeyWithSecretView;
    assert.notEqual(rotated.secret, key.secret);
    assert.deepEqual(
      { ...rotated.apiKey, id: '', prefix: '', createdAt: '', createdBy: '' },
      { ...key.apiKey, id: '', prefix: '', createdAt: '', createdBy: '', rotatedFromId: key.apiKey.id },
    );
    const events = await world.store.readStream(userApiKeysStreamId('u-bob'));
    const last = events.slice(-2);
    assert.deepEqual(
      last.map((e) => e.type),
      ['ApiKeyRevoked', 'ApiKeyCreated'],
    );
    assert.equal(last[0]?.metadata.correlationId, last[1]?.metadata.correlationId, 'one append');
    assert.equal(last[0]?.revision, (last[1]?.revision ?? 0) - 1);
    const old = await world.service.apiKeys.getApiKey(bob, key.apiKey.id);
    assert.equal(old.status, 'revoked');
    assert.equal(old.replacedById, rotated.apiKey.id);
    await refused(gateway().execute('RotateApiKey', { id: key.apiKey.id }, as(bob)), 'API_KEY_NOT_ACTIVE', 'Cannot rotate a revoked key');
    key = rotated;
  });

  test('revoke is idempotent; expired keys can be revoked but not rotated', async () => {
    const first = await gateway().execute('RevokeApiKey', { id: key.apiKey.id }, as(bob));
    assert.equal(first.result.status, 'revoked');
    assert.equal(first.result.revokedAt, new Date(world.clock.ms).toISOString());
    world.clock.ms += 1000;
    const again = await gateway().execute('RevokeApiKey', { id: key.apiKey.id }, as(bob));
    assert.deepEqual(again.result, first.result);
    assert.equal(again.position, first.position, 'nothing appended');
    const expiring = await personal(bob, { expiresAt: new Date(world.clock.ms + 1000).toISOString() });
    world.clock.ms += 1000;
    await refused(
      gateway().execute('RotateApiKey', { id: expiring.result.apiKey.id }, as(bob)),
      'API_KEY_NOT_ACTIVE',
      'Cannot rotate an expired key',
    );
    assert.equal((await gateway().execute('RevokeApiKey', { id: expiring.result.apiKey.id }, as(bob))).result.status, 'revoked');
  });

  test('lists: own personal keys newest first, revoked ones on request; service keys for owners/admins', async () => {
    const all = await world.service.apiKeys.listMyApiKeys(bob, { includeRevoked: true });
    assert.ok(all.length >= 3);
    assert.deepEqual(
      all.map((k) => k.createdAt),
      [...all.map((k) => k.createdAt)].sort().reverse(),
    );
    assert.ok((await world.service.apiKeys.listMyApiKeys(bob)).every((k) => k.status !== 'revoked'));
    await refused(world.service.apiKeys.listServiceApiKeys(bob, 'acme'), 'FORBIDDEN');
    await refused(world.service.apiKeys.listServiceApiKeys(alice, 'nowhere'), 'ORGANIZATION_NOT_FOUND');
    const services = await world.service.apiKeys.listServiceApiKeys(alice, 'acme', { includeRevoked: true });
    assert.ok(services.length === 2 && services.every((k) => k.type === 'service'));
    assert.deepEqual(await world.service.apiKeys.listServiceApiKeys(alice, 'acme'), []);
  });
});
