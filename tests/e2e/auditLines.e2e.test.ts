import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runCli } from '../../deploy/cli.ts';
import { expectStatus } from './support/authFixtures.ts';
import { ADMIN_PASSWORD, startAuthServer, type AuthServer } from './support/authServer.ts';

// operations.md §6: every audit event, one action each through HTTP (and the CLI), appears exactly once with the
// acting principal and the target, and no line carries a secret.

type Line = Record<string, unknown>;

let server: AuthServer;
let admin: string;
let adminId: string;

before(async () => {
  server = await startAuthServer({ JWT_REFRESH_GRACE_PERIOD_MS: '0' });
  admin = (await server.login('admin', ADMIN_PASSWORD)).accessToken;
  adminId = expectStatus(await server.call('GET', '/api/me', { token: admin }), 200).body.id;
});
after(() => server.close());

const auditLines = (): Line[] =>
  server
    .logLines()
    .map((line) => JSON.parse(line) as Line)
    .filter((line) => line.audit === true);

/** The audit lines `action` adds, reduced to event, actor and the given target fields. */
async function audited(action: () => Promise<unknown>, fields: readonly string[]): Promise<Line[]> {
  const before = auditLines().length;
  await action();
  return auditLines()
    .slice(before)
    .map((line) =>
      Object.fromEntries(['event', 'actor', ...fields].filter((field) => line[field] !== undefined).map((field) => [field, line[field]])),
    );
}

test('user create, deactivate, reactivate, role changes and every password change write one audit line each', async () => {
  const admins = `user:${adminId}`;
  let bob = '';
  assert.deepEqual(
    await audited(async () => {
      bob = expectStatus(await server.call('POST', '/api/users', { token: admin, body: { username: 'bob', password: 'bob-password-1' } }), 201).body
        .id;
    }, ['userId', 'username']),
    [{ event: 'user.created', actor: admins, userId: bob, username: 'bob' }],
  );
  server.remember('bob-password-1');
  let carol = '';
  assert.deepEqual(
    await audited(async () => {
      const reply = await server.gql('mutation { createUser(data: { username: "carol", password: "carol-password-1" }) { id } }', { token: admin });
      carol = reply.body.data.createUser.id;
    }, ['userId', 'username']),
    [{ event: 'user.created', actor: admins, userId: carol, username: 'carol' }],
  );
  server.remember('carol-password-1');

  const deactivate = () => server.call('POST', `/api/user/${bob}/deactivate`, { token: admin });
  assert.deepEqual(await audited(deactivate, ['userId']), [{ event: 'user.deactivated', actor: admins, userId: bob }]);
  assert.deepEqual(await audited(deactivate, ['userId']), [], 'deactivating an inactive user changes nothing and audits nothing');
  const reactivate = () => server.call('POST', `/api/user/${bob}/reactivate`, { token: admin });
  assert.deepEqual(await audited(reactivate, ['userId']), [{ event: 'user.reactivated', actor: admins, userId: bob }]);
  const promote = () => server.call('POST', `/api/user/${bob}/role`, { token: admin, body: { role: 'systemAdmin' } });
  assert.deepEqual(await audited(promote, ['userId', 'role']), [{ event: 'user.roleChanged', actor: admins, userId: bob, role: 'systemAdmin' }]);
  assert.deepEqual(await audited(promote, ['userId', 'role']), [], 'setting the current role changes nothing and audits nothing');
  const demote = () => server.gql(`mutation { setUserRole(userId: "${bob}", role: systemUser) { role } }`, { token: admin });
  assert.deepEqual(await audited(demote, ['userId', 'role']), [{ event: 'user.roleChanged', actor: admins, userId: bob, role: 'systemUser' }]);

  const bobToken = (await server.login('bob', 'bob-password-1')).accessToken;
  const ownChange = async () =>
    expectStatus(
      await server.call('PUT', '/api/me/password', { token: bobToken, body: { oldPassword: 'bob-password-1', newPassword: 'bob-password-2' } }),
      200,
    );
  server.remember('bob-password-2');
  assert.deepEqual(await audited(ownChange, ['userId', 'reason']), [
    { event: 'password.changed', actor: `user:${bob}`, userId: bob, reason: 'self' },
  ]);

  const reset = async () =>
    expectStatus(await server.call('PUT', `/api/user/${bob}/password`, { token: admin, body: { newPassword: 'bob-password-3' } }), 200);
  server.remember('bob-password-3');
  assert.deepEqual(await audited(reset, ['userId', 'reason']), [{ event: 'password.changed', actor: admins, userId: bob, reason: 'reset' }]);
  const gqlReset = async () => {
    const reply = await server.gql(`mutation { resetPassword(data: { userId: "${carol}", newPassword: "carol-password-2" }) }`, { token: admin });
    assert.equal(reply.body.data?.resetPassword, true, reply.text);
  };
  server.remember('carol-password-2');
  assert.deepEqual(await audited(gqlReset, ['userId', 'reason']), [{ event: 'password.changed', actor: admins, userId: carol, reason: 'reset' }]);

  // `strata users set-password`: its own process logs to standard error.
  const stderr: string[] = [];
  const code = await runCli(['users', 'set-password', 'bob'], {
    env: { DATA_DIR: server.dataDir, LOG_LEVEL: 'info' },
    stdout: () => {},
    stderr: (text) => void stderr.push(text),
    readSecret: async () => 'bob-password-4',
  });
  assert.equal(code, 0, stderr.join(''));
  const cliAudit = stderr
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line)
    .filter((line) => line.audit === true);
  assert.deepEqual(
    cliAudit.map(({ event, actor, userId, reason }) => ({ event, actor, userId, reason })),
    [{ event: 'password.changed', actor: 'system', userId: bob, reason: 'cli' }],
  );
  assert.ok(!stderr.join('').includes('bob-password-4') && !stderr.join('').includes('scrypt'));
});

