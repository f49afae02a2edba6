import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CookieJar } from './support/cookieJar.ts';
import { draftEndpoint, expectStatus, seedProject, type SeededProject } from './support/authFixtures.ts';
import { ADMIN_PASSWORD, expectRestError, gqlFailure, gqlOk, startAuthServer, type AuthServer } from './support/authServer.ts';

// The CSRF gate (auth.md §6.1) on every surface and CORS (§6.2), through HTTP with a browser-like cookie jar.
const ALLOWED_ORIGIN = 'https://admin.example.com';
const FOREIGN = { Origin: 'https://evil.example' };
const CROSS_SITE = { 'Sec-Fetch-Site': 'cross-site' };
const NULL_ORIGIN = { Origin: 'null' };
const SAME_SITE_ONLY = { 'Sec-Fetch-Site': 'same-site', Origin: 'https://evil.example' };
const REFUSED = [FOREIGN, CROSS_SITE, NULL_ORIGIN, SAME_SITE_ONLY];

let server: AuthServer;
let token: string;
let jar: CookieJar;
let blog: SeededProject;
let nextId = 0;

before(async () => {
  server = await startAuthServer({ CORS_ORIGIN: ALLOWED_ORIGIN, METRICS_ENABLED: 'true' });
  ({ jar, accessToken: token } = await server.login('admin', ADMIN_PASSWORD));
  blog = await seedProject(server, token, 'acme', 'blog', { tables: ['notes'] });
});
after(() => server.close());

const rowsPath = () => `/api/revision/${blog.drafts.master}/table/notes/rows`;
const newRow = () => ({ rowId: `n${++nextId}`, data: { title: 'x' } });
const rowExists = async (rowId: string) => (await server.call('GET', `${rowsPath().replace(/rows$/, 'row')}/${rowId}`, { token })).status === 200;
const createRowMutation = (rowId: string) =>
  `mutation { createRow(data: { revisionId: "${blog.drafts.master}", tableId: "notes", rowId: "${rowId}", data: { title: "x" } }) { id } }`;

