import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { createCookieJar, type CookieJar, type SetCookie } from './support/cookieJar.ts';
import { ADMIN_PASSWORD, expectRestError, gqlFailure, gqlOk, startAuthServer, type AuthServer, type HttpReply } from './support/authServer.ts';

// Browser sessions over HTTP with a real cookie jar (auth.md §3, §4, §7, §11, §12; system-api.md §4.1).
const GRACE_MS = 1500;
let server: AuthServer;
let adminToken: string;

before(async () => {
  server = await startAuthServer({ JWT_REFRESH_GRACE_PERIOD_MS: String(GRACE_MS) });
  adminToken = (await server.login('admin', ADMIN_PASSWORD)).accessToken;
});
after(() => server.close());

const refresh = (jar: CookieJar, headers: Record<string, string> = {}) => server.call('POST', '/api/auth/refresh', { jar, headers });
const me = (options: { jar?: CookieJar; token?: string }) => server.call('GET', '/api/me', options);
const byName = (reply: HttpReply): Map<string, SetCookie> => new Map(reply.cookies.map((cookie) => [cookie.name, cookie]));

function assertSessionCookies(reply: HttpReply, sameSite = 'Lax', secure = false): Map<string, SetCookie> {
  const cookies = byName(reply);
  assert.deepEqual([...cookies.keys()].sort(), ['svc_at', 'svc_rt', 'svc_session'], reply.cookies.map((c) => c.raw).join('\n'));
  const at = cookies.get('svc_at')!;
  const rt = cookies.get('svc_rt')!;
  const hint = cookies.get('svc_session')!;
  assert.deepEqual([at.path, at.httpOnly, at.maxAge], ['/', true, 1800]);
  assert.deepEqual([rt.path, rt.httpOnly], ['/api/auth/', true]);
  assert.ok(rt.maxAge !== null && rt.maxAge > 7 * 86400 - 60 && rt.maxAge <= 7 * 86400, String(rt.maxAge));
  assert.deepEqual([hint.value, hint.path, hint.httpOnly, hint.maxAge], ['1', '/', false, rt.maxAge]);
  for (const cookie of cookies.values()) {
    assert.deepEqual([cookie.sameSite, cookie.secure, cookie.domain], [sameSite, secure, null], cookie.raw);
    assert.notEqual(cookie.value, '');
  }
  return cookies;
}

function assertCleared(reply: HttpReply, sameSite = 'Lax', secure = false): void {
  const cookies = byName(reply);
  assert.deepEqual([...cookies.keys()].sort(), ['svc_at', 'svc_rt', 'svc_session'], reply.cookies.map((c) => c.raw).join('\n'));
  const paths = { svc_at: '/', svc_rt: '/api/auth/', svc_session: '/' } as Record<string, string>;
  for (const cookie of cookies.values()) {
    assert.deepEqual(
      [cookie.value, cookie.path, cookie.maxAge, cookie.expires, cookie.sameSite, cookie.secure, cookie.domain],
      ['', paths[cookie.name], 0, 'Thu, 01 Jan 1970 00:00:00 GMT', sameSite, secure, null],
      cookie.raw,
    );
  }
}

