import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { pino } from 'pino';
import { commonHeaders, errorHandler, jsonBody, requestLogger } from '../../query-service/index.ts';
import { createWriteForwarding, type WriteForwarding } from './forwardWrites.ts';

const log = pino({ level: 'silent' });
const LIMIT = 256 * 1024;

type Seen = { method: string; url: string; headers: IncomingHttpHeaders; body: Buffer };
let upstreamSeen: Seen[] = [];
const servers: Server[] = [];
const forwardings: WriteForwarding[] = [];
let commandUrl = '';
let queryUrl = '';
let orphanUrl = '';
let deadUrl = '';

function listen(server: Server): Promise<string> {
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/** The command process: records what arrives and answers with cookies, or an SSE stream on GET /mcp. */
function commandServer(): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      upstreamSeen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      if (req.method === 'GET' && req.url === '/mcp') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's1' });
        res.write('event: message\ndata: first\n\n');
        setTimeout(() => res.end('event: message\ndata: second\n\n'), 300);
        return;
      }
      res.setHeader('Set-Cookie', ['svc_at=a; HttpOnly', 'svc_rt=b; HttpOnly']);
      res.setHeader('X-Strata-Position', 's:00000000000000000042');
      res.setHeader('X-Request-Id', String(req.headers['x-request-id']));
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ created: true }));
    });
  });
}

/** A query-only process: the forwarding router, then local handlers parsing bodies with the role's jsonBody. */
function queryApp(target: string | null) {
  const forwarding = createWriteForwarding({ commandUrl: target, bodyLimitBytes: LIMIT, log });
  forwardings.push(forwarding);
  const app = express();
  app.use(commonHeaders, requestLogger(log), forwarding.router);
  const parse = jsonBody({ limitBytes: LIMIT, limitText: '256kb' });
  const local = (req: express.Request, res: express.Response) => void res.json({ local: true, body: req.body ?? null });
  app.post('/graphql', parse, local);
  app.post('/endpoint/graphql/:org/:project/:branch/:mode', parse, local);
  app.post('/api/revision/:r/table/:t/rows/query', parse, local);
  app.get('/api/organizations', local);
  app.use(errorHandler);
  return createServer(app);
}

type Answer = { status: number; headers: IncomingHttpHeaders; body: string };

/** One request with node:http; `chunks` are sent without a Content-Length (chunked). */
function send(url: string, method: string, options: { headers?: Record<string, string>; body?: string; chunks?: string[] } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
    const req = request(url, { method, headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    if (options.chunks) for (const chunk of options.chunks) req.write(chunk);
    req.end(options.body);
  });
}

const JSON_TYPE = { 'content-type': 'application/json' };

before(async () => {
  commandUrl = await listen(commandServer());
  queryUrl = await listen(queryApp(commandUrl));
  orphanUrl = await listen(queryApp(null));
  const dead = createServer();
  deadUrl = await listen(dead);
  await new Promise((resolve) => dead.close(resolve));
  servers.splice(servers.indexOf(dead), 1);
});

