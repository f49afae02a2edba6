import assert from 'node:assert/strict';
import { createHmac, createSign, generateKeyPairSync } from 'node:crypto';
import { describe, test } from 'node:test';
import jwt from 'jsonwebtoken';
import { isAppError } from '../../contracts/index.ts';
import type { ErrorCode } from '../../contracts/index.ts';
import { givenState } from '../testing/systemDeciderSpec.ts';
import { userEvents } from '../testing/systemFixtures.ts';
import { createAccessTokens } from './jwt.ts';

const secret = 'a-test-secret-that-is-at-least-32-bytes-long';
const NOW = 1_800_000_000; // seconds
const clock = { now: () => NOW * 1000 };
const tokens = createAccessTokens({ secret, ttlSeconds: 1800, clock });
const user = { id: 'u1', username: 'alice', tokenVersion: 0 };

const goodClaims = { iss: 'strata', aud: 'strata', sub: 'u1', username: 'alice', sid: 's1', ver: 0, jti: 'j1', iat: NOW, exp: NOW + 1800 };
/** Signs any header/claims (jsonwebtoken.sign would validate or rewrite some of them). */
function signed(
  claims: Record<string, unknown> = goodClaims,
  header: Record<string, unknown> = { typ: 'at+jwt' },
  algorithm = 'HS256',
  key: string = secret,
): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${encode({ alg: algorithm, ...header })}.${encode(claims)}`;
  if (algorithm === 'RS256') return `${input}.${createSign('RSA-SHA256').update(input).sign(key).toString('base64url')}`;
  const digest = algorithm === 'HS384' ? 'sha384' : 'sha256';
  return `${input}.${createHmac(digest, key).update(input).digest('base64url')}`;
}
function without(claim: string): Record<string, unknown> {
  const { [claim]: _dropped, ...rest } = goodClaims as Record<string, unknown>;
  return rest;
}
function rejects(token: string, code: ErrorCode): void {
  assert.throws(
    () => tokens.verify(token),
    (err: unknown) => isAppError(err, code),
  );
}

describe('access tokens: issue', () => {
  test('header and claims of auth.md §5', () => {
    const token = tokens.issue(user, 'sid-1');
    const decoded = jwt.decode(token, { complete: true });
    assert.ok(decoded && typeof decoded.payload === 'object');
    assert.deepEqual(decoded.header, { alg: 'HS256', typ: 'at+jwt' });
    const { jti, ...rest } = decoded.payload as Record<string, unknown>;
    assert.match(String(jti), /^[0-9a-f-]{36}$/);
    assert.deepEqual(rest, { iss: 'strata', aud: 'strata', sub: 'u1', username: 'alice', sid: 'sid-1', ver: 0, iat: NOW, exp: NOW + 1800 });
    assert.equal(tokens.verify(token).sid, 'sid-1');
  });
  test('refuses a secret shorter than 32 bytes', () => {
    assert.throws(() => createAccessTokens({ secret: 'short', ttlSeconds: 60, clock }));
  });
});

describe('access tokens: verification', () => {
  test('algorithm pinned to HS256', () => {
    const payload = signed().split('.')[1];
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${payload}.`;
    rejects(none, 'TOKEN_INVALID');
    rejects(signed(goodClaims, { typ: 'at+jwt' }, 'HS384'), 'TOKEN_INVALID');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    rejects(signed(goodClaims, { typ: 'at+jwt' }, 'RS256', privateKey.export({ type: 'pkcs1', format: 'pem' }) as string), 'TOKEN_INVALID');
  });
  test('signature, typ, iss and aud', () => {
    rejects(signed(goodClaims, {}, 'HS256', 'another-secret-that-is-32-bytes-long!!'), 'TOKEN_INVALID');
    rejects(signed(goodClaims, { typ: 'JWT' }), 'TOKEN_INVALID');
    rejects(signed({ ...goodClaims, iss: 'other' }), 'TOKEN_INVALID');
    rejects(signed({ ...goodClaims, aud: 'other' }), 'TOKEN_INVALID');
    rejects(signed({ ...goodClaims, aud: ['strata'] }), 'TOKEN_INVALID');
    rejects('not.a.jwt', 'TOKEN_INVALID');
    rejects('', 'TOKEN_INVALID');
  });
  test('every claim present with its type', () => {
    for (const claim of ['iss', 'aud', 'sub', 'username', 'sid', 'ver', 'jti', 'iat', 'exp']) rejects(signed(without(claim)), 'TOKEN_INVALID');
    rejects(signed({ ...goodClaims, ver: '0' }), 'TOKEN_INVALID');
    rejects(signed({ ...goodClaims, ver: 1.5 }), 'TOKEN_INVALID');
    rejects(signed({ ...goodClaims, sub: 42 }), 'TOKEN_INVALID');
    rejects(signed({ ...goodClaims, sid: '' }), 'TOKEN_INVALID');
    rejects(signed({ ...goodClaims, nbf: 'soon' }), 'TOKEN_INVALID');
  });
  test('30 s tolerance on exp, iat and nbf', () => {
    assert.equal(tokens.verify(signed({ ...goodClaims, exp: NOW - 29 })).sub, 'u1');
    rejects(signed({ ...goodClaims, exp: NOW - 30 }), 'TOKEN_EXPIRED');
    assert.equal(tokens.verify(signed({ ...goodClaims, iat: NOW + 30 })).sub, 'u1');
    rejects(signed({ ...goodClaims, iat: NOW + 31 }), 'TOKEN_INVALID');
    assert.equal(tokens.verify(signed({ ...goodClaims, nbf: NOW + 30 })).sub, 'u1');
    rejects(signed({ ...goodClaims, nbf: NOW + 31 }), 'TOKEN_INVALID');
  });
  test('a bad signature wins over expiry', () => {
    rejects(signed({ ...goodClaims, exp: NOW - 3600 }, {}, 'HS256', 'another-secret-that-is-32-bytes-long!!'), 'TOKEN_INVALID');
  });
});

