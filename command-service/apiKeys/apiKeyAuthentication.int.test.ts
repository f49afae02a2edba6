import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isAppError } from '../../contracts/index.ts';
import type { ErrorCode, Principal } from '../../contracts/index.ts';
import { apiKeyHeader, as, bearer, none, openAuthWorld } from '../testing/authWorldFixture.ts';
import type { AuthWorld } from '../testing/authWorldFixture.ts';

const DAY = 86_400_000;
let world: AuthWorld;
let alice: Principal;

const refused = (promise: Promise<unknown>, code: ErrorCode) =>
  assert.rejects(promise, (err: unknown) => isAppError(err, code) || assert.fail(`expected ${code}, got ${String(err)}`));

const authenticate = (key: string, service = world.service) => service.authenticator.authenticate(apiKeyHeader(key));

async function newKey(principal: Principal, input: Record<string, unknown> = {}) {
  const { result } = await world.service.gateway.execute('CreatePersonalApiKey', { name: 'k', ...input }, as(principal));
  return result;
}

before(async () => {
  world = await openAuthWorld();
  await world.user('u-alice', 'alice');
  await world.user('u-bob', 'bob');
  await world.organization('acme', ['u-alice', 'alice', 'organizationOwner'], ['u-bob', 'bob', 'organizationAdmin']);
  alice = world.jwtUser('u-alice', 'alice');
});
after(() => world.close());

describe('personal and service keys authenticate (auth.md §8.4)', () => {
  test('a personal key is the user with the key scope; a service key is its own principal', async () => {
    const personal = await newKey(alice, { organizationId: 'acme', projectIds: null, tableIds: ['posts'], readOnly: true });
    assert.deepEqual(await authenticate(personal.secret), {
      kind: 'user',
      userId: 'u-alice',
      username: 'alice',
      via: 'personalKey',
      sid: null,
      key: { keyId: personal.apiKey.id, organizationId: 'acme', projectIds: null, branchNames: null, tableIds: ['posts'], readOnly: true },
    });
    const rules = [{ action: 'read', subject: ['Row', 'Table'] }];
    const { result: service } = await world.service.gateway.execute(
      'CreateServiceApiKey',
      { name: 'svc', organizationId: 'acme', permissions: { rules } },
      as(alice),
    );
    const principal = await world.service.authenticator.authenticate(bearer(service.secret));
    assert.deepEqual(principal, {
      kind: 'service',
      keyId: service.apiKey.id,
      organizationId: 'acme',
      rules,
      key: { keyId: service.apiKey.id, organizationId: 'acme', projectIds: null, branchNames: null, tableIds: null, readOnly: false },
    });
    // Key callers may not mint access tokens (auth.md §11).
    for (const caller of [await authenticate(personal.secret), principal]) {
      await assert.rejects(world.service.authenticator.issueAccessToken(caller), (err: unknown) => {
        assert.ok(isAppError(err, 'FORBIDDEN'));
        assert.equal(err.message, 'Access tokens can only be issued for JWT-authenticated sessions');
        return true;
      });
    }
  });

  test('unknown -> INVALID; revoked or rotated away -> REVOKED; expired -> EXPIRED (on another replica too)', async () => {
    await refused(authenticate('svc_0000000000000000000000'), 'API_KEY_INVALID');
    await refused(world.service.authenticator.authenticate({ ...none, apiKeyQuery: 'svc_short' }), 'API_KEY_INVALID');
    const revoked = await newKey(alice);
    const replica = world.replica();
    assert.equal((await authenticate(revoked.secret, replica)).kind, 'user');
    await world.service.gateway.execute('RevokeApiKey', { id: revoked.apiKey.id }, as(alice));
    await refused(authenticate(revoked.secret, replica), 'API_KEY_REVOKED');
    assert.ok(world.lines.some((line) => line.audit === true && line.event === 'apikey.use_revoked' && line.keyId === revoked.apiKey.id));
    assert.ok(!JSON.stringify(world.lines).includes(revoked.secret));

    const rotating = await newKey(alice);
    const { result: replacement } = await world.service.gateway.execute('RotateApiKey', { id: rotating.apiKey.id }, as(alice));
    await refused(authenticate(rotating.secret, replica), 'API_KEY_REVOKED');
    assert.equal((await authenticate(replacement.secret, replica)).kind, 'user');

    const expiring = await newKey(alice, { expiresAt: new Date(world.clock.ms + DAY).toISOString() });
    world.clock.ms += DAY - 1;
    assert.equal((await authenticate(expiring.secret)).kind, 'user');
    world.clock.ms += 1;
    await refused(authenticate(expiring.secret), 'API_KEY_EXPIRED');
    assert.ok(world.lines.some((line) => line.audit === true && line.event === 'apikey.use_expired'));
    // Revoked wins over expired.
    await world.service.gateway.execute('RevokeApiKey', { id: expiring.apiKey.id }, as(alice));
    await refused(authenticate(expiring.secret), 'API_KEY_REVOKED');
  });

  test('owner deactivated or gone from the key organization -> INVALID; service keys outlive their creator', async () => {
    const bob = world.jwtUser('u-bob', 'bob');
    const anywhere = await newKey(bob);
    const inAcme = await newKey(bob, { organizationId: 'acme' });
    const { result: service } = await world.service.gateway.execute(
      'CreateServiceApiKey',
      { name: 'svc', organizationId: 'acme', permissions: { rules: [{ action: 'read', subject: 'Row' }] } },
      as(bob),
    );
    await world.directory(['UserDeactivated', { userId: 'u-bob' }]);
    await refused(authenticate(anywhere.secret), 'API_KEY_INVALID');
    await refused(authenticate(inAcme.secret), 'API_KEY_INVALID');
    assert.equal((await authenticate(service.secret)).kind, 'service');
    await world.directory(['UserReactivated', { userId: 'u-bob' }]);
    assert.equal((await authenticate(inAcme.secret)).kind, 'user', 'unexpired, unrevoked keys work again');

    await world.directory(['OrganizationMemberRemoved', { organizationId: 'acme', userId: 'u-bob' }]);
    await refused(authenticate(inAcme.secret), 'API_KEY_INVALID');
    assert.equal((await authenticate(anywhere.secret)).kind, 'user');
    assert.equal((await authenticate(service.secret)).kind, 'service');
  });
});

describe('lastUsedAt (auth.md §8.9)', () => {
  test('set by a successful authentication, at most once per 60 s; failures never set it', async () => {
    const key = await newKey(alice);
    const lastUsed = async () => (await world.service.apiKeys.getApiKey(alice, key.apiKey.id)).lastUsedAt;
    assert.equal(await lastUsed(), null);
    const first = world.clock.ms;
    await authenticate(key.secret);
    assert.equal(await lastUsed(), new Date(first).toISOString());
    world.clock.ms += 59_999;
    await authenticate(key.secret);
    assert.equal(await lastUsed(), new Date(first).toISOString());
    world.clock.ms += 1;
    await authenticate(key.secret);
    assert.equal(await lastUsed(), new Date(world.clock.ms).toISOString());
    const used = world.clock.ms;
    await world.service.gateway.execute('RevokeApiKey', { id: key.apiKey.id }, as(alice));
    world.clock.ms += 120_000;
    await refused(authenticate(key.secret), 'API_KEY_REVOKED');
    assert.equal(await lastUsed(), new Date(used).toISOString());
  });
});