describe('CSRF gate for cookie-authenticated unsafe requests', () => {
  test('system REST: foreign Origin, cross-site Sec-Fetch-Site and Origin null are refused and nothing runs', async () => {
    for (const headers of REFUSED) {
      const body = newRow();
      expectRestError(await server.call('POST', rowsPath(), { jar, headers, body }), 403, 'CSRF_REJECTED');
      assert.equal(await rowExists(body.rowId), false, JSON.stringify(headers));
    }
    // Safe methods are never gated.
    assert.equal((await server.call('GET', '/api/me', { jar, headers: FOREIGN })).status, 200);
  });

  test('passes: own origin, Sec-Fetch-Site same-origin or none, an allowlisted origin, no browser signals', async () => {
    const passing: Record<string, string>[] = [
      { Origin: server.url },
      { 'Sec-Fetch-Site': 'same-origin', Origin: server.url },
      { 'Sec-Fetch-Site': 'none' },
      { 'Sec-Fetch-Site': 'cross-site', Origin: ALLOWED_ORIGIN },
      { Origin: ALLOWED_ORIGIN },
      {},
    ];
    for (const headers of passing) expectStatus(await server.call('POST', rowsPath(), { jar, headers, body: newRow() }), 201);
  });

  test('explicit credentials bypass the gate (cookies are then ignored)', async () => {
    expectStatus(await server.call('POST', rowsPath(), { jar, token, headers: FOREIGN, body: newRow() }), 201);
    const key = expectStatus(await server.call('POST', '/api/api-keys/personal', { token, body: { name: 'csrf' } }), 201).body.secret;
    expectStatus(await server.call('POST', rowsPath(), { jar, headers: { ...CROSS_SITE, 'X-Api-Key': key }, body: newRow() }), 201);
  });

  test('system GraphQL: refused per HTTP request before execution (403, no data)', async () => {
    for (const headers of REFUSED) {
      const rowId = `g${++nextId}`;
      assert.deepEqual(gqlFailure(await server.gql(createRowMutation(rowId), { jar, headers })), [403, 'CSRF_REJECTED', false]);
      assert.equal(await rowExists(rowId), false);
    }
    // A POSTed query is an unsafe request too; GET queries are not gated.
    assert.deepEqual(gqlFailure(await server.gql('{ me { id } }', { jar, headers: FOREIGN })), [403, 'CSRF_REJECTED', false]);
    const viaGet = await server.call('GET', `/graphql?query=${encodeURIComponent('{ me { username } }')}`, { jar, headers: FOREIGN });
    assert.equal(gqlOk(viaGet).me.username, 'admin');
    assert.ok(gqlOk(await server.gql(createRowMutation(`g${++nextId}`), { jar, headers: { Origin: server.url } })).createRow);
  });

  test('generated REST and GraphQL: the same gate', async () => {
    const rest = `${draftEndpoint('rest', blog)}/tables/notes/rows`;
    const graphql = draftEndpoint('graphql', blog);
    const createNote = (id: string) => `mutation { createNote(data: { id: "${id}", data: { title: "x" } }) { id } }`;
    const refused: string[] = [];
    for (const headers of REFUSED) {
      const viaRest = `e${++nextId}`;
      expectRestError(await server.call('POST', rest, { jar, headers, body: { id: viaRest, data: { title: 'x' } } }), 403, 'CSRF_REJECTED');
      const viaGraphql = `e${++nextId}`;
      assert.deepEqual(gqlFailure(await server.gql(createNote(viaGraphql), { jar, headers, path: graphql })), [403, 'CSRF_REJECTED', false]);
      refused.push(viaRest, viaGraphql);
    }
    expectStatus(await server.call('POST', rest, { jar, headers: { Origin: server.url }, body: { id: 'ok1', data: { title: 'x' } } }), 201);
    assert.ok(gqlOk(await server.gql(createNote('ok2'), { jar, path: graphql, headers: { 'Sec-Fetch-Site': 'same-origin' } })).createNote);
    const ids = gqlOk(await server.gql('{ notes(data: { first: 1000 }) { edges { node { id } } } }', { jar, path: graphql })).notes.edges.map(
      (edge: { node: { id: string } }) => edge.node.id,
    );
    assert.ok(ids.includes('ok1') && ids.includes('ok2'), ids.join(','));
    assert.deepEqual(
      ids.filter((id: string) => refused.includes(id)),
      [],
    );
  });

  test('login, refresh, logout and logout-all are always gated; a refused refresh or logout changes nothing', async () => {
    const login = await server.call('POST', '/api/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD }, headers: FOREIGN });
    expectRestError(login, 403, 'CSRF_REJECTED');
    assert.deepEqual(login.cookies, []);
    const mutation = `mutation { login(data: { username: "admin", password: "${ADMIN_PASSWORD}" }) { accessToken } }`;
    const gqlLogin = await server.gql(mutation, { headers: CROSS_SITE });
    assert.deepEqual(gqlFailure(gqlLogin), [200, 'CSRF_REJECTED', true]);
    assert.deepEqual(gqlLogin.cookies, []);

    const session = await server.login('admin', ADMIN_PASSWORD);
    const before = session.jar.get('svc_rt')?.value;
    const metricsBefore = await refreshCounts();
    for (const headers of REFUSED) {
      for (const route of ['refresh', 'logout', 'logout-all']) {
        const reply = await server.call('POST', `/api/auth/${route}`, { jar: session.jar, headers });
        expectRestError(reply, 403, 'CSRF_REJECTED');
        assert.deepEqual(reply.cookies, [], route);
      }
    }
    expectRestError(await server.call('POST', '/api/auth/logout-all', { token: session.accessToken, headers: FOREIGN }), 403, 'CSRF_REJECTED');
    // The refresh token was neither consumed nor revoked: the next refresh rotates it (not a duplicate).
    assert.deepEqual(await refreshCounts(), metricsBefore);
    const rotated = await server.call('POST', '/api/auth/refresh', { jar: session.jar, headers: { Origin: server.url } });
    assert.equal(rotated.status, 200, rotated.text);
    assert.notEqual(session.jar.get('svc_rt')?.value, before);
    assert.deepEqual(await refreshCounts(), { ...metricsBefore, rotated: (metricsBefore.rotated ?? 0) + 1 });
  });
});

describe('the own origin (auth.md §6.3)', () => {
  test('TRUST_PROXY makes X-Forwarded-Proto/-Host the own origin; PUBLIC_URL replaces the derived one', async () => {
    const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'data.example.com', Origin: 'https://data.example.com' };
    const attempt = async (other: AuthServer, headers: Record<string, string>) => {
      const { jar } = await other.login('admin', ADMIN_PASSWORD);
      return (await other.call('POST', '/api/auth/access-token', { jar, headers })).status;
    };
    const proxied = await startAuthServer({ TRUST_PROXY: 'loopback', ALLOWED_HOSTS: 'data.example.com' });
    const publicUrl = await startAuthServer({ PUBLIC_URL: 'https://public.example.com' });
    try {
      assert.equal(await attempt(proxied, forwarded), 200);
      assert.equal(await attempt(proxied, { ...forwarded, Origin: proxied.url }), 403, 'the socket origin is not the forwarded one');
      assert.equal(await attempt(server, forwarded), 403, 'untrusted forwarding headers are ignored');
      assert.equal(await attempt(server, { Origin: server.url }), 200);
      assert.equal(await attempt(publicUrl, { Origin: 'https://public.example.com' }), 200);
      assert.equal(await attempt(publicUrl, { Origin: publicUrl.url }), 403);
    } finally {
      await proxied.close();
      await publicUrl.close();
    }
  });
});