describe('login cookies', () => {
  test('REST and GraphQL login set svc_at, svc_rt and svc_session with the attributes of auth.md §4', async () => {
    const jar = createCookieJar();
    const rest = await server.call('POST', '/api/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD }, jar });
    assert.equal(rest.status, 200, rest.text);
    assert.deepEqual(Object.keys(rest.body).sort(), ['accessToken', 'expiresIn']);
    assert.equal(rest.body.expiresIn, 1800);
    const cookies = assertSessionCookies(rest);
    assert.equal(cookies.get('svc_at')?.value, rest.body.accessToken);
    assert.equal(gqlOk(await server.gql('{ me { username } }', { jar })).me.username, 'admin');
    assert.equal((await me({ jar })).body.username, 'admin');

    const mutation = `mutation { login(data: { username: "admin", password: "${ADMIN_PASSWORD}" }) { accessToken expiresIn } }`;
    const graphql = await server.gql(mutation);
    assert.equal(gqlOk(graphql).login.expiresIn, 1800);
    assertSessionCookies(graphql);
  });

  test('login ignores explicit credentials and svc_at; it never reuses a presented svc_rt', async () => {
    const jar = createCookieJar();
    jar.put('svc_at', 'garbage');
    jar.put('svc_rt', 'garbage.token', '/api/auth/');
    const reply = await server.call('POST', '/api/auth/login', {
      body: { username: 'admin', password: ADMIN_PASSWORD },
      jar,
      headers: { Authorization: 'Bearer not-a-jwt', 'X-Api-Key': 'svc_nope' },
    });
    assert.equal(reply.status, 200, reply.text);
    assert.notEqual(assertSessionCookies(reply).get('svc_rt')?.value, 'garbage.token');
    // The GraphQL login mutation alike: a stale svc_at or a bad header does not block signing in.
    const stale = createCookieJar();
    stale.put('svc_at', 'garbage');
    const mutation = `mutation SignIn { login(data: { username: "admin", password: "${ADMIN_PASSWORD}" }) { expiresIn } }`;
    const graphql = await server.gql(mutation, { jar: stale, headers: { Authorization: 'Bearer not-a-jwt' } });
    assert.equal(gqlOk(graphql).login.expiresIn, 1800);
    assertSessionCookies(graphql);
    // A document doing anything besides login still needs valid credentials.
    const login = `login(data: { username: "admin", password: "${ADMIN_PASSWORD}" }) { expiresIn }`;
    const garbage = { headers: { Cookie: 'svc_at=garbage' } };
    const mixed = await server.gql(`mutation { ${login} deleteEndpoint(data: { endpointId: "x" }) }`, garbage);
    assert.deepEqual(gqlFailure(mixed), [401, 'TOKEN_INVALID', false]);
    assert.deepEqual(gqlFailure(await server.gql('{ me { id } }', garbage)), [401, 'TOKEN_INVALID', false]);
  });
});

describe('refresh (auth.md §7.2)', () => {
  test('rotates: 200 {expiresIn}, three new cookies, explicit credentials ignored', async () => {
    const { jar } = await server.login('admin', ADMIN_PASSWORD);
    const before = jar.get('svc_rt')!.value;
    const reply = await refresh(jar, { Authorization: 'Bearer garbage' });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.body, { expiresIn: 1800 });
    const cookies = assertSessionCookies(reply);
    assert.notEqual(cookies.get('svc_rt')?.value, before);
    assert.equal((await me({ jar })).status, 200);
    assert.equal((await me({ token: cookies.get('svc_at')!.value })).status, 200);
  });

  test('a duplicate within the grace period gets the byte-identical successor and revokes nothing', async () => {
    const { jar } = await server.login('admin', ADMIN_PASSWORD);
    const old = jar.get('svc_rt')!.value;
    const first = byName(await refresh(jar));
    const successor = first.get('svc_rt')!;
    const replay = createCookieJar();
    replay.put('svc_rt', old, '/api/auth/');
    const second = await refresh(replay);
    assert.equal(second.status, 200, second.text);
    const again = assertSessionCookies(second);
    assert.equal(again.get('svc_rt')?.value, successor.value);
    assert.ok(again.get('svc_rt')!.maxAge! <= successor.maxAge!);
    assert.equal((await me({ jar: replay })).status, 200);
    // Nothing was revoked: the successor is still current and rotates normally.
    const third = await refresh(jar);
    assert.equal(third.status, 200, third.text);
    assert.notEqual(byName(third).get('svc_rt')?.value, successor.value);
  });

  test('reuse after the grace period revokes the family, clears the cookies and kills its access tokens', async () => {
    const { jar, accessToken } = await server.login('admin', ADMIN_PASSWORD);
    const old = jar.get('svc_rt')!.value;
    const rotated = byName(await refresh(jar));
    await sleep(GRACE_MS + 300);
    const thief = createCookieJar();
    thief.put('svc_rt', old, '/api/auth/');
    const reuse = await refresh(thief);
    expectRestError(reuse, 401, 'REFRESH_TOKEN_REUSED');
    assertCleared(reuse);
    for (const token of [accessToken, rotated.get('svc_at')!.value]) expectRestError(await me({ token }), 401, 'TOKEN_REVOKED');
    const legit = await refresh(jar);
    expectRestError(legit, 401, 'REFRESH_TOKEN_INVALID');
    assertCleared(legit);
  });

  test('no svc_rt or a garbage one: 401 and the cookies cleared', async () => {
    const missing = await refresh(createCookieJar());
    expectRestError(missing, 401, 'REFRESH_TOKEN_MISSING');
    assertCleared(missing);
    const jar = createCookieJar();
    jar.put('svc_rt', 'AAAAAAAAAAAAAAAAAAAAAA.not-a-mac', '/api/auth/');
    const garbage = await refresh(jar);
    expectRestError(garbage, 401, 'REFRESH_TOKEN_INVALID');
    assertCleared(garbage);
  });
});

