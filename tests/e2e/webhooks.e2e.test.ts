import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strataApi } from '../support/strataApi.ts';
import { startStrataProcess, until, type StrataProcess } from '../support/strataProcess.ts';
import { startReceiver, type Receiver } from './support/webhookReceiver.ts';

// Webhooks (changes.md §6) against a real `strata serve` and a loopback receiver that verifies every request with
// the `standardwebhooks` library: event types and payloads, retries on 500s and timeouts, redirects, auto-disable,
// redeliver, secret rotation, address rules, errors.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON
const PASSWORD = 'webhooks-e2e-admin-password';
let dir = '';
let strata: StrataProcess;
let receiver: Receiver;
let token = '';

async function api(method: string, path: string, body?: unknown, bearer: string | null = token): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${strata.url}/api${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text) };
}

async function ok(method: string, path: string, body?: unknown, status = 200): Promise<Json> {
  const reply = await api(method, path, body);
  assert.equal(reply.status, status, `${method} ${path}: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

async function createWebhook(path: string, types: string[], extra: Record<string, unknown> = {}): Promise<{ id: string; secret: string }> {
  const created = await ok('POST', '/organization/acme/webhooks', { url: `${receiver.url}${path}`, types, ...extra }, 201);
  receiver.secrets(path, [created.secret]);
  return { id: created.webhook.id, secret: created.secret };
}

const draft = async (branch = 'master'): Promise<string> => (await ok('GET', `/organization/acme/project/blog/branch/${branch}`)).draftRevisionId;
const waitFor = <T>(what: string, probe: () => T | undefined | Promise<T | undefined>) => until(what, 15_000, async () => probe());

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-webhooks-'));
  receiver = await startReceiver();
  strata = await startStrataProcess({
    DATA_DIR: dir,
    ADMIN_PASSWORD: PASSWORD,
    JWT_SECRET: 'webhooks-e2e-secret-that-is-at-least-32-bytes',
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    WEBHOOK_RETRY_SCHEDULE_MS: '200,300',
    WEBHOOK_TIMEOUT_MS: '700',
    WEBHOOK_DISABLE_AFTER_FAILURES: '2',
    METRICS_ENABLED: 'true',
  });
  token = (await ok('POST', '/auth/login', { username: 'admin', password: PASSWORD })).accessToken;
  await ok('POST', '/organizations', { organizationId: 'acme' }, 201);
  await ok('POST', '/organization/acme/projects', { projectName: 'blog' }, 201);
});
after(async () => {
  await strata?.stop();
  await receiver?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('webhook resource (changes.md §6.1)', () => {
  test('create shows the secret once; reads never return it; bad input and other callers are refused', async () => {
    const created = await ok('POST', '/organization/acme/webhooks', { url: `${receiver.url}/resource`, types: ['revision.committed'] }, 201);
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
    assert.equal(created.webhook.secretPrefix, created.secret.slice(0, 10));
    const read = await ok('GET', `/webhook/${created.webhook.id}`);
    assert.deepEqual(read, created.webhook);
    assert.ok(!JSON.stringify(await ok('GET', '/organization/acme/webhooks')).includes(created.secret.slice(6)));
    const patched = await ok('PATCH', `/webhook/${created.webhook.id}`, { description: 'site rebuild', branchNames: ['$default'] });
    assert.equal(patched.description, 'site rebuild');
    assert.deepEqual(patched.branchNames, ['$default']);
    assert.equal(patched.url, `${receiver.url}/resource`);

    const bad = await api('POST', '/organization/acme/webhooks', { url: 'ftp://x.example', types: ['revision.committed'] });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'BAD_USER_INPUT');
    assert.equal((await api('POST', '/organization/acme/webhooks', { url: 'https://u:p@x.example/', types: ['rows.changed'] })).status, 400);
    assert.equal((await api('POST', '/organization/acme/webhooks', { url: 'https://x.example/', types: [] })).status, 400);
    assert.equal((await api('POST', '/organization/acme/webhooks', { url: 'https://x.example/', types: ['nope'] })).status, 400);

    await ok('POST', '/users', { username: 'carl', password: 'carl-password-1' }, 201);
    const carl = (await ok('POST', '/auth/login', { username: 'carl', password: 'carl-password-1' })).accessToken as string;
    assert.equal((await api('GET', '/organization/acme/webhooks', undefined, carl)).body.code, 'FORBIDDEN');
    assert.equal((await api('POST', '/organization/acme/webhooks', { url: 'https://x.example/', types: ['rows.changed'] }, carl)).status, 403);
    const hidden = await api('GET', `/webhook/${created.webhook.id}`, undefined, carl);
    assert.equal(hidden.status, 404);
    assert.equal(hidden.body.code, 'WEBHOOK_NOT_FOUND');
    assert.equal((await api('POST', `/webhook/${created.webhook.id}/ping`, undefined, carl)).status, 404);

    await ok('DELETE', `/webhook/${created.webhook.id}`);
    assert.equal((await api('GET', `/webhook/${created.webhook.id}`)).status, 404);
  });

  test('GraphQL: createWebhook answers WebhookWithSecret; webhooks lists it', async () => {
    const res = await fetch(`${strata.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        query: 'mutation($d: CreateWebhookInput!) { createWebhook(data: $d) { secret webhook { id types active consecutiveFailures } } }',
        variables: { d: { organizationId: 'acme', url: 'https://hooks.example.com/x', types: ['branch.created'] } },
      }),
    });
    const body = (await res.json()) as Json;
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    assert.deepEqual(body.data.createWebhook.webhook.types, ['branch.created']);
    assert.match(body.data.createWebhook.secret, /^whsec_/);
    await ok('DELETE', `/webhook/${body.data.createWebhook.webhook.id}`);
  });
});

