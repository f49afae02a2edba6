// Outside testing found that one anonymous `GET /oauth/authorize?client_id=https://…/doc.json` naming a document a
// little over 5 KiB stopped the server (an 'error' emitted on the TLS socket with no listener). Here a real
// `strata serve` meets every case of the hostile-server kit (tests/support/hostileServer.ts) twice: anonymously as a
// Client ID Metadata Document through `/oauth/authorize` (each answers the 400 error page, never a redirect), and as
// a webhook receiver (each attempt is recorded as failed, or succeeded where the receiver's 2xx arrived in time).
// After every case the server still answers; at the end it has not exited and its log holds no uncaught error.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStrataProcess, until, type StrataProcess } from '../support/strataProcess.ts';
import { hostileCases, startHostileServer, waitUntil, type HostileServer } from '../support/hostileServer.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON
const PASSWORD = 'hostile-e2e-admin-password';
let dir = '';
let kit: HostileServer;
let strata: StrataProcess;
let token = '';

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${strata.url}/api${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text) };
}

async function assertAlive(after: string): Promise<void> {
  assert.equal(strata.child.exitCode, null, `the server exited after ${after}:\n${strata.stderr().slice(-2000)}`);
  const live = await fetch(`${strata.url}/health/live`);
  assert.equal(live.status, 200, `the server answers after ${after}`);
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-hostile-'));
  kit = await startHostileServer();
  strata = await startStrataProcess({
    DATA_DIR: dir,
    ADMIN_PASSWORD: PASSWORD,
    JWT_SECRET: 'hostile-e2e-secret-that-is-at-least-32-bytes',
    OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES: 'true',
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    WEBHOOK_TIMEOUT_MS: '1500',
    WEBHOOK_RETRY_SCHEDULE_MS: '600000',
    NODE_EXTRA_CA_CERTS: kit.caPath,
  });
});
after(async () => {
  await strata?.stop();
  await kit?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('a real server against hostile hosts', { concurrency: false }, () => {
  test(
    'anonymous /oauth/authorize naming each hostile document answers the 400 error page and the server lives on',
    { timeout: 120_000 },
    async () => {
      for (const hostileCase of hostileCases) {
        const clientId = kit.urlOf(hostileCase, 'https');
        const query = new URLSearchParams({
          response_type: 'code',
          client_id: clientId,
          redirect_uri: 'http://127.0.0.1:9/cb',
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
          state: 'st',
        });
        const res = await fetch(`${strata.url}/oauth/authorize?${query}`, { redirect: 'manual' });
        const page = await res.text();
        assert.equal(res.status, 400, `${hostileCase}: ${page.slice(0, 300)}`);
        assert.match(res.headers.get('content-type') ?? '', /text\/html/, hostileCase);
        assert.equal(res.headers.get('location'), null, `${hostileCase}: never a redirect`);
        assert.match(page, /metadata document/, hostileCase);
        await assertAlive(hostileCase);
      }
      // The server let go of every connection to the hosts (the webhook test below opens its own).
      await waitUntil(() => kit.openConnections() === 0, 'the server to close every connection to the kit', 10_000);
    },
  );

  test('a webhook to each hostile receiver records its attempt and the server lives on', { timeout: 120_000 }, async () => {
    token = (await api('POST', '/auth/login', { username: 'admin', password: PASSWORD })).body.accessToken;
    assert.ok(token);
    const hooks = new Map<string, string>();
    for (const hostileCase of hostileCases) {
      const created = await api('POST', '/organization/admin/webhooks', { url: kit.urlOf(hostileCase, 'http', '/hook'), types: ['webhook.ping'] });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      hooks.set(hostileCase, created.body.webhook.id as string);
      assert.equal((await api('POST', `/webhook/${created.body.webhook.id}/ping`)).status, 200);
    }
    const outcomes = new Map<string, string>();
    for (const [hostileCase, id] of hooks) {
      const attempt = await until(`the first attempt of ${hostileCase}`, 30_000, async () => {
        const page = await api('GET', `/webhook/${id}/deliveries`);
        const node = page.body.edges?.[0]?.node;
        return node && node.attempts.length > 0 ? (node.attempts[0] as Json) : undefined;
      });
      outcomes.set(hostileCase, attempt.error === null ? `ok ${attempt.responseStatus}` : String(attempt.error));
    }
    for (const [hostileCase, outcome] of outcomes) {
      if (['oversize-one-chunk', 'oversize-stream', 'invalid-json', 'gzip-bomb'].includes(hostileCase)) assert.equal(outcome, 'ok 200', hostileCase);
      else if (hostileCase === 'redirect-loop') assert.equal(outcome, 'redirect not followed', hostileCase);
      else if (['oversize-declared', 'drip', 'never-answer', 'headers-then-silence'].includes(hostileCase))
        assert.equal(outcome, 'timeout', hostileCase);
      else assert.ok(outcome !== '' && !outcome.startsWith('ok'), `${hostileCase}: ${outcome}`);
    }
    await assertAlive('the webhook attempts');
    await waitUntil(() => kit.openConnections() === 0, 'the server to close every connection to the kit', 10_000);
  });

  test('the server logged no uncaught error', async () => {
    await assertAlive('all cases');
    assert.doesNotMatch(strata.stderr(), /Unhandled 'error' event|uncaught/i);
    assert.doesNotMatch(strata.stdout(), /"msg":"uncaught/i);
  });
});
