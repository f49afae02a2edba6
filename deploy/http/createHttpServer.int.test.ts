import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import express from 'express';
import { pino } from 'pino';
import type { EventStore, ProjectionStatus, Queue, ViewStore } from '../../contracts/index.ts';
import { sendJson } from '../../query-service/index.ts';
import { loadConfig } from '../config/loadConfig.ts';
import { createHttpServer, type HttpServer } from './createHttpServer.ts';
import { createMetrics } from './createMetrics.ts';

const log = pino({ level: 'silent' });

function status(name: string, version: number, active: boolean, position: string | null): ProjectionStatus {
  return { name, version, active, position, updatedAt: 1_700_000_000_000, error: null, leaseOwner: null, leaseExpiresAt: null };
}

function fakes(options: { head?: number; eventStoreUp?: boolean; viewStoreUp?: boolean | 'throws'; queueKind?: Queue['kind'] } = {}) {
  const head = options.head ?? 10;
  const statuses = [status('rows', 2, true, 's:00000000000000000007'), status('rows', 3, false, null), status('catalog', 1, true, null)];
  const eventStore = {
    backend: 'sqlite',
    ping: async () => options.eventStoreUp ?? true,
    countAfter: async (after: string | null) => head - (after === null ? 0 : Number(after.slice(2))),
  } as unknown as EventStore;
  const viewStore = {
    backend: 'sqlite',
    ping: async () => {
      if (options.viewStoreUp === 'throws') throw new Error('disk gone');
      return options.viewStoreUp ?? true;
    },
    projectionStatuses: async () => statuses,
  } as unknown as ViewStore;
  const queue = { kind: options.queueKind ?? 'in-process', ping: async () => false } as unknown as Queue;
  return { eventStore, viewStore, queue };
}

const servers: HttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close(1000)));
});

async function start(env: Record<string, string>, ports = fakes(), routers: express.Router[] = []) {
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', ...env });
  const metrics = config.metricsEnabled ? createMetrics({ ...ports, log }) : undefined;
  const server = createHttpServer({ config, log, ...ports, ...(metrics ? { metrics } : {}), routers });
  servers.push(server);
  const { url } = await server.listen();
  return { url, server };
}

