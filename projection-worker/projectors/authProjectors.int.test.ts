import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiKeysProjector } from './apiKeysProjector.ts';
import { sessionsProjector } from './sessionsProjector.ts';
import { createTestLog, dumpViews, openProjectedViews } from '../testing/projectorTestKit.ts';
import { apiKeyCreated } from '../../contracts/testing/apiKeyEvents.ts';

const key = apiKeyCreated;

test('api-keys keeps key records without secret hashes; rotation revokes the old key once', async (t) => {
  const log = createTestLog();
  const created = log.add('apikey-user-u1', 'ApiKeyCreated', key('k1'));
  const service = key('k2', { type: 'service', userId: null, organizationId: 'acme', permissions: { rules: [{ action: 'read', subject: 'Row' }] } });
  log.add('apikey-org-acme', 'ApiKeyCreated', service);
  const rotated = log.add('apikey-user-u1', 'ApiKeyRevoked', { keyId: 'k1', revokedBy: 'u1', replacedById: 'k3' });
  log.add('apikey-user-u1', 'ApiKeyCreated', key('k3', { rotatedFromId: 'k1' }));
  log.add('apikey-user-u1', 'ApiKeyRevoked', { keyId: 'k1', revokedBy: 'admin', replacedById: null });
  log.add('directory', 'UserCreated', { userId: 'u9', username: 'x', email: null, role: 'systemUser', passwordHash: 'h' });

  const views = await openProjectedViews([apiKeysProjector]);
  t.after(() => views.close());
  await views.catchUp(log.events);

  const k1 = await views.store.get('api-keys', 'keys', { id: 'k1' });
  assert.ok(k1);
  assert.equal('secretHash' in k1, false);
  assert.deepEqual(
    { createdAt: k1.createdAt, revoked: k1.revoked, revokedAt: k1.revokedAt, revokedBy: k1.revokedBy, replacedById: k1.replacedById },
    { createdAt: created.metadata.time, revoked: true, revokedAt: rotated.metadata.time, revokedBy: 'u1', replacedById: 'k3' },
  );
  assert.deepEqual(k1.branchNames, ['$default']);
  const k2 = await views.store.get('api-keys', 'keys', { id: 'k2' });
  assert.deepEqual(k2?.permissions, { rules: [{ action: 'read', subject: 'Row' }] });
  assert.equal(k2?.organizationId, 'acme');
  assert.equal((await views.store.get('api-keys', 'keys', { id: 'k3' }))?.rotatedFromId, 'k1');
  assert.equal(await views.store.count('api-keys', 'keys'), 3);

  const replay = await openProjectedViews([apiKeysProjector]);
  t.after(() => replay.close());
  await replay.catchUp(log.events, 1);
  assert.deepEqual(await dumpViews(replay.store, [apiKeysProjector]), await dumpViews(views.store, [apiKeysProjector]));
});

test('sessions keeps families, rotations and revocations, including token-version revocations, and drops old ones', async (t) => {
  const log = createTestLog();
  const family = (id: string, userId: string, expires = '2026-02-01T00:00:00.000Z') => ({
    familyId: id,
    userId,
    userTokenVersion: 0,
    absoluteExpiresAt: expires,
    firstTokenId: `${id}-t0`,
    tokenExpiresAt: '2026-01-08T00:00:00.000Z',
  });
  log.add('session-f1', 'RefreshFamilyStarted', family('f1', 'u1'));
  log.add('session-f2', 'RefreshFamilyStarted', family('f2', 'u1'));
  log.add('session-f3', 'RefreshFamilyStarted', family('f3', 'u2'));
  // Expires soon: dropped by a later login more than an hour after its absolute expiry.
  log.add('session-old', 'RefreshFamilyStarted', family('old', 'u3', '2026-01-01T00:10:00.000Z'));
  const rotation = log.add('session-f1', 'RefreshTokenRotated', {
    tokenId: 'f1-t0',
    successorId: 'f1-t1',
    successorExpiresAt: '2026-01-09T00:00:00.000Z',
  });
  log.add('session-f1', 'RefreshTokenRotated', { tokenId: 'f1-t1', successorId: 'f1-t2', successorExpiresAt: '2026-01-10T00:00:00.000Z' });
  const logout = log.add('session-f3', 'RefreshFamilyRevoked', { reason: 'logout' });
  log.add('session-f3', 'RefreshFamilyRevoked', { reason: 'reuse' });
  const changed = log.add('directory', 'UserPasswordChanged', { userId: 'u1', passwordHash: 'h', reason: 'self' });
  log.add('session-f4', 'RefreshFamilyStarted', { ...family('f4', 'u1'), userTokenVersion: 1 });

  const views = await openProjectedViews([sessionsProjector]);
  t.after(() => views.close());
  await views.catchUp(log.events);
  const get = (id: string) => views.store.get('sessions', 'families', { id });

  const f1 = await get('f1');
  assert.equal(f1?.rotations, 2);
  assert.equal(f1?.tokenExpiresAt, '2026-01-10T00:00:00.000Z');
  assert.notEqual(f1?.lastRotatedAt, rotation.metadata.time);
  assert.deepEqual([f1?.revoked, f1?.revokeReason, f1?.revokedAt], [true, 'passwordChange', changed.metadata.time]);
  assert.deepEqual([(await get('f3'))?.revokeReason, (await get('f3'))?.revokedAt], ['logout', logout.metadata.time]);
  assert.equal((await get('f4'))?.revoked, false);
  assert.equal((await get('f4'))?.userTokenVersion, 1);
  assert.notEqual(await get('old'), null);

  log.add('session-f5', 'RefreshFamilyStarted', family('f5', 'u2'), '2026-01-01T01:10:00.001Z');
  log.add('directory', 'UserTokenVersionIncremented', { userId: 'u1', reason: 'logoutAll' });
  await views.catchUp(log.events);
  assert.equal(await get('old'), null);
  assert.equal((await get('f4'))?.revokeReason, 'logoutAll');
  assert.equal((await get('f1'))?.revokeReason, 'passwordChange');

  const replay = await openProjectedViews([sessionsProjector]);
  t.after(() => replay.close());
  await replay.catchUp(log.events, 3);
  assert.deepEqual(await dumpViews(replay.store, [sessionsProjector]), await dumpViews(views.store, [sessionsProjector]));
});