describe('webhook limit (changes.md §6.1)', () => {
  test('the 51st webhook of an organization is 409 LIMIT_EXCEEDED', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 50; i++)
      ids.push((await ok('POST', '/organization/acme/webhooks', { url: `https://hooks.example.com/${i}`, types: ['rows.changed'] }, 201)).webhook.id);
    const over = await api('POST', '/organization/acme/webhooks', { url: 'https://hooks.example.com/51', types: ['rows.changed'] });
    assert.equal(over.status, 409);
    assert.equal(over.body.code, 'LIMIT_EXCEEDED');
    for (const id of ids) await ok('DELETE', `/webhook/${id}`);
  });
});

describe('delivery (changes.md §6.2, §6.3)', () => {
  test('commit, row writes, table changes, revert, branch events and ping arrive signed, in log order', async () => {
    const hook = await createWebhook('/all', [
      'revision.committed',
      'draft.reverted',
      'rows.changed',
      'table.changed',
      'branch.created',
      'branch.deleted',
      'webhook.ping',
    ]);
    const d = await draft();
    await ok(
      'POST',
      `/revision/${d}/tables`,
      {
        tableId: 'posts',
        schema: { type: 'object', properties: { title: { type: 'string', default: '' } }, additionalProperties: false, required: ['title'] },
      },
      201,
    );
    await ok(
      'POST',
      `/revision/${d}/table/posts/rows/bulk`,
      {
        rows: [
          { rowId: 'a', data: { title: 'A' } },
          { rowId: 'b', data: { title: 'B' } },
        ],
      },
      201,
    );
    await ok('PATCH', `/revision/${d}/table/posts/row/a`, { patches: [{ op: 'replace', path: '/title', value: 'A2' }] });
    await ok('POST', `/revision/${d}/table/posts/row/b/rename`, { nextRowId: 'c' });
    const commit = await ok('POST', '/organization/acme/project/blog/branch/master/revisions', { comment: 'first' }, 201);
    await ok('DELETE', `/revision/${await draft()}/table/posts/row/a`);
    await ok('POST', '/organization/acme/project/blog/branch/master/revert');
    await ok('POST', `/revision/${commit.id}/branches`, { branchName: 'feature' }, 201);
    await ok('DELETE', '/organization/acme/project/blog/branch/feature');
    const ping = await ok('POST', `/webhook/${hook.id}/ping`);
    assert.equal(ping.type, 'webhook.ping');

    const got = await waitFor('all events', () => (receiver.on('/all').length >= 10 ? receiver.on('/all') : undefined));
    assert.equal(got.length, 10, JSON.stringify(got.map((r) => [r.body.type, r.answered])));
    assert.ok(got.every((r) => r.verifiedBy.length === 1 && r.answered === 204));
    assert.deepEqual(
      got.map((r) => `${r.body.type}${r.body.data.change ? `:${r.body.data.change}` : ''}`),
      [
        'table.changed:ADDED',
        'rows.changed:ADDED',
        'rows.changed:UPDATED',
        'rows.changed:RENAMED',
        'revision.committed',
        'rows.changed:REMOVED',
        'draft.reverted',
        'branch.created',
        'branch.deleted',
        'webhook.ping',
      ],
    );
    const committed = got.find((r) => r.body.type === 'revision.committed')?.body as Json;
    assert.equal(committed.data.revisionId, commit.id);
    assert.equal(committed.data.comment, 'first');
    assert.equal(committed.data.branchName, 'master');
    assert.equal(committed.data.projectName, 'blog');
    assert.deepEqual(
      committed.data.changes.tables.map((t: Json) => [t.tableId, t.change, t.rowChanges.added]),
      [['posts', 'ADDED', 2]],
    );
    const renamed = got.find((r) => r.body.data.change === 'RENAMED')?.body as Json;
    assert.deepEqual([renamed.data.rowIds, renamed.data.previousRowIds, renamed.data.tableId], [['c'], ['b'], 'posts']);
    assert.deepEqual(got.find((r) => r.body.type === 'branch.created')?.body.data.parentBranchName, 'master');
    const pinged = got.find((r) => r.body.type === 'webhook.ping') as (typeof got)[number];
    assert.deepEqual([pinged.body.position, pinged.body.data, pinged.id], [null, { webhookId: hook.id }, ping.id]);
    assert.equal(pinged.headers['user-agent'], 'Strata-Webhooks/1');

    const deliveries = await waitFor('deliveries recorded', async () => {
      const page = await ok('GET', `/webhook/${hook.id}/deliveries?first=50`);
      return page.edges.every((e: Json) => e.node.status === 'succeeded') && page.totalCount === got.length ? page : undefined;
    });
    assert.deepEqual(new Set(deliveries.edges.map((e: Json) => e.node.id)), new Set(got.map((r) => r.id)));
    await ok('DELETE', `/webhook/${hook.id}`);
  });

  test('500s and a timeout are retried on the schedule with the same webhook-id; the attempts are recorded', async () => {
    const hook = await createWebhook('/flaky', ['webhook.ping']);
    receiver.reply('/flaky', (attempt) => (attempt === 0 ? { status: 500 } : attempt === 1 ? { status: 204, delayMs: 1500 } : { status: 200 }));
    const ping = await ok('POST', `/webhook/${hook.id}/ping`);
    const delivery = await waitFor('the retried delivery', async () => {
      const page = await ok('GET', `/webhook/${hook.id}/deliveries`);
      return page.edges[0]?.node.status === 'succeeded' ? page.edges[0].node : undefined;
    });
    assert.equal(delivery.id, ping.id);
    assert.deepEqual(
      delivery.attempts.map((a: Json) => [a.responseStatus, a.error]),
      [
        [500, 'HTTP 500'],
        [null, 'timeout'],
        [200, null],
      ],
    );
    const gaps = delivery.attempts.slice(1).map((a: Json, i: number) => Date.parse(a.at) - Date.parse(delivery.attempts[i].at));
    assert.ok((gaps[0] as number) >= 200 && (gaps[1] as number) >= 700 + 300, `gaps ${gaps.join(',')}`);
    assert.deepEqual(new Set(receiver.on('/flaky').map((r) => r.id)), new Set([ping.id]));
    await ok('DELETE', `/webhook/${hook.id}`);
  });

  test('a redirect fails the attempt and is not followed', async () => {
    const hook = await createWebhook('/redirect', ['webhook.ping']);
    receiver.reply('/redirect', () => ({ status: 302, location: `${receiver.url}/elsewhere` }));
    await ok('POST', `/webhook/${hook.id}/ping`);
    const delivery = await waitFor('failed delivery', async () => {
      const node = (await ok('GET', `/webhook/${hook.id}/deliveries`)).edges[0]?.node;
      return node?.status === 'failed' ? node : undefined;
    });
    assert.deepEqual(
      delivery.attempts.map((a: Json) => a.error),
      Array(3).fill('redirect not followed'),
    );
    assert.equal(receiver.on('/elsewhere').length, 0);
    await ok('DELETE', `/webhook/${hook.id}`);
  });

  test('consecutive failed deliveries disable the webhook; redeliver and re-enable work', async () => {
    const hook = await createWebhook('/down', ['webhook.ping']);
    receiver.reply('/down', () => ({ status: 503 }));
    await ok('POST', `/webhook/${hook.id}/ping`);
    await ok('POST', `/webhook/${hook.id}/ping`);
    const disabled = await waitFor('the webhook disabled', async () => {
      const read = await ok('GET', `/webhook/${hook.id}`);
      return read.active === false ? read : undefined;
    });
    assert.equal(disabled.consecutiveFailures, 2);
    assert.match(disabled.disabledReason, /2 consecutive failed deliveries/);
    await waitFor('the audit line', () => (/"event":"webhook.disabled"/.test(strata.stdout()) ? true : undefined));
    receiver.reply('/down', () => ({ status: 200 }));
    const failed = (await ok('GET', `/webhook/${hook.id}/deliveries`)).edges[0].node;
    const again = await ok('POST', `/webhook-delivery/${failed.id}/redeliver`);
    assert.equal(again.status, 'pending');
    await waitFor('the redelivery', async () =>
      (await ok('GET', `/webhook/${hook.id}/deliveries`)).edges.find((e: Json) => e.node.id === failed.id)?.node.status === 'succeeded'
        ? true
        : undefined,
    );
    assert.equal((await api('POST', '/webhook-delivery/nope.x/redeliver')).body.code, 'WEBHOOK_NOT_FOUND');
    const enabled = await ok('PATCH', `/webhook/${hook.id}`, { active: true });
    assert.deepEqual([enabled.active, enabled.disabledAt], [true, null]);
    assert.equal((await ok('GET', `/webhook/${hook.id}`)).consecutiveFailures, 0);
    await ok('DELETE', `/webhook/${hook.id}`);
  });

  test('after a secret rotation both the new and the previous secret verify', async () => {
    const hook = await createWebhook('/rotate', ['webhook.ping']);
    const rotated = await ok('POST', `/webhook/${hook.id}/rotate-secret`);
    assert.notEqual(rotated.secret, hook.secret);
    receiver.secrets('/rotate', [rotated.secret, hook.secret]);
    await ok('POST', `/webhook/${hook.id}/ping`);
    const [got] = await waitFor('the ping', () => (receiver.on('/rotate').length > 0 ? receiver.on('/rotate') : undefined));
    assert.deepEqual(got?.verifiedBy, [rotated.secret, hook.secret]);
    assert.equal(String(got?.headers['webhook-signature']).split(' ').length, 2);
    await ok('DELETE', `/webhook/${hook.id}`);
  });
});

