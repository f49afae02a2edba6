// Generated-endpoint reads take the fast routes of the real server (deploy/http/createHttpServer.ts): the same
// middleware without express's router. Express routes paths case-insensitively and the fast routes only take the
// exact lower-case prefixes, so `/Endpoint/...` is the routed twin of every `/endpoint/...` request: each pair must
// answer the same status, headers and body, and log the same request line.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../deploy/config/loadConfig.ts';
import { createRootLogger } from '../../deploy/logger.ts';
import { startStrata, type StrataHandle } from '../../deploy/main.ts';

const ORIGIN = 'https://app.example.com';
const root = await mkdtemp(join(tmpdir(), 'strata-fast-routes-'));
const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});
// The production root logger: request lines take its direct writer (deploy/logger.ts requestLineWriter).
const log = createRootLogger({ logLevel: 'info' }, sink);
let strata: StrataHandle;
let token: string;

type Reply = { status: number; headers: Record<string, string>; body: string };
type Call = { method?: string; path: string; headers?: Record<string, string>; body?: string };

/** Headers that differ per response by nature. */
const VARYING = new Set(['date', 'x-request-id', 'keep-alive', 'connection']);

async function send(call: Call): Promise<Reply> {
  const res = await fetch(`${strata.url}${call.path}`, {
    method: call.method ?? 'GET',
    headers: call.headers ?? {},
    ...(call.body !== undefined ? { body: call.body } : {}),
  });
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!VARYING.has(name)) headers[name] = value;
  });
  return { status: res.status, headers, body: await res.text() };
}

function completionLine(requestId: string): Record<string, unknown> | undefined {
  const line = lines.find((l) => l.reqId === requestId && l.msg === 'request completed');
  if (line === undefined) return undefined;
  const { method, route, status, principal } = line;
  return { method, route, status, principal };
}

/** Sends the fast request and its routed twin; both must answer and log alike. Returns the fast reply. */
async function same(call: Call): Promise<Reply> {
  assert.ok(call.path.startsWith('/endpoint/'));
  const fastId = `fast-${lines.length}-${Math.random().toString(36).slice(2)}`;
  const routedId = `routed-${fastId}`;
  const fast = await send({ ...call, headers: { ...call.headers, 'x-request-id': fastId } });
  const routed = await send({
    ...call,
    path: `/Endpoint/${call.path.slice('/endpoint/'.length)}`,
    headers: { ...call.headers, 'x-request-id': routedId },
  });
  assert.deepEqual(fast, routed, `${call.method ?? 'GET'} ${call.path}`);
  // Log lines are written when the response closes: wait for both.
  for (let i = 0; i < 100 && (completionLine(fastId) === undefined || completionLine(routedId) === undefined); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.ok(completionLine(fastId), 'the fast request logged its completion line');
  const raw = lines.find((l) => l.reqId === fastId && l.msg === 'request completed') ?? {};
  assert.deepEqual(Object.keys(raw), ['level', 'time', 'pid', 'hostname', 'reqId', 'method', 'route', 'status', 'durationMs', 'principal', 'msg']);
  assert.deepEqual(completionLine(fastId), completionLine(routedId));
  return fast;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test JSON
async function api(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${strata.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${text}`);
  return text === '' ? null : JSON.parse(text);
}

before(async () => {
  strata = await startStrata(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: join(root, 'data'), ADMIN_PASSWORD: 'fast-routes-admin', CORS_ORIGIN: ORIGIN }),
    { log },
  );
  const login = await fetch(`${strata.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'fast-routes-admin' }),
  });
  token = ((await login.json()) as { accessToken: string }).accessToken;
  await api('POST', '/api/organizations', { organizationId: 'acme' });
  await api('POST', '/api/organization/acme/projects', { projectName: 'shop', isPublic: false });
  const branch = '/api/organization/acme/project/shop/branch/master';
  const draft = (await api('GET', branch)).draftRevisionId as string;
  const text = { type: 'string', default: '' };
  const schema = {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'n'],
    properties: { name: text, n: { type: 'number', default: 0 } },
  };
  await api('POST', `/api/revision/${draft}/tables`, { tableId: 'items', schema });
  const rows = Array.from({ length: 30 }, (_, n) => ({ rowId: n === 7 ? 'r-7' : `r${n}`, data: { name: `row ${n}`, n } }));
  await api('POST', `/api/revision/${draft}/table/items/rows/bulk`, { rows });
  await api('POST', `${branch}/revisions`, { comment: 'first' });
  const head = (await api('GET', branch)).headRevisionId as string;
  for (const type of ['GRAPHQL', 'REST_API']) await api('POST', `/api/revision/${head}/endpoints`, { type });
  // Writes go to the draft of another branch: `master` has no draft endpoint (a read test relies on that).
  await api('POST', `/api/revision/${head}/branches`, { branchName: 'dev' });
  const devDraft = (await api('GET', '/api/organization/acme/project/shop/branch/dev')).draftRevisionId as string;
  await api('POST', `/api/revision/${devDraft}/endpoints`, { type: 'REST_API' });
});