test('login, refresh reuse, logout, logout-all, API keys and use of a revoked key write one audit line each', async () => {
  const admins = `user:${adminId}`;
  assert.deepEqual(await audited(() => server.login('admin', ADMIN_PASSWORD), ['userId', 'username']), [
    { event: 'login.success', actor: admins, userId: adminId, username: 'admin' },
  ]);
  const failure = () => server.call('POST', '/api/auth/login', { body: { username: 'admin', password: 'wrong-password' } });
  server.remember('wrong-password');
  assert.deepEqual(await audited(failure, ['username', 'reason']), [
    { event: 'login.failure', actor: 'anonymous', username: 'admin', reason: 'wrong_password' },
  ]);

  const { jar } = await server.login('admin', ADMIN_PASSWORD);
  const stale = jar.get('svc_rt')?.value as string;
  expectStatus(await server.call('POST', '/api/auth/refresh', { jar }), 200);
  const reuse = () => server.call('POST', '/api/auth/refresh', { headers: { Cookie: `svc_rt=${stale}` } });
  assert.deepEqual(await audited(reuse, ['userId']), [{ event: 'refresh.reuse', actor: 'anonymous', userId: adminId }]);

  const session = await server.login('admin', ADMIN_PASSWORD);
  assert.deepEqual(await audited(() => server.call('POST', '/api/auth/logout', { jar: session.jar }), ['userId']), [
    { event: 'logout', actor: admins, userId: adminId },
  ]);
  const other = await server.login('admin', ADMIN_PASSWORD);
  assert.deepEqual(await audited(() => server.call('POST', '/api/auth/logout-all', { token: other.accessToken }), ['userId']), [
    { event: 'logout.all', actor: admins, userId: adminId },
  ]);

  const token = (await server.login('admin', ADMIN_PASSWORD)).accessToken;
  let key = { id: '', secret: '' };
  assert.deepEqual(
    await audited(async () => {
      const body = expectStatus(await server.call('POST', '/api/api-keys/personal', { token, body: { name: 'audited' } }), 201).body;
      key = { id: body.apiKey.id, secret: body.secret };
    }, ['keyId']),
    [{ event: 'apikey.created', actor: admins, keyId: key.id }],
  );
  let rotated = { id: '', secret: '' };
  assert.deepEqual(
    await audited(async () => {
      const body = expectStatus(await server.call('POST', `/api/api-key/${key.id}/rotate`, { token }), 201).body;
      rotated = { id: body.apiKey.id, secret: body.secret };
    }, ['keyId', 'rotatedFromId']),
    [{ event: 'apikey.rotated', actor: admins, keyId: rotated.id, rotatedFromId: key.id }],
  );
  assert.deepEqual(await audited(() => server.call('POST', `/api/api-key/${rotated.id}/revoke`, { token }), ['keyId']), [
    { event: 'apikey.revoked', actor: admins, keyId: rotated.id },
  ]);
  assert.deepEqual(await audited(() => server.call('GET', '/api/me', { headers: { 'X-Api-Key': rotated.secret } }), ['keyId']), [
    { event: 'apikey.use_revoked', actor: `key:${rotated.id}`, keyId: rotated.id },
  ]);
});

test('no audit line (or any line) carries a password, a hash, a token or a key secret', () => {
  for (const line of auditLines()) assert.ok(!JSON.stringify(line).includes('scrypt'), JSON.stringify(line));
  server.assertNoSecretsLogged();
});
