import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../contracts/index.ts';
import { commonHeaders, errorHandler, methodNotAllowed, notFound, requestLogger, sendJson } from '../index.ts';
import { captureLogger, newApp, serve } from '../testing/testServer.ts';

const { log, lines } = captureLogger();
let base = '';
let close: () => Promise<void> = async () => {};

before(async () => {
  const app = newApp();
  app.use(commonHeaders, requestLogger(log));
  app
    .route('/ok')
    .get((_req, res) => sendJson(res, 200, { hello: 'wörld' }))
    .all(methodNotAllowed(['GET', 'POST']));
  app.get('/fail/:kind', (req) => {
    switch (req.params.kind) {
      case 'unauth':
        throw new AppError('TOKEN_EXPIRED');
      case 'unauth-custom':
        throw new AppError('TOKEN_INVALID', undefined, undefined, { 'WWW-Authenticate': 'Bearer realm="strata", error="invalid_token"' });
      case 'throttled':
        throw new AppError('RATE_LIMITED');
      case 'unavailable':
        throw new AppError('SERVICE_UNAVAILABLE', 'redis at redis://cache:6379 is down', undefined, { 'Retry-After': '7' });
      case 'details':
        throw new AppError('INVALID_DATA', 'bad row', [{ path: '/views', message: 'must be number', keyword: 'type' }]);
      case 'library':
        throw Object.assign(new Error('Failed to decode param'), { status: 400 });
      default:
        throw new Error('SQLITE_ERROR: no such table: rows at better-sqlite3');
    }
  });
  app.use(notFound);
  app.use(errorHandler);
  ({ url: base, close } = await serve(app));
});
after(() => close());

describe('commonHeaders and sendJson', () => {
  test('every JSON response carries the common headers and never X-Powered-By', async () => {
    const res = await fetch(`${base}/ok`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.match(res.headers.get('x-request-id') ?? '', /^[A-Za-z0-9._-]{1,64}$/);
    assert.equal(res.headers.get('x-powered-by'), null);
    assert.deepEqual(await res.json(), { hello: 'wörld' });
  });

  test('a valid incoming X-Request-Id is echoed, an invalid one replaced', async () => {
    const echoed = await fetch(`${base}/ok`, { headers: { 'X-Request-Id': 'abc.DEF_123-x' } });
    assert.equal(echoed.headers.get('x-request-id'), 'abc.DEF_123-x');
    for (const bad of ['has space', 'a'.repeat(65), 'semi;colon']) {
      const res = await fetch(`${base}/ok`, { headers: { 'X-Request-Id': bad } });
      const id = res.headers.get('x-request-id') ?? '';
      assert.notEqual(id, bad);
      assert.match(id, /^[A-Za-z0-9._-]{1,64}$/);
    }
  });

  test('HTTP HEAD answers like GET without a body', async () => {
    const res = await fetch(`${base}/ok`, { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(await res.text(), '');
  });
});

describe('sendError', () => {
  async function errorOf(path: string, init?: RequestInit) {
    const res = await fetch(`${base}${path}`, init);
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    return { res, body: (await res.json()) as Record<string, unknown> };
  }

  test('unknown routes are 404 ROUTE_NOT_FOUND', async () => {
    const { res, body } = await errorOf('/nope?api_key=x');
    assert.equal(res.status, 404);
    assert.deepEqual(body, { statusCode: 404, code: 'ROUTE_NOT_FOUND', message: 'Not found' });
  });

  test('405 lists the allowed methods, HEAD included', async () => {
    const { res, body } = await errorOf('/ok', { method: 'PUT' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'GET, HEAD, POST');
    assert.equal(body.code, 'METHOD_NOT_ALLOWED');
    assert.equal(body.message, 'Method PUT is not allowed on this route');
  });

  test('every 401 carries WWW-Authenticate, custom values are kept', async () => {
    const plain = await errorOf('/fail/unauth');
    assert.equal(plain.res.status, 401);
    assert.equal(plain.res.headers.get('www-authenticate'), 'Bearer realm="strata"');
    assert.deepEqual(plain.body, { statusCode: 401, code: 'TOKEN_EXPIRED', message: 'Access token has expired' });
    const custom = await errorOf('/fail/unauth-custom');
    assert.equal(custom.res.headers.get('www-authenticate'), 'Bearer realm="strata", error="invalid_token"');
  });

  test('429 and 503 carry Retry-After; 5xx messages are generic', async () => {
    const throttled = await errorOf('/fail/throttled');
    assert.equal(throttled.res.status, 429);
    assert.equal(throttled.res.headers.get('retry-after'), '1');
    const down = await errorOf('/fail/unavailable');
    assert.equal(down.res.status, 503);
    assert.equal(down.res.headers.get('retry-after'), '7');
    assert.deepEqual(down.body, { statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: 'Service unavailable' });
  });

  test('details are returned for codes that define them', async () => {
    const { res, body } = await errorOf('/fail/details');
    assert.equal(res.status, 400);
    assert.deepEqual(body.details, [{ path: '/views', message: 'must be number', keyword: 'type' }]);
  });

  test('library client errors keep their status with a catalogue message', async () => {
    const { res, body } = await errorOf('/fail/library');
    assert.equal(res.status, 400);
    assert.deepEqual(body, { statusCode: 400, code: 'BAD_REQUEST', message: 'Bad request' });
  });

  test('unexpected errors become a generic 500, logged with the stack', async () => {
    const before = lines.length;
    const { res, body } = await errorOf('/fail/crash', { headers: { 'X-Request-Id': 'crash-1' } });
    assert.equal(res.status, 500);
    assert.deepEqual(body, { statusCode: 500, code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' });
    const logged = lines.slice(before).find((l) => l.msg === 'request failed');
    assert.ok(logged, 'the failure is logged');
    assert.equal(logged.level, 50);
    assert.equal(logged.reqId, 'crash-1');
    assert.match(String((logged.err as { stack?: string }).stack), /SQLITE_ERROR[\s\S]*errorsAndHeaders\.int\.test\.ts/);
  });
});