const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g;

/**
 * A write on the fast route and its routed twin, each on its own row (`fast` and `routed` in `call(id)`): both
 * must answer and log alike once the row ids, times and log positions that differ by nature are set aside.
 */
async function sameWrite(call: (id: string) => Call): Promise<Reply> {
  const fastId = `fastw-${lines.length}-${Math.random().toString(36).slice(2)}`;
  const fast = await send({ ...call('fast'), headers: { ...call('fast').headers, 'x-request-id': fastId } });
  const twin = call('routed');
  const routed = await send({
    ...twin,
    path: `/Endpoint/${twin.path.slice('/endpoint/'.length)}`,
    headers: { ...twin.headers, 'x-request-id': `routed-${fastId}` },
  });
  const normal = (reply: Reply): Reply => {
    const { 'x-strata-position': position, 'content-length': _length, ...headers } = reply.headers;
    if (position !== undefined) headers['x-strata-position'] = 'a position';
    return { status: reply.status, headers, body: reply.body.replaceAll('routed', 'fast').replace(TIME, 'a time') };
  };
  assert.deepEqual(normal(fast), normal(routed), `${twin.method ?? 'GET'} ${twin.path}`);
  for (let i = 0; i < 100 && (completionLine(fastId) === undefined || completionLine(`routed-${fastId}`) === undefined); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const route = (line: Record<string, unknown> | undefined) => ({ ...line, route: String(line?.route).replaceAll('routed', 'fast') });
  assert.deepEqual(route(completionLine(fastId)), route(completionLine(`routed-${fastId}`)));
  return fast;
}

after(async () => {
  await strata?.close();
  await rm(root, { recursive: true, force: true });
});

describe('generated reads on the fast routes answer and log as the routed requests do', () => {
  const rest = '/endpoint/rest/acme/shop/master/head';
  const gql = '/endpoint/graphql/acme/shop/master/head';
  const auth = () => ({ authorization: `Bearer ${token}` });

  test('REST row reads: found, missing, encoded ids, HEAD, anonymous and bad credentials', async () => {
    const found = await same({ path: `${rest}/tables/items/rows/r3`, headers: auth() });
    assert.equal(found.status, 200);
    assert.equal(JSON.parse(found.body).data.name, 'row 3');
    assert.equal(found.headers['cache-control'], 'no-store');
    // Served twice: the second answer comes from the committed-revision cache and must not differ.
    assert.deepEqual(await same({ path: `${rest}/tables/items/rows/r3`, headers: auth() }), found);
    assert.equal(JSON.parse((await same({ path: `${rest}/tables/items/rows/r%2D7`, headers: auth() })).body).id, 'r-7');
    assert.equal(JSON.parse((await same({ path: `${rest}/tables/items/rows/nope`, headers: auth() })).body).code, 'ROW_NOT_FOUND');
    const head = await same({ method: 'HEAD', path: `${rest}/tables/items/rows/r3`, headers: auth() });
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
    const anonymous = await same({ path: `${rest}/tables/items/rows/r3` });
    assert.equal(anonymous.status, 401);
    assert.match(anonymous.headers['www-authenticate'] ?? '', /Bearer/);
    assert.equal((await same({ path: `${rest}/tables/items/rows/r3`, headers: { authorization: 'Bearer nonsense' } })).status, 401);
  });

  test('REST lists: where, orderBy, cursor pages, bad input, unknown endpoint and route', async () => {
    const where = encodeURIComponent(JSON.stringify({ data: { path: 'n', gte: 10 } }));
    const orderBy = encodeURIComponent(JSON.stringify([{ data: { path: 'n', direction: 'desc', type: 'int' } }]));
    const first = await same({ path: `${rest}/tables/items/rows?first=5&where=${where}&orderBy=${orderBy}`, headers: auth() });
    const page = JSON.parse(first.body);
    assert.equal(page.totalCount, 20);
    assert.deepEqual(
      page.edges.map((e: { node: { id: string } }) => e.node.id),
      ['r29', 'r28', 'r27', 'r26', 'r25'],
    );
    const second = await same({
      path: `${rest}/tables/items/rows?first=5&where=${where}&orderBy=${orderBy}&after=${encodeURIComponent(page.pageInfo.endCursor)}`,
      headers: auth(),
    });
    assert.equal(JSON.parse(second.body).edges[0].node.id, 'r24');
    assert.equal((await same({ path: `${rest}/tables/items/rows?where=%7Bnope`, headers: auth() })).status, 400);
    assert.equal(JSON.parse((await same({ path: '/endpoint/rest/acme/shop/master/draft/tables', headers: auth() })).body).code, 'ENDPOINT_NOT_FOUND');
    assert.equal(JSON.parse((await same({ path: `${rest}/tables/items/rows/r3/extra`, headers: auth() })).body).code, 'ROUTE_NOT_FOUND');
    assert.equal((await same({ path: `${rest}/openapi.json`, headers: auth() })).status, 200);
  });

  test('REST writes on a draft: create, update, patch, delete, refusals and writes on HEAD', async () => {
    const draft = '/endpoint/rest/acme/shop/dev/draft/tables/items/rows';
    const json = { ...auth(), 'content-type': 'application/json' };
    const created = await sameWrite((id) => ({
      method: 'POST',
      path: draft,
      headers: json,
      body: JSON.stringify({ id: `w-${id}`, data: { name: 'new', n: 1 } }),
    }));
    assert.equal(created.status, 201);
    assert.equal(created.headers['x-strata-consistency'], 'projected');
    assert.equal(JSON.parse(created.body).id, 'w-fast');
    const updated = await sameWrite((id) => ({
      method: 'PUT',
      path: `${draft}/w-${id}`,
      headers: json,
      body: JSON.stringify({ data: { name: 'put', n: 2 } }),
    }));
    assert.equal(JSON.parse(updated.body).data.name, 'put');
    const patched = await sameWrite((id) => ({
      method: 'PATCH',
      path: `${draft}/w-${id}`,
      headers: json,
      body: JSON.stringify({ patches: [{ op: 'replace', path: '/n', value: 3 }] }),
    }));
    assert.equal(JSON.parse(patched.body).data.n, 3);
    const duplicate = await sameWrite((id) => ({
      method: 'POST',
      path: draft,
      headers: json,
      body: JSON.stringify({ id: `w-${id}`, data: { name: 'again', n: 0 } }),
    }));
    assert.equal(JSON.parse(duplicate.body).code, 'ROW_ALREADY_EXISTS');
    const invalid = await sameWrite((id) => ({
      method: 'POST',
      path: draft,
      headers: json,
      body: JSON.stringify({ id: `x-${id}`, data: { name: 1 } }),
    }));
    assert.equal(invalid.status, 400);
    assert.equal((await sameWrite(() => ({ method: 'POST', path: draft, headers: json, body: '{"id":' }))).status, 400);
    assert.equal((await sameWrite(() => ({ method: 'POST', path: draft, headers: { 'content-type': 'application/json' }, body: '{}' }))).status, 401);
    const onHead = await sameWrite((id) => ({
      method: 'POST',
      path: `${rest}/tables/items/rows`,
      headers: json,
      body: JSON.stringify({ id: `h-${id}`, data: {} }),
    }));
    assert.equal(JSON.parse(onHead.body).code, 'READ_ONLY_ENDPOINT');
    const deleted = await sameWrite((id) => ({ method: 'DELETE', path: `${draft}/w-${id}`, headers: auth() }));
    assert.equal(deleted.status, 200);
    assert.equal((await send({ path: `${draft}/w-fast`, headers: auth() })).status, 404);
  });

  test('CORS headers for an allowed origin', async () => {
    const reply = await same({ path: `${rest}/tables/items/rows/r1`, headers: { ...auth(), origin: ORIGIN } });
    assert.equal(reply.headers['access-control-allow-origin'], ORIGIN);
    assert.equal(reply.headers['access-control-allow-credentials'], 'true');
  });

  test('GraphQL: POST and GET queries, errors in the envelope, refused mutations on HEAD', async () => {
    const json = { ...auth(), 'content-type': 'application/json' };
    const query = '{ item(id: "r2") { id data { name n } } items(data: { first: 2 }) { totalCount edges { node { id } } } }';
    const post = await same({ method: 'POST', path: gql, headers: json, body: JSON.stringify({ query }) });
    assert.equal(post.status, 200);
    assert.equal(JSON.parse(post.body).data.item.data.name, 'row 2');
    assert.equal(JSON.parse(post.body).data.items.totalCount, 30);
    const get = await same({ path: `${gql}?query=${encodeURIComponent(query)}`, headers: auth() });
    assert.deepEqual(JSON.parse(get.body), JSON.parse(post.body));
    const badJson = await same({ method: 'POST', path: gql, headers: json, body: '{"query":' });
    assert.equal(badJson.status, 400);
    assert.ok(Array.isArray(JSON.parse(badJson.body).errors));
    const mutation = await same({
      method: 'POST',
      path: gql,
      headers: json,
      body: JSON.stringify({ query: 'mutation { deleteItem(id: "r1") { id } }' }),
    });
    assert.ok(JSON.parse(mutation.body).errors.length > 0);
    const anonymous = await same({ method: 'POST', path: gql, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    assert.equal(anonymous.status, 401);
  });

  test('kept committed rows, pages and GraphQL results follow HEAD to the next commit', async () => {
    const json = { ...auth(), 'content-type': 'application/json' };
    const query = JSON.stringify({
      query:
        '{ item(id: "r5") { data { name } } items(data: { first: 1, orderBy: [{ data: { path: "n", direction: desc, type: int } }] }) { edges { node { id } } } }',
    });
    const row = async () => JSON.parse((await same({ path: `${rest}/tables/items/rows/r5`, headers: auth() })).body).data.name as string;
    const top = async () =>
      JSON.parse(
        (
          await same({
            path: `${rest}/tables/items/rows?first=1&orderBy=${encodeURIComponent('[{"data":{"path":"n","direction":"desc","type":"int"}}]')}`,
            headers: auth(),
          })
        ).body,
      ).edges[0].node.id as string;
    const graph = async () => JSON.parse((await same({ method: 'POST', path: gql, headers: json, body: query })).body).data;
    for (let i = 0; i < 2; i++) {
      assert.equal(await row(), 'row 5');
      assert.equal(await top(), 'r29');
      assert.deepEqual(await graph(), { item: { data: { name: 'row 5' } }, items: { edges: [{ node: { id: 'r29' } }] } });
    }
    const branch = '/api/organization/acme/project/shop/branch/master';
    const draft = (await api('GET', branch)).draftRevisionId as string;
    await api('PUT', `/api/revision/${draft}/table/items/row/r5`, { data: { name: 'renamed', n: 100 } });
    await api('POST', `${branch}/revisions`, { comment: 'second' });
    assert.equal(await row(), 'renamed');
    assert.equal(await top(), 'r5');
    assert.deepEqual(await graph(), { item: { data: { name: 'renamed' } }, items: { edges: [{ node: { id: 'r5' } }] } });
  });
});
