import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import express from 'express';
import type { ConsistencyWaiter } from '../../contracts/index.ts';
import { commonHeaders, errorHandler, jsonBody, notFound, requestLogger, sendJson } from '../index.ts';
import { minPosition } from './minPosition.ts';
import { finishWrite } from './writeConsistency.ts';
import { captureLogger, newApp, serve } from '../testing/testServer.ts';

const POS = 's:00000000000000000042';
const { log, lines } = captureLogger();
const waits: { position: string; timeoutMs: number; projections?: readonly string[] }[] = [];
let reachable = true;
const waiter: ConsistencyWaiter = {
  waitFor: async (position, timeoutMs, projections) => {
    waits.push({ position, timeoutMs, ...(projections ? { projections } : {}) });
    return reachable;
  },
};
let base = '';
let close: () => Promise<void> = async () => {};

before(async () => {
  const app = newApp();
  app.use(commonHeaders, requestLogger(log), jsonBody({ limitBytes: 64, limitText: '64b' }));
  const api = express.Router();
  api.post('/echo', (req, res) => sendJson(res, 200, { body: req.body ?? null }));
  api.get('/items/:id', minPosition({ waiter, backend: 'sqlite', timeoutMs: 250, projections: ['rows'] }), (req, res) => {
    res.locals.principalRef = 'user:u1';
    sendJson(res, 200, { id: req.params.id });
  });
  api.post('/write/:mode', async (req, res) => {
    const mode = req.params.mode === 'appended' ? 'appended' : 'projected';
    const consistency = await finishWrite(res, POS, { waiter, mode, timeoutMs: 100 });
    sendJson(res, 200, { consistency });
  });
  api.get('/boom/:id', () => {
    throw new Error('boom');
  });
  app.use('/api', api);
  app.use(notFound);
  app.use(errorHandler);
  ({ url: base, close } = await serve(app));
});
after(() => close());

const post = (path: string, body: RequestInit['body'], headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { method: 'POST', body, headers });

describe('jsonBody', () => {
  test('parses application/json, with or without parameters', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset="UTF-8"']) {
      const res = await post('/api/echo', '{"a":[1,2]}', { 'Content-Type': type });
      assert.equal(res.status, 200, type);
      assert.deepEqual(await res.json(), { body: { a: [1, 2] } });
    }
  });

  test('body-less POSTs need no content type', async () => {
    const res = await post('/api/echo', null);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { body: null });
  });

  test('a body of another type is 415', async () => {
    for (const headers of [{ 'Content-Type': 'text/plain' }, { 'Content-Type': 'application/json; charset=latin1' }]) {
      const res = await post('/api/echo', '{"a":1}', headers);
      assert.equal(res.status, 415);
      assert.equal(((await res.json()) as { code: string }).code, 'UNSUPPORTED_MEDIA_TYPE');
    }
    const form = await post('/api/echo', new URLSearchParams({ a: '1' }));
    assert.equal(form.status, 415);
  });

  test('invalid JSON is 400 BAD_REQUEST', async () => {
    const res = await post('/api/echo', '{"a":', { 'Content-Type': 'application/json' });
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { statusCode: 400, code: 'BAD_REQUEST', message: 'Request body is not valid JSON' });
  });

  test('bodies over the limit are 413, declared or streamed', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(100) });
    const declared = await post('/api/echo', big, { 'Content-Type': 'application/json' });
    assert.equal(declared.status, 413);
    assert.deepEqual(await declared.json(), { statusCode: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Request body exceeds 64b' });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode('"0123456789"'));
        controller.close();
      },
    });
    const chunked = await fetch(`${base}/api/echo`, {
      method: 'POST',
      body: stream,
      headers: { 'Content-Type': 'application/json' },
      duplex: 'half',
    } as RequestInit);
    assert.equal(chunked.status, 413);
  });
});

