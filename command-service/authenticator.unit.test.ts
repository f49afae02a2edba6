import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { pino } from 'pino';
import { isAppError } from '../contracts/index.ts';
import type { ErrorCode, PresentedCredentials, Principal, SystemState } from '../contracts/index.ts';
import { givenState } from './testing/systemDeciderSpec.ts';
import { userEvents } from './testing/systemFixtures.ts';
import { createAuthenticator } from './authenticator.ts';
import type { AuthenticatorOptions } from './authenticator.ts';
import { hashPassword } from './sessions/passwords.ts';

const secret = 'a-test-secret-that-is-at-least-32-bytes-long';
const KEY = 'svc_0123456789abcdefghijkl';
let state: SystemState;

before(async () => {
  const passwordHash = await hashPassword('alice-password');
  const withHash = userEvents('u-alice', 'alice').map((event) =>
    event.type === 'UserCreated' ? { ...event, data: { ...event.data, passwordHash } } : event,
  );
  const bob = userEvents('u-bob', 'bob').map((event) => (event.type === 'UserCreated' ? { ...event, data: { ...event.data, passwordHash } } : event));
  state = givenState([...withHash, ...bob, { type: 'UserDeactivated', data: { userId: 'u-bob' } }]);
});

function setup(overrides: Partial<AuthenticatorOptions> = {}) {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  const clock = { ms: 1_800_000_000_000, now: () => clock.ms };
  let ids = 0;
  const authenticator = createAuthenticator({
    systemState: { current: async () => state },
    jwtSecret: secret,
    accessTokenTtlSeconds: 1800,
    loginThrottle: { maxFailures: 2, maxFailuresPerIp: 3, windowMs: 60_000 },
    clock,
    log,
    newId: () => `fam-${++ids}`,
    ...overrides,
  });
  return { authenticator, clock, lines };
}

const none: PresentedCredentials = { authorization: null, apiKeyHeader: null, apiKeyQuery: null, accessTokenCookies: [] };
const creds = (c: Partial<PresentedCredentials>): PresentedCredentials => ({ ...none, ...c });
const fails = (promise: Promise<unknown>, code: ErrorCode) => assert.rejects(promise, (err: unknown) => isAppError(err, code));

describe('authenticate: credential precedence (auth.md §2)', () => {
  test('no credential is anonymous; a JWT by header or cookie is the user', async () => {
    const { authenticator } = setup();
    assert.deepEqual(await authenticator.authenticate(none), { kind: 'anonymous' });
    const token = authenticator.accessTokens.issue(state.users.get('u-alice')!, 'sid-9');
    assert.deepEqual(await authenticator.authenticate(creds({ authorization: `Bearer ${token}` })), {
      kind: 'user',
      userId: 'u-alice',
      username: 'alice',
      via: 'jwt',
      sid: 'sid-9',
      key: null,
    });
    const viaCookie = await authenticator.authenticate(creds({ accessTokenCookies: [token] }));
    assert.equal(viaCookie.kind === 'user' && viaCookie.via, 'cookie');
    const lowerCase = await authenticator.authenticate(creds({ authorization: `bearer ${token}` }));
    assert.equal(lowerCase.kind, 'user');
    // An explicit credential wins and the cookie is ignored, even a broken one.
    const explicit = await authenticator.authenticate(creds({ authorization: `Bearer ${token}`, accessTokenCookies: ['junk', 'junk2'] }));
    assert.equal(explicit.kind === 'user' && explicit.via, 'jwt');
  });
  test('different explicit credentials are ambiguous; the same key twice counts once', async () => {
    const { authenticator } = setup();
    await fails(authenticator.authenticate(creds({ authorization: 'Bearer abc', apiKeyHeader: KEY })), 'AMBIGUOUS_CREDENTIALS');
    await fails(authenticator.authenticate(creds({ apiKeyHeader: KEY, apiKeyQuery: `${KEY.slice(0, -1)}X` })), 'AMBIGUOUS_CREDENTIALS');
    await fails(authenticator.authenticate(creds({ authorization: `Bearer ${KEY}`, apiKeyHeader: KEY, apiKeyQuery: KEY })), 'API_KEY_INVALID');
  });
  test('malformed Authorization is TOKEN_INVALID; malformed keys are API_KEY_INVALID', async () => {
    const { authenticator } = setup();
    for (const authorization of ['Basic abc', 'Bearer', 'Bearer ', 'Bearer  two-spaces', 'Token abc', 'Bearer a b']) {
      await fails(authenticator.authenticate(creds({ authorization })), 'TOKEN_INVALID');
    }
    await fails(authenticator.authenticate(creds({ authorization: 'Bearer not-a-jwt' })), 'TOKEN_INVALID');
    await fails(authenticator.authenticate(creds({ authorization: 'Bearer svc_short' })), 'API_KEY_INVALID');
    await fails(authenticator.authenticate(creds({ apiKeyHeader: 'svc_short' })), 'API_KEY_INVALID');
    await fails(authenticator.authenticate(creds({ apiKeyQuery: 'eyJhbGciOi' })), 'API_KEY_INVALID');
  });
  test('cookies: two are TOKEN_INVALID, a bad one is never downgraded to anonymous', async () => {
    const { authenticator } = setup();
    const token = authenticator.accessTokens.issue(state.users.get('u-alice')!, 'sid-9');
    await fails(authenticator.authenticate(creds({ accessTokenCookies: [token, token] })), 'TOKEN_INVALID');
    await fails(authenticator.authenticate(creds({ accessTokenCookies: ['junk'] })), 'TOKEN_INVALID');
  });
  test('well-formed keys go to the resolveApiKey hook (default: unknown)', async () => {
    const service: Principal = { kind: 'anonymous' };
    const { authenticator } = setup({ resolveApiKey: async (key) => (key === KEY ? service : null) });
    assert.equal(await authenticator.authenticate(creds({ apiKeyHeader: KEY })), service);
    await fails(authenticator.authenticate(creds({ apiKeyHeader: 'svc_ABCDEFGHIJKLMNOPQRSTUV' })), 'API_KEY_INVALID');
  });
});