describe('metrics (changes.md §7)', () => {
  test('attempts by outcome, the delivery lag histogram and open feed streams are exported', async () => {
    const stream = await fetch(`${strata.url}/api/organization/acme/project/blog/events`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(stream.status, 200);
    const text = await until('the metrics', 10_000, async () => {
      const body = await (await fetch(`${strata.url}/metrics`)).text();
      return /strata_event_streams_active 1/.test(body) ? body : undefined;
    });
    assert.match(text, /strata_webhook_attempts_total\{outcome="succeeded"\} [1-9]/);
    assert.match(text, /strata_webhook_attempts_total\{outcome="failed"\} [1-9]/);
    assert.match(text, /strata_webhook_delivery_lag_seconds_count [1-9]/);
    await stream.body?.cancel();
  });
});

describe('strata audit webhooks (operations.md §5)', () => {
  test('lists the webhook events of the log in order, never a secret', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(import.meta.dirname, '../../deploy/bin/strata.mjs'), 'audit', 'webhooks', '--json'],
      {
        env: { PATH: process.env.PATH ?? '', DATA_DIR: dir, NODE_ENV: 'test', LOG_LEVEL: 'silent' },
      },
    );
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Json);
    const events = new Set(lines.map((l) => l.event));
    for (const event of ['created', 'updated', 'rotated', 'deleted', 'disabled', 'pinged', 'redelivered']) assert.ok(events.has(event), event);
    assert.ok(lines.every((l) => /^whsec_/.test(l.secretPrefix ?? 'whsec_') && l.details.sealedSecret === undefined));
    assert.ok(!stdout.includes('"v1.'), 'no sealed secret printed');
  });
});