after(async () => {
  for (const forwarding of forwardings) forwarding.close();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('write forwarding', () => {
  test('a REST write reaches the command process unchanged and its answer comes back whole', async () => {
    upstreamSeen = [];
    const body = '{"organizationId": "acme",  "x": [1, 2]}';
    const res = await send(`${queryUrl}/api/organizations?trace=1`, 'POST', {
      headers: {
        ...JSON_TYPE,
        authorization: 'Bearer t0k',
        cookie: 'svc_at=zz',
        'x-custom': 'yes',
        'x-request-id': 'req-1',
        'x-forwarded-for': '203.0.113.9',
      },
      body,
    });
    assert.equal(res.status, 201);
    assert.deepEqual(res.headers['set-cookie'], ['svc_at=a; HttpOnly', 'svc_rt=b; HttpOnly']);
    assert.equal(res.headers['x-strata-position'], 's:00000000000000000042');
    assert.equal(res.headers['x-request-id'], 'req-1');
    assert.equal(res.headers['cache-control'], undefined, 'only the command process headers come back');
    assert.deepEqual(JSON.parse(res.body), { created: true });
    const seen = upstreamSeen[0];
    assert.ok(seen);
    assert.equal(seen.method, 'POST');
    assert.equal(seen.url, '/api/organizations?trace=1');
    assert.equal(seen.body.toString(), body);
    assert.equal(seen.headers.authorization, 'Bearer t0k');
    assert.equal(seen.headers.cookie, 'svc_at=zz');
    assert.equal(seen.headers['x-custom'], 'yes');
    assert.equal(seen.headers.host, new URL(queryUrl).host, 'the Host the client addressed is kept');
    assert.equal(seen.headers['x-forwarded-for'], '203.0.113.9, 127.0.0.1');
  });

  test('auth routes, MCP and deletes go to the command process; reads and rows/query stay local', async () => {
    upstreamSeen = [];
    assert.equal((await send(`${queryUrl}/api/auth/login`, 'POST', { headers: JSON_TYPE, body: '{}' })).status, 201);
    assert.equal((await send(`${queryUrl}/endpoint/rest/a/b/c/draft/tables/t/row/r`, 'DELETE')).status, 201);
    const read = await send(`${queryUrl}/api/organizations`, 'GET');
    assert.deepEqual(JSON.parse(read.body), { local: true, body: null });
    const query = await send(`${queryUrl}/api/revision/r1/table/t/rows/query`, 'POST', { headers: JSON_TYPE, body: '{"first":5}' });
    assert.deepEqual(JSON.parse(query.body), { local: true, body: { first: 5 } });
    assert.deepEqual(
      upstreamSeen.map((s) => `${s.method} ${s.url}`),
      ['POST /api/auth/login', 'DELETE /endpoint/rest/a/b/c/draft/tables/t/row/r'],
    );
  });

  test('GraphQL mutations are forwarded byte for byte; queries are read locally from an intact body', async () => {
    upstreamSeen = [];
    const mutation = '{ "query": "query Q { me { id } } mutation M { logout }", "operationName": "M" }';
    assert.equal((await send(`${queryUrl}/endpoint/graphql/a/b/c/draft`, 'POST', { headers: JSON_TYPE, body: mutation })).status, 201);
    assert.equal(upstreamSeen[0]?.body.toString(), mutation);

    // Large (many socket reads) and chunked bodies reach the local parser untouched.
    const big = { query: `{ me { id } } # ${'x'.repeat(200_000)}`, variables: { mutation: true } };
    const local = await send(`${queryUrl}/graphql`, 'POST', { headers: JSON_TYPE, body: JSON.stringify(big) });
    assert.deepEqual(JSON.parse(local.body), { local: true, body: big });
    const text = JSON.stringify({ query: 'query { me { id } }' });
    const chunked = await send(`${queryUrl}/graphql`, 'POST', { headers: JSON_TYPE, chunks: [text.slice(0, 7), text.slice(7)] });
    assert.deepEqual(JSON.parse(chunked.body), { local: true, body: { query: 'query { me { id } }' } });
    const chunkedMutation = await send(`${queryUrl}/graphql`, 'POST', { headers: JSON_TYPE, chunks: ['{"query":"mutati', 'on { a }"}'] });
    assert.equal(chunkedMutation.status, 201);
    assert.equal(upstreamSeen.length, 2);
  });

  test('bodies over the limit, empty and non-JSON bodies get the local answers', async () => {
    const over = await send(`${queryUrl}/graphql`, 'POST', { headers: JSON_TYPE, chunks: ['{"query":"', 'x'.repeat(LIMIT), '"}'] });
    assert.equal(over.status, 413);
    assert.equal(JSON.parse(over.body).code, 'PAYLOAD_TOO_LARGE');
    const empty = await send(`${queryUrl}/graphql`, 'POST', { headers: { ...JSON_TYPE, 'transfer-encoding': 'chunked' }, chunks: [] });
    assert.deepEqual(JSON.parse(empty.body), { local: true, body: null });
    const text = await send(`${queryUrl}/graphql`, 'POST', { headers: { 'content-type': 'text/plain' }, body: 'mutation { a }' });
    assert.equal(text.status, 415);
  });

  test('MCP streams are relayed as they arrive', async () => {
    const started = Date.now();
    const firstEvent = await new Promise<number>((resolve, reject) => {
      const req = request(`${queryUrl}/mcp`, { method: 'GET', headers: { accept: 'text/event-stream' }, agent: false }, (res) => {
        assert.equal(res.headers['content-type'], 'text/event-stream');
        assert.equal(res.headers['mcp-session-id'], 's1');
        let seen = '';
        let firstAt = 0;
        res.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          if (firstAt === 0 && seen.includes('first')) firstAt = Date.now();
        });
        res.on('end', () => {
          assert.match(seen, /data: first[\s\S]*data: second/);
          resolve(firstAt);
        });
      });
      req.on('error', reject);
      req.end();
    });
    // The first event is not held back until the stream ends (300 ms later).
    assert.ok(firstEvent - started < 250, `first event after ${firstEvent - started} ms`);
  });

  test('without COMMAND_URL, or with the command process down, writes answer 503 in their surface shape', async () => {
    for (const base of [orphanUrl]) {
      const rest = await send(`${base}/api/organizations`, 'POST', { headers: JSON_TYPE, body: '{}' });
      assert.equal(rest.status, 503);
      assert.equal(rest.headers['retry-after'], '1');
      assert.equal(JSON.parse(rest.body).code, 'SERVICE_UNAVAILABLE');
      const graphql = await send(`${base}/graphql`, 'POST', { headers: JSON_TYPE, body: '{"query":"mutation { logout }"}' });
      assert.equal(graphql.status, 503);
      assert.equal(JSON.parse(graphql.body).errors[0].extensions.code, 'SERVICE_UNAVAILABLE');
      const mcp = await send(`${base}/mcp`, 'POST', { headers: JSON_TYPE, body: '{}' });
      assert.equal(mcp.status, 503);
      assert.equal(JSON.parse(mcp.body).error.code, -32000);
      const read = await send(`${base}/api/organizations`, 'GET');
      assert.equal(read.status, 200);
    }
    const deadQuery = await listen(queryApp(deadUrl));
    const down = await send(`${deadQuery}/api/organizations`, 'POST', { headers: JSON_TYPE, body: '{}' });
    assert.equal(down.status, 503);
    assert.equal(JSON.parse(down.body).code, 'SERVICE_UNAVAILABLE');
  });
});
