import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { createCookieJar } from './support/cookieJar.ts';
import { expectStatus } from './support/authFixtures.ts';
import { ADMIN_PASSWORD, gqlFailure, gqlOk, startAuthServer, type AuthServer } from './support/authServer.ts';

// The /get-token page (system-api.md §6) and `strata audit api-keys` (operations.md §5) against a live server.
const root = fileURLToPath(new URL('../..', import.meta.url));
let server: AuthServer;

before(async () => {
  server = await startAuthServer();
});
after(() => server.close());

const CSP = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

describe('/get-token', () => {
  test('a public HTML page with no inline script, the security headers and no token in it', async () => {
    const { jar } = await server.login('admin', ADMIN_PASSWORD);
    for (const options of [{}, { jar }]) {
      const page = expectStatus(await server.call('GET', '/get-token', options), 200);
      assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(page.headers.get('cache-control'), 'no-store');
      assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(page.headers.get('content-security-policy'), CSP);
      const scripts = [...page.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      assert.equal(scripts.length, 1);
      assert.match(scripts[0]?.[1] ?? '', /src="\/get-token\.js"/);
      assert.equal(scripts[0]?.[2], '');
      assert.doesNotMatch(page.text, /\son[a-z]+=|style=|svc_|eyJ/);
      assert.match(page.text, /Not signed in\. <a href="\/">/);
    }
    const script = expectStatus(await server.call('GET', '/get-token.js'), 200);
    assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(script.headers.get('content-security-policy'), CSP);
    for (const piece of ['issueAccessToken', "'/graphql'", "'/api/auth/refresh'", 'UNAUTHENTICATED', 'TOKEN_EXPIRED', 'clipboard']) {
      assert.ok(script.text.includes(piece), piece);
    }
    assert.equal((await server.call('HEAD', '/get-token')).status, 200);
    assert.equal((await server.call('POST', '/get-token')).status, 405);
  });

  test("the script's protocol: issueAccessToken with cookies, one refresh on UNAUTHENTICATED, then the token", async () => {
    const { jar } = await server.login('admin', ADMIN_PASSWORD);
    const sameOrigin = { 'Sec-Fetch-Site': 'same-origin', Origin: server.url };
    const query = 'query { issueAccessToken { accessToken expiresIn } }';
    assert.equal(gqlOk(await server.gql(query, { jar, headers: sameOrigin })).issueAccessToken.expiresIn, 1800);
    // svc_at gone (its Max-Age passed) while svc_rt lives: the page refreshes once and retries.
    const later = createCookieJar();
    later.put('svc_rt', jar.get('svc_rt')!.value, '/api/auth/');
    assert.deepEqual(gqlFailure(await server.gql(query, { jar: later, headers: sameOrigin })), [200, 'UNAUTHENTICATED', true]);
    expectStatus(await server.call('POST', '/api/auth/refresh', { jar: later, headers: sameOrigin }), 200);
    const token = gqlOk(await server.gql(query, { jar: later, headers: sameOrigin })).issueAccessToken.accessToken;
    assert.equal(expectStatus(await server.call('GET', '/api/me', { token }), 200).body.username, 'admin');
  });
});

function runCli(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(root, 'deploy', 'bin', 'strata.mjs'), ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? server.dataDir, NODE_ENV: 'test', DATA_DIR: server.dataDir, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('strata audit api-keys', () => {
  test('replays created, rotated and revoked with actor and time from the event log; never a secret', async () => {
    const admin = (await server.login('admin', ADMIN_PASSWORD)).accessToken;
    const adminId = expectStatus(await server.call('GET', '/api/me', { token: admin }), 200).body.id;
    const started = Date.now();
    const created = expectStatus(
      await server.call('POST', '/api/api-keys/personal', { token: admin, body: { name: 'audited', readOnly: true } }),
      201,
    ).body;
    const rotated = expectStatus(await server.call('POST', `/api/api-key/${created.apiKey.id}/rotate`, { token: admin }), 201).body;
    expectStatus(await server.call('POST', `/api/api-key/${rotated.apiKey.id}/revoke`, { token: admin }), 200);

    const json = await runCli(['audit', 'api-keys', '--json', '--user', adminId]);
    assert.equal(json.code, 0, json.stderr);
    const entries = json.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const mine = entries.filter((e) => e.keyId === created.apiKey.id || e.keyId === rotated.apiKey.id);
    assert.deepEqual(
      mine.map((e) => [e.event, e.keyId, e.actorId, e.userId, e.type]),
      [
        ['created', created.apiKey.id, adminId, adminId, 'personal'],
        ['rotated', created.apiKey.id, adminId, adminId, 'personal'],
        ['created', rotated.apiKey.id, adminId, adminId, 'personal'],
        ['revoked', rotated.apiKey.id, adminId, adminId, 'personal'],
      ],
    );
    assert.equal(mine[1].details.replacedById, rotated.apiKey.id);
    assert.equal(mine[2].details.rotatedFromId, created.apiKey.id);
    assert.equal(mine[0].details.readOnly, true);
    for (const entry of mine) {
      const ms = Date.parse(entry.time);
      assert.ok(ms >= started - 1000 && ms <= Date.now() + 1000, entry.time);
      assert.equal(entry.prefix, entry.keyId === created.apiKey.id ? created.apiKey.prefix : rotated.apiKey.prefix);
    }

    const table = await runCli(['audit', 'api-keys', '--key', rotated.apiKey.id]);
    assert.equal(table.code, 0, table.stderr);
    const lines = table.stdout.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^TIME +EVENT +KEY ID +PREFIX +TYPE +OWNER +ACTOR +DETAILS$/);
    assert.deepEqual(
      lines.slice(1).map((line) => line.split(/ +/)[1]),
      ['created', 'revoked'],
    );
    for (const output of [json.stdout, table.stdout]) {
      for (const secret of [created.secret, rotated.secret]) assert.ok(!output.includes(secret));
    }
  });
});

test('no password, refresh token, access token or key secret appears in any log line', () => {
  server.assertNoSecretsLogged();
});
