import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { clearsSessionCookies, isAppError, sessionStreamId } from '../../contracts/index.ts';
import type { ErrorCode, RefreshResult } from '../../contracts/index.ts';
import { AUTH_TEST_SECRET, bearer, openAuthWorld } from '../testing/authWorldFixture.ts';
import type { AuthWorld } from '../testing/authWorldFixture.ts';
import { createRefreshTokenCodec } from './refreshTokens.ts';

const DAY = 86_400_000;
const GRACE = 30_000;
let world: AuthWorld;

beforeEach(async () => {
  world = await openAuthWorld();
  await world.user('u-alice', 'alice');
});
afterEach(() => world.close());

const refresh = (token: string | null, service = world.service): Promise<RefreshResult> => service.sessions.refresh(token);

/** Rejects with `code`; `clears` says whether the edge must clear the three cookies. */
async function refused(promise: Promise<unknown>, code: ErrorCode, clears = true): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(isAppError(err, code), `expected ${code}, got ${String(err)}`);
    assert.equal(clearsSessionCookies(err), clears);
    return true;
  });
}

async function sessionEvents(familyId: string): Promise<string[]> {
  return (await world.store.readStream(sessionStreamId(familyId))).map((event) => event.type);
}

describe('row 5: the current token rotates', () => {
  test('login starts a family; refresh returns a successor and an access token of the family', async () => {
    const login = await world.login('alice');
    assert.match(login.refreshToken, /^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    const full = await world.service.authenticator.login({ username: 'alice', password: 'correct-horse-battery', clientIp: '10.0.0.2' });
    assert.equal(full.refreshMaxAgeSeconds, 7 * 86_400);

    world.clock.ms += 1000;
    const rotated = await refresh(login.refreshToken);
    assert.equal(rotated.kind, 'rotated');
    assert.notEqual(rotated.refreshToken, login.refreshToken);
    assert.equal(rotated.expiresIn, 1800);
    assert.equal(rotated.refreshMaxAgeSeconds, 7 * 86_400);
    const principal = await world.service.authenticator.authenticate(bearer(rotated.accessToken));
    assert.ok(principal.kind === 'user' && principal.sid === login.familyId && principal.via === 'jwt');
    assert.deepEqual(await sessionEvents(login.familyId), ['RefreshFamilyStarted', 'RefreshTokenRotated']);

    // Only ids are stored: neither token nor MAC appears in the log.
    const stored = JSON.stringify(await world.store.readStream(sessionStreamId(login.familyId)));
    for (const token of [login.refreshToken, rotated.refreshToken]) assert.ok(!stored.includes(token.split('.')[1] as string));
  });

  test('a refresh never extends the family beyond its absolute expiry', async () => {
    const capped = await openAuthWorld({ refreshTokenTtlDays: 1, refreshFamilyMaxAgeDays: 2 });
    try {
      await capped.user('u-alice', 'alice');
      const login = await capped.login('alice');
      capped.clock.ms += 23 * 3_600_000;
      const first = await capped.service.sessions.refresh(login.refreshToken);
      assert.equal(first.refreshMaxAgeSeconds, 86_400);
      capped.clock.ms += 23 * 3_600_000;
      const second = await capped.service.sessions.refresh(first.refreshToken);
      assert.equal(second.refreshMaxAgeSeconds, 2 * 3600, 'capped at createdAt + 2 days');
      capped.clock.ms += 2 * 3_600_000;
      await refused(capped.service.sessions.refresh(second.refreshToken), 'REFRESH_TOKEN_INVALID');
    } finally {
      await capped.close();
    }
  });
});

describe('rows 2 to 4: refused without a reuse alarm', () => {
  test('row 2: no svc_rt', async () => {
    await refused(refresh(null), 'REFRESH_TOKEN_MISSING');
    await refused(refresh(''), 'REFRESH_TOKEN_MISSING');
  });

  test('row 3: malformed, bad MAC, unknown id', async () => {
    const login = await world.login('alice');
    const [id, mac] = login.refreshToken.split('.') as [string, string];
    const unknown = createRefreshTokenCodec(AUTH_TEST_SECRET);
    for (const token of ['garbage', `${id}.${mac.slice(0, -2)}AA`, `${id}x.${mac}`, unknown.format(unknown.newTokenId())]) {
      await refused(refresh(token), 'REFRESH_TOKEN_INVALID');
    }
    assert.deepEqual(await sessionEvents(login.familyId), ['RefreshFamilyStarted'], 'nothing revoked');
  });

  test('row 4: revoked family (before reuse detection), expired token, deactivated user, password change', async () => {
    const first = await world.login('alice');
    const rotated = await refresh(first.refreshToken);
    await world.service.sessions.logout({ refreshToken: rotated.refreshToken, credentials: bearer('x') });
    world.clock.ms += GRACE + 1;
    await refused(refresh(first.refreshToken), 'REFRESH_TOKEN_INVALID');
    await refused(refresh(rotated.refreshToken), 'REFRESH_TOKEN_INVALID');

    const aging = await world.login('alice');
    world.clock.ms += 7 * DAY;
    await refused(refresh(aging.refreshToken), 'REFRESH_TOKEN_INVALID');

    const beforeDeactivation = await world.login('alice');
    await world.directory(['UserDeactivated', { userId: 'u-alice' }]);
    await refused(refresh(beforeDeactivation.refreshToken), 'REFRESH_TOKEN_INVALID');
    await world.directory(['UserReactivated', { userId: 'u-alice' }]);
    await refused(refresh(beforeDeactivation.refreshToken), 'REFRESH_TOKEN_INVALID', true);

    const beforePasswordChange = await world.login('alice');
    await world.directory(['UserPasswordChanged', { userId: 'u-alice', passwordHash: 'x', reason: 'reset' }]);
    await refused(refresh(beforePasswordChange.refreshToken), 'REFRESH_TOKEN_INVALID');
    await refused(world.service.authenticator.authenticate(bearer(beforePasswordChange.accessToken)), 'TOKEN_REVOKED', false);
  });
});

describe('rows 6 and 7: a rotated token', () => {
  test('row 6: within the grace period (boundary inclusive) the same successor comes back, on every replica', async () => {
    const login = await world.login('alice');
    const rotated = await refresh(login.refreshToken);
    world.clock.ms += GRACE;
    const duplicate = await refresh(login.refreshToken);
    assert.equal(duplicate.kind, 'duplicate');
    assert.equal(duplicate.refreshToken, rotated.refreshToken, 'byte-identical successor');
    assert.equal(duplicate.refreshMaxAgeSeconds, 7 * 86_400 - 30, "the successor's remaining lifetime");
    assert.notEqual(duplicate.accessToken, rotated.accessToken);
    const other = await refresh(login.refreshToken, world.replica());
    assert.equal(other.kind, 'duplicate');
    assert.equal(other.refreshToken, rotated.refreshToken);
    assert.deepEqual(await sessionEvents(login.familyId), ['RefreshFamilyStarted', 'RefreshTokenRotated'], 'nothing appended');
  });

  test('row 7: after the grace period the family is revoked and audit-logged', async () => {
    const login = await world.login('alice');
    const rotated = await refresh(login.refreshToken);
    world.clock.ms += GRACE + 1;
    await refused(refresh(login.refreshToken), 'REFRESH_TOKEN_REUSED');
    assert.deepEqual(await sessionEvents(login.familyId), ['RefreshFamilyStarted', 'RefreshTokenRotated', 'RefreshFamilyRevoked']);
    const [revoked] = (await world.store.readStream(sessionStreamId(login.familyId))).slice(-1);
    assert.deepEqual(revoked?.data, { reason: 'reuse' });
    assert.ok(world.lines.some((line) => line.audit === true && line.event === 'refresh.reuse' && line.familyId === login.familyId));
    await refused(refresh(rotated.refreshToken), 'REFRESH_TOKEN_INVALID');
    await refused(world.service.authenticator.authenticate(bearer(rotated.accessToken)), 'TOKEN_REVOKED', false);
  });

  test('row 7: within the grace period but the successor itself was rotated', async () => {
    const login = await world.login('alice');
    const successor = await refresh(login.refreshToken);
    world.clock.ms += 1000;
    await refresh(successor.refreshToken);
    world.clock.ms += 1000;
    await refused(refresh(login.refreshToken), 'REFRESH_TOKEN_REUSED');
  });
});

describe('row 8: concurrent refreshes', () => {
  test('parallel refreshes with one token on two replicas all get the same successor; one rotation is stored', async () => {
    const login = await world.login('alice');
    const replica = world.replica();
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => refresh(login.refreshToken, i % 2 === 0 ? world.service : replica)),
    );
    const fulfilled = results.map((result) => {
      assert.equal(result.status, 'fulfilled', result.status === 'rejected' ? String(result.reason) : '');
      return (result as PromiseFulfilledResult<RefreshResult>).value;
    });
    assert.equal(new Set(fulfilled.map((result) => result.refreshToken)).size, 1);
    assert.equal(fulfilled.filter((result) => result.kind === 'rotated').length, 1);
    assert.deepEqual(await sessionEvents(login.familyId), ['RefreshFamilyStarted', 'RefreshTokenRotated']);
  });
});