describe('login (auth.md §3)', () => {
  const login = (a: ReturnType<typeof setup>['authenticator'], username: string, password: string, clientIp = '10.0.0.1') =>
    a.login({ username, password, clientIp });

  test('success returns a verifiable token of a new family and logs an audit line without the password', async () => {
    const { authenticator, lines } = setup();
    const result = await login(authenticator, 'alice', 'alice-password');
    assert.equal(result.expiresIn, 1800);
    assert.equal(result.familyId, 'fam-1');
    assert.equal(authenticator.accessTokens.verify(result.accessToken).sid, 'fam-1');
    const audit = lines.find((line) => line.audit === true);
    assert.equal(audit?.event, 'login.success');
    assert.equal(audit?.username, 'alice');
    assert.equal(audit?.ip, '10.0.0.1');
    assert.ok(!JSON.stringify(lines).includes('alice-password'));
  });
  test('unknown user, wrong password, deactivated user and wrong case: one error', async () => {
    const { authenticator, lines } = setup({ loginThrottle: { maxFailures: 10, maxFailuresPerIp: 10, windowMs: 60_000 } });
    const messages = new Set<string>();
    for (const [username, password] of [
      ['nobody', 'x'],
      ['alice', 'wrong'],
      ['bob', 'alice-password'],
      ['Alice', 'alice-password'],
    ] as const) {
      await assert.rejects(login(authenticator, username, password), (err: unknown) => {
        assert.ok(isAppError(err, 'INVALID_CREDENTIALS'));
        messages.add(err.message);
        return true;
      });
    }
    assert.equal(messages.size, 1);
    assert.equal(lines.filter((line) => line.event === 'login.failure').length, 4);
    assert.ok(!JSON.stringify(lines).includes('alice-password'));
  });
  test('throttled per (username, ip) until the window passes; a success resets the pair', async () => {
    const { authenticator, clock } = setup();
    await fails(login(authenticator, 'alice', 'bad'), 'INVALID_CREDENTIALS');
    await login(authenticator, 'alice', 'alice-password');
    await fails(login(authenticator, 'alice', 'bad'), 'INVALID_CREDENTIALS');
    await fails(login(authenticator, 'ALICE', 'bad'), 'INVALID_CREDENTIALS');
    await assert.rejects(login(authenticator, 'alice', 'alice-password'), (err: unknown) => {
      assert.ok(isAppError(err, 'RATE_LIMITED'));
      assert.equal(err.headers?.['Retry-After'], '60');
      return true;
    });
    await login(authenticator, 'alice', 'alice-password', '10.0.0.2');
    clock.ms += 60_000;
    await login(authenticator, 'alice', 'alice-password');
  });
  test('throttled per ip across usernames', async () => {
    const { authenticator, clock } = setup();
    for (const username of ['u1', 'u2', 'u3']) await fails(login(authenticator, username, 'bad'), 'INVALID_CREDENTIALS');
    clock.ms += 30_500;
    await assert.rejects(login(authenticator, 'alice', 'alice-password'), (err: unknown) => {
      assert.ok(isAppError(err, 'RATE_LIMITED'));
      assert.equal(err.headers?.['Retry-After'], '30');
      return true;
    });
    await login(authenticator, 'alice', 'alice-password', '10.0.0.9');
  });
});

describe('issueAccessToken (auth.md §11)', () => {
  test('only JWT users, with their sid', async () => {
    const { authenticator } = setup();
    await fails(authenticator.issueAccessToken({ kind: 'anonymous' }), 'UNAUTHENTICATED');
    const viaKey: Principal = { kind: 'user', userId: 'u-alice', username: 'alice', via: 'personalKey', sid: null, key: null };
    await fails(authenticator.issueAccessToken(viaKey), 'FORBIDDEN');
    const viaCookie: Principal = { ...viaKey, via: 'cookie', sid: 'fam-7' };
    const { accessToken, expiresIn } = await authenticator.issueAccessToken(viaCookie);
    assert.equal(expiresIn, 1800);
    assert.equal(authenticator.accessTokens.verify(accessToken).sid, 'fam-7');
  });
});