describe('address rules (changes.md §6.1)', () => {
  test('without WEBHOOK_ALLOW_PRIVATE_ADDRESSES a non-public IP literal is refused at creation and update; a name that resolves to loopback fails at delivery: disallowed address', async () => {
    const other = await startStrataProcess({ DATA_DIR: join(dir, 'private'), ADMIN_PASSWORD: PASSWORD, WEBHOOK_RETRY_SCHEDULE_MS: '100' });
    let bearer = '';
    const privateApi = strataApi(
      () => other.url,
      () => bearer,
    );
    const graphql = async (query: string, variables: Record<string, unknown>): Promise<Json> => {
      const res = await fetch(`${other.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
        body: JSON.stringify({ query, variables }),
      });
      return res.json();
    };
    const assertRefusedUrl = (reply: { status: number; body: Json }, url: string): void => {
      assert.equal(reply.status, 400, `${url}: ${JSON.stringify(reply.body)}`);
      assert.equal(reply.body.code, 'BAD_USER_INPUT');
      assert.deepEqual(
        reply.body.details.map((d: Json) => d.path),
        ['/url'],
      );
      assert.match(reply.body.message, /disallowed address.*WEBHOOK_ALLOW_PRIVATE_ADDRESSES/);
    };
    try {
      bearer = (await privateApi.ok('POST', '/auth/login', { username: 'admin', password: PASSWORD })).accessToken;
      await privateApi.ok('POST', '/organizations', { organizationId: 'acme' }, 201);
      const port = new URL(receiver.url).port;
      const literals = [`${receiver.url}/private`, `http://[::1]:${port}/private`, 'http://10.20.30.40/hook', 'http://169.254.169.254/latest'];
      for (const url of literals) {
        assertRefusedUrl(await privateApi.call('POST', '/organization/acme/webhooks', { url, types: ['webhook.ping'] }), url);
      }
      const viaGraphql = await graphql('mutation($d: CreateWebhookInput!) { createWebhook(data: $d) { secret } }', {
        d: { organizationId: 'acme', url: `${receiver.url}/private`, types: ['webhook.ping'] },
      });
      assert.equal(viaGraphql.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(viaGraphql));
      assert.match(viaGraphql.errors[0].message, /WEBHOOK_ALLOW_PRIVATE_ADDRESSES/);
      assert.deepEqual(await privateApi.ok('GET', '/organization/acme/webhooks'), []);

      // A host name may resolve differently later: it is accepted, and refused on the connected address.
      const byName = `http://localhost:${port}/private`;
      const created = await privateApi.ok('POST', '/organization/acme/webhooks', { url: byName, types: ['webhook.ping'] }, 201);
      await privateApi.ok('POST', `/webhook/${created.webhook.id}/ping`);
      const delivery = await until('the refused delivery', 15_000, async () => {
        const node = (await privateApi.ok('GET', `/webhook/${created.webhook.id}/deliveries`)).edges[0]?.node;
        return node?.status === 'failed' ? node : undefined;
      });
      assert.deepEqual(
        delivery.attempts.map((a: Json) => a.error),
        ['disallowed address', 'disallowed address'],
      );

      // Changing the URL to a literal is refused the same way and changes nothing.
      for (const url of literals) assertRefusedUrl(await privateApi.call('PATCH', `/webhook/${created.webhook.id}`, { url }), url);
      const update = await graphql('mutation($id: ID!, $d: UpdateWebhookInput) { updateWebhook(id: $id, data: $d) { url } }', {
        id: created.webhook.id,
        d: { url: `http://127.0.0.1:${port}/private` },
      });
      assert.equal(update.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(update));
      assert.equal((await privateApi.ok('GET', `/webhook/${created.webhook.id}`)).url, byName);
      assert.equal((await privateApi.ok('PATCH', `/webhook/${created.webhook.id}`, { description: 'url untouched' })).url, byName);
      assert.equal(receiver.on('/private').length, 0);
    } finally {
      await other.stop();
    }
  });
});