describe('logout and logout-all (auth.md §7.3)', () => {
  test('logout revokes the family of svc_rt, clears the cookies and answers 204', async () => {
    const { jar, accessToken } = await server.login('admin', ADMIN_PASSWORD);
    const rt = jar.get('svc_rt')!.value;
    const reply = await server.call('POST', '/api/auth/logout', { jar });
    assert.equal(reply.status, 204);
    assert.equal(reply.text, '');
    assertCleared(reply);
    assert.deepEqual(jar.names(), []);
    const replay = createCookieJar();
    replay.put('svc_rt', rt, '/api/auth/');
    expectRestError(await refresh(replay), 401, 'REFRESH_TOKEN_INVALID');
    expectRestError(await me({ token: accessToken }), 401, 'TOKEN_REVOKED');
  });

  test('logout finds the family by a bearer JWT, and never fails on garbage', async () => {
    const { accessToken } = await server.login('admin', ADMIN_PASSWORD);
    const bearer = await server.call('POST', '/api/auth/logout', { token: accessToken });
    assert.equal(bearer.status, 204);
    expectRestError(await me({ token: accessToken }), 401, 'TOKEN_REVOKED');
    const jar = createCookieJar();
    jar.put('svc_rt', 'garbage', '/api/auth/');
    jar.put('svc_at', 'garbage');
    const garbage = await server.call('POST', '/api/auth/logout?api_key=a&api_key=b', { jar, headers: { Authorization: 'Basic x' } });
    assert.equal(garbage.status, 204);
    assertCleared(garbage);
  });

  test('logout-all needs a user JWT: API key 403, anonymous 401; it ends every session of the user', async () => {
    await server.createUser(adminToken, 'lou', 'lou-password-1');
    const first = await server.login('lou', 'lou-password-1');
    const second = await server.login('lou', 'lou-password-1');
    const key = await server.call('POST', '/api/api-keys/personal', { token: first.accessToken, body: { name: 'lou-key' } });
    assert.equal(key.status, 201, key.text);
    const byKey = await server.call('POST', '/api/auth/logout-all', { headers: { 'X-Api-Key': key.body.secret } });
    expectRestError(byKey, 403, 'FORBIDDEN');
    assert.deepEqual(byKey.cookies, []);
    expectRestError(await server.call('POST', '/api/auth/logout-all'), 401, 'UNAUTHENTICATED');

    const reply = await server.call('POST', '/api/auth/logout-all', { jar: first.jar });
    assert.equal(reply.status, 204, reply.text);
    assertCleared(reply);
    expectRestError(await me({ token: second.accessToken }), 401, 'TOKEN_REVOKED');
    expectRestError(await refresh(second.jar), 401, 'REFRESH_TOKEN_INVALID');
    // API keys are not sessions: they keep working.
    assert.equal((await me({ token: key.body.secret })).status, 200);
  });
});