describe('access tokens: revocation', () => {
  const state = givenState(userEvents('u1', 'alice'));
  const authenticate = (token: string, revoked = false) =>
    createAccessTokens({ secret, ttlSeconds: 1800, clock, isFamilyRevoked: () => revoked }).authenticate(token, state);
  const fails = async (promise: Promise<unknown>, code: ErrorCode) => assert.rejects(promise, (err: unknown) => isAppError(err, code));

  test('current user and version pass', async () => {
    assert.equal((await authenticate(signed())).user.username, 'alice');
  });
  test('stale version, deactivated user, revoked family', async () => {
    await fails(authenticate(signed({ ...goodClaims, ver: 1 })), 'TOKEN_REVOKED');
    await fails(authenticate(signed(), true), 'TOKEN_REVOKED');
    const deactivated = givenState([...userEvents('u1', 'alice'), { type: 'UserDeactivated', data: { userId: 'u1' } }]);
    await fails(tokens.authenticate(signed({ ...goodClaims, ver: 1 }), deactivated), 'TOKEN_REVOKED');
    await fails(tokens.authenticate(signed({ ...goodClaims, sub: 'u-unknown' }), state), 'TOKEN_INVALID');
  });
});

describe('access tokens: verified tokens kept per process', () => {
  test('a token verified once is still checked for expiry and not-before on every use', () => {
    let now = NOW;
    const moving = createAccessTokens({ secret, ttlSeconds: 1800, clock: { now: () => now * 1000 } });
    const token = signed({ ...goodClaims, nbf: NOW + 100 });
    now = NOW + 100;
    assert.equal(moving.verify(token).sub, 'u1');
    now = NOW - 100;
    assert.throws(
      () => moving.verify(token),
      (err: unknown) => isAppError(err, 'TOKEN_INVALID'),
    );
    now = NOW + 1800 + 60;
    assert.throws(
      () => moving.verify(token),
      (err: unknown) => isAppError(err, 'TOKEN_EXPIRED'),
    );
  });
  test('a refused token is refused again (failures are never kept)', () => {
    const forged = `${signed().slice(0, -4)}AAAA`;
    rejects(forged, 'TOKEN_INVALID');
    rejects(forged, 'TOKEN_INVALID');
    assert.equal(tokens.verify(signed()).sub, 'u1');
  });
});