describe('health routes', () => {
  test('/health/live answers ok, HEAD included, other methods 405', async () => {
    const { url } = await start({});
    const res = await fetch(`${url}/health/live`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(res.headers.get('x-powered-by'), null);
    assert.deepEqual(await res.json(), { status: 'ok' });
    const head = await fetch(`${url}/health/live`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
    const post = await fetch(`${url}/health/live`, { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD');
  });

  test('/health/ready reports stores, queue and the largest lag of active versions', async () => {
    const { url } = await start({});
    const res = await fetch(`${url}/health/ready`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      status: 'ready',
      checks: { eventStore: 'ok', viewStore: 'ok', queue: 'disabled', projections: { maxLagEvents: 10 } },
    });
  });

  test('/health/ready is 503 when a store is down or a projection lags too far', async () => {
    const down = await start({}, fakes({ viewStoreUp: 'throws', queueKind: 'bullmq' }));
    const res = await fetch(`${down.url}/health/ready`);
    assert.equal(res.status, 503);
    assert.deepEqual(await res.json(), {
      status: 'not_ready',
      checks: { eventStore: 'ok', viewStore: 'error', queue: 'error', projections: { maxLagEvents: 0 } },
    });
    const lagging = await start({ READY_MAX_LAG_EVENTS: '9' });
    const lag = await fetch(`${lagging.url}/health/ready`);
    assert.equal(lag.status, 503);
    assert.equal(((await lag.json()) as { status: string }).status, 'not_ready');
    const tolerant = await start({ READY_MAX_LAG_EVENTS: '10' });
    assert.equal((await fetch(`${tolerant.url}/health/ready`)).status, 200);
  });
});

describe('metrics', () => {
  test('/metrics is a JSON 404 unless METRICS_ENABLED', async () => {
    const { url } = await start({});
    const res = await fetch(`${url}/metrics`);
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { statusCode: 404, code: 'ROUTE_NOT_FOUND', message: 'Not found' });
  });

  test('exposes process, HTTP and projection metrics labelled by route template', async () => {
    const router = express.Router();
    router.get('/api/things/:id', (req, res) => sendJson(res, 200, { id: req.params.id }));
    const { url } = await start({ METRICS_ENABLED: 'true' }, fakes(), [router]);
    await fetch(`${url}/health/live`);
    await fetch(`${url}/api/things/raw-id-123`);
    await fetch(`${url}/unknown/raw-path-456`);
    const res = await fetch(`${url}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    const text = await res.text();
    assert.match(text, /^process_cpu_user_seconds_total /m);
    assert.match(text, /^strata_http_requests_total\{method="GET",route="\/health\/live",status="200"\} 1$/m);
    assert.match(text, /^strata_http_requests_total\{method="GET",route="\/api\/things\/:id",status="200"\} 1$/m);
    assert.match(text, /^strata_http_requests_total\{method="GET",route="\(unmatched\)",status="404"\} 1$/m);
    assert.match(text, /^strata_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/health\/live"\} \d+$/m);
    assert.match(text, /^strata_projection_lag_events\{projection="rows"\} 3$/m);
    assert.match(text, /^strata_projection_lag_events\{projection="catalog"\} 10$/m);
    assert.match(text, /^strata_projection_checkpoint_timestamp_seconds\{projection="rows"\} 1700000000$/m);
    assert.ok(!text.includes('raw-id-123') && !text.includes('raw-path-456'));
  });
});

describe('routing', () => {
  test('role routers receive the raw request and the client IP; unknown paths are a JSON 404', async () => {
    const router = express.Router();
    // Role routers parse their own bodies (the surface decides the error shape); the shell must leave the stream unread.
    router.post('/api/echo', express.json(), (req, res) => sendJson(res, 201, { got: req.body as unknown, ip: req.ip }));
    const { url } = await start({ TRUST_PROXY: 'loopback' }, fakes(), [router]);
    const res = await fetch(`${url}/api/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '203.0.113.9' },
      body: '{"a":1}',
    });
    assert.equal(res.status, 201);
    assert.deepEqual(await res.json(), { got: { a: 1 }, ip: '203.0.113.9' });
    const missing = await fetch(`${url}/api/nothing`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('cache-control'), 'no-store');
    assert.equal(((await missing.json()) as { code: string }).code, 'ROUTE_NOT_FOUND');
  });

  test('without TRUST_PROXY forwarded addresses are ignored', async () => {
    const router = express.Router();
    router.get('/api/ip', (req, res) => sendJson(res, 200, { ip: req.ip }));
    const { url } = await start({}, fakes(), [router]);
    const res = await fetch(`${url}/api/ip`, { headers: { 'X-Forwarded-For': '203.0.113.9' } });
    assert.notEqual(((await res.json()) as { ip: string }).ip, '203.0.113.9');
  });

  test('HSTS is sent over HTTPS (seen through a trusted proxy) with secure cookies', async () => {
    const { url } = await start({ TRUST_PROXY: '1', COOKIE_SECURE: 'true' });
    const https = await fetch(`${url}/health/live`, { headers: { 'X-Forwarded-Proto': 'https' } });
    assert.equal(https.headers.get('strict-transport-security'), 'max-age=15552000');
    const plain = await fetch(`${url}/health/live`);
    assert.equal(plain.headers.get('strict-transport-security'), null);
    const untrusted = await start({ COOKIE_SECURE: 'true' });
    const spoofed = await fetch(`${untrusted.url}/health/live`, { headers: { 'X-Forwarded-Proto': 'https' } });
    assert.equal(spoofed.headers.get('strict-transport-security'), null);
  });

  test('a projector-only process answers 503 except for health and metrics', async () => {
    const router = express.Router();
    router.get('/api/x', (_req, res) => sendJson(res, 200, {}));
    const { url } = await start({ ROLES: 'projector' }, fakes(), [router]);
    for (const path of ['/api/x', '/graphql', '/anything']) {
      const res = await fetch(`${url}${path}`);
      assert.equal(res.status, 503, path);
      assert.equal(res.headers.get('retry-after'), '1');
      assert.equal(((await res.json()) as { code: string }).code, 'SERVICE_UNAVAILABLE');
    }
    assert.equal((await fetch(`${url}/health/live`)).status, 200);
    assert.equal((await fetch(`${url}/metrics`)).status, 404);
  });
});

describe('close', () => {
  test('finishes in-flight requests, then refuses new connections', async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered: () => void = () => {};
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const router = express.Router();
    router.get('/api/slow', async (_req, res) => {
      entered();
      await released;
      sendJson(res, 200, { done: true });
    });
    const { url, server } = await start({}, fakes(), [router]);
    const pending = fetch(`${url}/api/slow`);
    await inside;
    const closed = server.close(5000);
    release();
    const res = await pending;
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { done: true });
    await closed;
    await assert.rejects(fetch(`${url}/health/live`));
  });
});