describe('minPosition', () => {
  test('without the header reads are served at once', async () => {
    const before = waits.length;
    const res = await fetch(`${base}/api/items/7`);
    assert.equal(res.status, 200);
    assert.equal(waits.length, before);
  });

  test('waits for the named projections up to the timeout', async () => {
    reachable = true;
    const res = await fetch(`${base}/api/items/7`, { headers: { 'X-Strata-Min-Position': POS } });
    assert.equal(res.status, 200);
    assert.deepEqual(waits.at(-1), { position: POS, timeoutMs: 250, projections: ['rows'] });
  });

  test('malformed positions and positions of another backend are 400', async () => {
    for (const value of ['42', 's:42', 'k:00000000000000000001:00000000000000000001']) {
      const res = await fetch(`${base}/api/items/7`, { headers: { 'X-Strata-Min-Position': value } });
      assert.equal(res.status, 400, value);
      assert.equal(((await res.json()) as { code: string }).code, 'BAD_REQUEST');
    }
  });

  test('a timeout is 503 CONSISTENCY_TIMEOUT with Retry-After: 1', async () => {
    reachable = false;
    const res = await fetch(`${base}/api/items/7`, { headers: { 'X-Strata-Min-Position': POS } });
    reachable = true;
    assert.equal(res.status, 503);
    assert.equal(res.headers.get('retry-after'), '1');
    assert.equal(((await res.json()) as { code: string }).code, 'CONSISTENCY_TIMEOUT');
  });
});

describe('finishWrite', () => {
  test('reports projected, pending and appended', async () => {
    const cases = [
      { path: '/api/write/projected', reach: true, expected: 'projected' },
      { path: '/api/write/projected', reach: false, expected: 'pending' },
      { path: '/api/write/appended', reach: false, expected: 'appended' },
    ];
    for (const { path, reach, expected } of cases) {
      reachable = reach;
      const res = await post(path, null);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-strata-position'), POS);
      assert.equal(res.headers.get('x-strata-consistency'), expected);
    }
    reachable = true;
  });
});

describe('requestLogger', () => {
  const isRequestLine = (l: Record<string, unknown>, reqId: string) =>
    l.reqId === reqId && (l.msg === 'request completed' || l.msg === 'request aborted');
  const completed = (reqId: string) => lines.find((l) => isRequestLine(l, reqId));
  // The line is written when the server closes the response, which may come just after the client has it.
  const settled = async (...reqIds: string[]) => {
    for (let i = 0; i < 200 && !reqIds.every((id) => completed(id)); i++) await new Promise((r) => setTimeout(r, 5));
  };

  test('logs one line with the route template, status, duration and principal', async () => {
    await fetch(`${base}/api/items/secret-id-9?api_key=svc_leak&x=1`, { headers: { 'X-Request-Id': 'log-1' } });
    await settled('log-1');
    const line = completed('log-1');
    assert.ok(line);
    assert.equal(line.method, 'GET');
    assert.equal(line.route, '/api/items/:id');
    assert.equal(line.status, 200);
    assert.equal(typeof line.durationMs, 'number');
    assert.equal(line.principal, 'user:u1');
    assert.equal(lines.filter((l) => isRequestLine(l, 'log-1')).length, 1);
    const all = JSON.stringify(lines);
    assert.ok(!all.includes('secret-id-9') && !all.includes('svc_leak'));
  });

  test('failed and unmatched requests keep template labels and are anonymous by default', async () => {
    await fetch(`${base}/api/boom/123`, { headers: { 'X-Request-Id': 'log-2' } });
    await fetch(`${base}/no/such/path`, { headers: { 'X-Request-Id': 'log-3' } });
    await settled('log-2', 'log-3');
    assert.equal(completed('log-2')?.route, '/api/boom/:id');
    assert.equal(completed('log-2')?.status, 500);
    assert.equal(completed('log-2')?.principal, 'anonymous');
    assert.equal(completed('log-3')?.route, '(unmatched)');
    assert.equal(completed('log-3')?.status, 404);
  });
});
