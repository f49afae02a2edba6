import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { pino } from 'pino';
import { StreamConflictError, clearsSessionCookies, isAppError, sessionStreamId } from '../../contracts/index.ts';
import type { ErrorCode, EventStore, Principal } from '../../contracts/index.ts';
import { newId } from '../ids.ts';
import { createSystemStateSource } from '../state/systemStateSource.ts';
import { AUTH_TEST_SECRET, bearer, none, openAuthWorld } from '../testing/authWorldFixture.ts';
import type { AuthWorld } from '../testing/authWorldFixture.ts';
import { createAccessTokens } from './jwt.ts';
import { createSessionService } from './sessionService.ts';
import type { RefreshOutcome, SessionServiceDeps } from './sessionService.ts';

let world: AuthWorld;

beforeEach(async () => {
  world = await openAuthWorld();
  await world.user('u-alice', 'alice');
});
afterEach(() => world.close());

const refused = (promise: Promise<unknown>, code: ErrorCode) =>
  assert.rejects(promise, (err: unknown) => isAppError(err, code) || assert.fail(`expected ${code}, got ${String(err)}`));

/** A session service of its own over the world's log, with a possibly failing store in front of it. */
function sessionsOver(eventStore: EventStore, extra: Partial<SessionServiceDeps> = {}) {
  const accessTokens = createAccessTokens({ secret: AUTH_TEST_SECRET, ttlSeconds: 1800, clock: world.clock });
  return createSessionService({
    eventStore,
    systemState: createSystemStateSource({ eventStore }),
    clock: world.clock,
    log: pino({ level: 'silent' }),
    accessTokens,
    newId,
    config: { jwtSecret: AUTH_TEST_SECRET, refreshTokenTtlDays: 7, familyMaxAgeDays: 30, graceMs: 30_000 },
    ...extra,
  });
}

async function revocations(familyId: string): Promise<unknown[]> {
  return (await world.store.readStream(sessionStreamId(familyId))).filter((e) => e.type === 'RefreshFamilyRevoked').map((e) => e.data);
}

describe('logout (auth.md §7.3)', () => {
  test('by refresh token: the family is revoked, its tokens and access tokens die', async () => {
    const login = await world.login('alice');
    await world.service.sessions.logout({ refreshToken: login.refreshToken, credentials: none });
    assert.deepEqual(await revocations(login.familyId), [{ reason: 'logout' }]);
    await refused(world.service.sessions.refresh(login.refreshToken), 'REFRESH_TOKEN_INVALID');
    await refused(world.service.authenticator.authenticate(bearer(login.accessToken)), 'TOKEN_REVOKED');
    assert.ok(world.lines.some((line) => line.audit === true && line.event === 'logout' && line.revoked === true));
    const other = await world.login('alice');
    assert.equal((await world.service.authenticator.authenticate(bearer(other.accessToken))).kind, 'user', 'other families stay valid');
  });

  test("by the access token's sid when no refresh token is usable", async () => {
    const login = await world.login('alice');
    await world.service.sessions.logout({ refreshToken: 'not-a-token', credentials: bearer(login.accessToken) });
    assert.deepEqual(await revocations(login.familyId), [{ reason: 'logout' }]);
    await refused(world.service.sessions.refresh(login.refreshToken), 'REFRESH_TOKEN_INVALID');
  });

  test('never fails: garbage, ambiguous credentials, an unreachable store', async () => {
    const login = await world.login('alice');
    const head = await world.store.headPosition();
    await world.service.sessions.logout({ refreshToken: 'garbage', credentials: { ...none, authorization: 'Basic x', apiKeyHeader: 'y' } });
    await world.service.sessions.logout({ refreshToken: null, credentials: none });
    assert.equal(await world.store.headPosition(), head);
    const broken = { ...world.store, headPosition: () => Promise.reject(new Error('disk gone')) } as EventStore;
    await sessionsOver(broken).logout({ refreshToken: login.refreshToken, credentials: none });
    assert.deepEqual(await revocations(login.familyId), []);
  });
});

describe('logout-all', () => {
  test('needs a user JWT', async () => {
    await refused(world.service.sessions.logoutAll({ kind: 'anonymous' }), 'UNAUTHENTICATED');
    const key = { keyId: 'k', organizationId: null, projectIds: null, branchNames: null, tableIds: null, readOnly: false };
    const viaKey: Principal = { kind: 'user', userId: 'u-alice', username: 'alice', via: 'personalKey', sid: null, key };
    await refused(world.service.sessions.logoutAll(viaKey), 'FORBIDDEN');
    await refused(world.service.sessions.logoutAll({ kind: 'service', keyId: 'k', organizationId: 'o', rules: [], key }), 'FORBIDDEN');
  });

  test('revokes every family and access token of the user; a new login works', async () => {
    const first = await world.login('alice');
    const second = await world.login('alice');
    const principal = await world.service.authenticator.authenticate(bearer(first.accessToken));
    const { position } = await world.service.sessions.logoutAll(principal);
    assert.equal(position, await world.store.headPosition());
    for (const login of [first, second]) {
      await refused(world.service.sessions.refresh(login.refreshToken), 'REFRESH_TOKEN_INVALID');
      await refused(world.service.authenticator.authenticate(bearer(login.accessToken)), 'TOKEN_REVOKED');
    }
    assert.ok(world.lines.some((line) => line.audit === true && line.event === 'logout.all' && line.userId === 'u-alice'));
    const fresh = await world.login('alice');
    assert.equal((await world.service.sessions.refresh(fresh.refreshToken)).kind, 'rotated');
  });
});

describe('rows 8 (exhausted) and 9, metrics', () => {
  test('a rotation that keeps conflicting gives REFRESH_IN_PROGRESS after 3 attempts, without clearing cookies', async () => {
    const login = await world.login('alice');
    let attempts = 0;
    const conflicting = {
      ...world.store,
      append: async (streamId: string) => {
        attempts += 1;
        throw new StreamConflictError(streamId, 0, 1);
      },
    } as EventStore;
    await assert.rejects(sessionsOver(conflicting).refresh(login.refreshToken), (err: unknown) => {
      assert.ok(isAppError(err, 'REFRESH_IN_PROGRESS'));
      assert.equal(clearsSessionCookies(err), false);
      return true;
    });
    assert.equal(attempts, 3);
  });

  test('an unreachable store is SERVICE_UNAVAILABLE without clearing cookies', async () => {
    const login = await world.login('alice');
    const broken = { ...world.store, headPosition: () => Promise.reject(new Error('disk gone')) } as EventStore;
    await assert.rejects(sessionsOver(broken).refresh(login.refreshToken), (err: unknown) => {
      assert.ok(isAppError(err, 'SERVICE_UNAVAILABLE'));
      assert.equal(clearsSessionCookies(err), false);
      return true;
    });
  });

  test('outcomes are counted: rotated, duplicate, reused, invalid', async () => {
    const outcomes: RefreshOutcome[] = [];
    const sessions = sessionsOver(world.store, { onRefreshOutcome: (outcome) => outcomes.push(outcome) });
    const login = await world.login('alice');
    await sessions.refresh(login.refreshToken);
    await sessions.refresh(login.refreshToken);
    world.clock.ms += 30_001;
    await refused(sessions.refresh(login.refreshToken), 'REFRESH_TOKEN_REUSED');
    await refused(sessions.refresh('junk'), 'REFRESH_TOKEN_INVALID');
    await refused(sessions.refresh(null), 'REFRESH_TOKEN_MISSING');
    assert.deepEqual(outcomes, ['rotated', 'duplicate', 'reused', 'invalid', 'invalid']);
  });
});