describe('access tokens for JWT sessions (auth.md §11)', () => {
  test('REST access-token and GraphQL issueAccessToken: JWT users only; the token carries the session', async () => {
    const { jar } = await server.login('admin', ADMIN_PASSWORD);
    const rest = await server.call('POST', '/api/auth/access-token', { jar });
    assert.equal(rest.status, 200, rest.text);
    assert.deepEqual(Object.keys(rest.body).sort(), ['accessToken', 'expiresIn']);
    assert.deepEqual(rest.cookies, []);
    const issued = gqlOk(await server.gql('{ issueAccessToken { accessToken expiresIn } }', { token: rest.body.accessToken })).issueAccessToken;
    assert.equal(issued.expiresIn, 1800);
    assert.equal((await me({ token: issued.accessToken })).status, 200);

    const key = await server.call('POST', '/api/api-keys/personal', { token: adminToken, body: { name: 'token-key' } });
    const keyHeaders = { headers: { 'X-Api-Key': key.body.secret as string } };
    const refused = await server.call('POST', '/api/auth/access-token', keyHeaders);
    expectRestError(refused, 403, 'FORBIDDEN');
    assert.equal(refused.body.message, 'Access tokens can only be issued for JWT-authenticated sessions');
    const gqlRefused = await server.gql('{ issueAccessToken { accessToken } }', keyHeaders);
    assert.deepEqual(gqlFailure(gqlRefused), [200, 'FORBIDDEN', true]);
    expectRestError(await server.call('POST', '/api/auth/access-token'), 401, 'UNAUTHENTICATED');
    assert.deepEqual(gqlFailure(await server.gql('{ issueAccessToken { accessToken } }')), [200, 'UNAUTHENTICATED', true]);

    // Logging out of the session kills the tokens issued for it.
    assert.equal((await server.call('POST', '/api/auth/logout', { jar })).status, 204);
    expectRestError(await me({ token: issued.accessToken }), 401, 'TOKEN_REVOKED');
  });
});

describe('password changes', () => {
  test('PUT /api/me/password and updatePassword clear the caller cookies', async () => {
    await server.createUser(adminToken, 'pat', 'pat-password-1');
    const { jar } = await server.login('pat', 'pat-password-1');
    server.remember('pat-password-2', 'pat-password-3');
    const rest = await server.call('PUT', '/api/me/password', { jar, body: { oldPassword: 'pat-password-1', newPassword: 'pat-password-2' } });
    assert.equal(rest.status, 200, rest.text);
    assert.deepEqual(rest.body, { success: true });
    assertCleared(rest);

    const again = await server.login('pat', 'pat-password-2');
    const mutation = 'mutation($d: UpdatePasswordInput!) { updatePassword(data: $d) }';
    const graphql = await server.gql(mutation, {
      jar: again.jar,
      variables: { d: { oldPassword: 'pat-password-2', newPassword: 'pat-password-3' } },
    });
    assert.equal(gqlOk(graphql).updatePassword, true);
    assertCleared(graphql);
    expectRestError(await me({ token: again.accessToken }), 401, 'TOKEN_REVOKED');
  });
});

describe('COOKIE_SECURE=true and COOKIE_SAMESITE=none', () => {
  test('every cookie carries Secure and SameSite=None, set and cleared', async () => {
    const secure = await startAuthServer({ COOKIE_SECURE: 'true', COOKIE_SAMESITE: 'none' });
    try {
      const jar = createCookieJar();
      const login = await secure.call('POST', '/api/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD }, jar });
      assertSessionCookies(login, 'None', true);
      assertSessionCookies(await secure.call('POST', '/api/auth/refresh', { jar }), 'None', true);
      assertCleared(await secure.call('POST', '/api/auth/logout', { jar }), 'None', true);
      secure.assertNoSecretsLogged();
    } finally {
      await secure.close();
    }
  });
});

test('no password, refresh token, access token or key secret appears in any log line', () => {
  server.assertNoSecretsLogged();
});
