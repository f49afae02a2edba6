import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ADMIN_PASSWORD, expectRestError, startAuthServer, type AuthServer } from './support/authServer.ts';

// Login throttling (auth.md §3): per (username, IP) after LOGIN_MAX_FAILURES failures, every further attempt for
// the pair — correct or not — is 429 RATE_LIMITED with Retry-After; REST and GraphQL share the counters.
let server: AuthServer;

before(async () => {
  server = await startAuthServer({ LOGIN_MAX_FAILURES: '2', LOGIN_WINDOW_MS: '60000' });
});
after(() => server.close());

test('failed logins are throttled per username and IP on REST and GraphQL alike', async () => {
  const wrong = { username: 'admin', password: 'not-the-password' };
  server.remember(wrong.password);
  for (let i = 0; i < 2; i++) {
    expectRestError(await server.call('POST', '/api/auth/login', { body: wrong }), 401, 'INVALID_CREDENTIALS');
  }
  const rest = await server.call('POST', '/api/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
  expectRestError(rest, 429, 'RATE_LIMITED');
  const restRetry = Number(rest.headers.get('retry-after'));
  assert.ok(restRetry > 0 && restRetry <= 60, `Retry-After ${restRetry}`);

  const gql = await server.gql(`mutation { login(data: { username: "admin", password: ${JSON.stringify(ADMIN_PASSWORD)} }) { accessToken } }`);
  assert.equal(gql.status, 200);
  assert.equal(gql.body.errors?.[0]?.extensions?.code, 'RATE_LIMITED');
  assert.equal(gql.body.data, null);
  // The field fails inside a 200 response; the wait still reaches the client (the Admin UI shows it).
  const gqlRetry = Number(gql.headers.get('retry-after'));
  assert.ok(gqlRetry > 0 && gqlRetry <= 60, `Retry-After ${gqlRetry}`);

  // Another username from the same IP is not affected by this pair's counter.
  const other = await server.call('POST', '/api/auth/login', { body: { username: 'nobody', password: 'whatever-1' } });
  expectRestError(other, 401, 'INVALID_CREDENTIALS');
  server.assertNoSecretsLogged();
});