/** `strata_refresh_total` by outcome, from /metrics. */
async function refreshCounts(): Promise<Record<string, number>> {
  const text = (await server.call('GET', '/metrics')).text;
  const counts: Record<string, number> = {};
  for (const match of text.matchAll(/^strata_refresh_total\{outcome="(\w+)"\} (\d+)$/gm)) counts[match[1] as string] = Number(match[2]);
  return counts;
}

describe('CORS (auth.md §6.2)', () => {
  const preflight = (path: string, origin: string) =>
    server.call('OPTIONS', path, {
      headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type, x-api-key' },
    });

  test('preflights from a listed origin answer 204 on every surface, /mcp included', async () => {
    for (const path of ['/api/me', '/graphql', `${draftEndpoint('rest', blog)}/tables/notes/rows`, draftEndpoint('graphql', blog), '/mcp']) {
      const reply = await preflight(path, ALLOWED_ORIGIN);
      assert.equal(reply.status, 204, path);
      assert.equal(reply.headers.get('access-control-allow-origin'), ALLOWED_ORIGIN);
      assert.equal(reply.headers.get('access-control-allow-credentials'), 'true');
      assert.match(reply.headers.get('vary') ?? '', /\bOrigin\b/);
      assert.equal(reply.headers.get('access-control-allow-methods'), 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
      assert.equal(
        reply.headers.get('access-control-allow-headers'),
        'Content-Type, Authorization, X-Api-Key, X-Request-Id, X-Strata-Min-Position, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID',
      );
      assert.equal(reply.headers.get('access-control-max-age'), '600');
    }
  });

  test('responses to a listed origin carry the CORS headers; unlisted origins get none', async () => {
    const listed = await server.call('GET', '/api/me', { token, headers: { Origin: ALLOWED_ORIGIN } });
    assert.equal(listed.status, 200);
    assert.equal(listed.headers.get('access-control-allow-origin'), ALLOWED_ORIGIN);
    assert.equal(listed.headers.get('access-control-allow-credentials'), 'true');
    assert.match(listed.headers.get('vary') ?? '', /\bOrigin\b/);
    assert.equal(
      listed.headers.get('access-control-expose-headers'),
      'X-Strata-Position, X-Strata-Consistency, X-Request-Id, Mcp-Session-Id, Retry-After, WWW-Authenticate',
    );
    for (const reply of [await server.call('GET', '/api/me', { token, headers: FOREIGN }), await preflight('/api/me', 'https://evil.example')]) {
      const cors = [...reply.headers.keys()].filter((name) => name.startsWith('access-control-'));
      assert.deepEqual(cors, []);
    }
  });
});

test('no password, refresh token, access token or key secret appears in any log line', () => {
  server.assertNoSecretsLogged();
});
