import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnStrata as run, until, type StrataRun as Run } from '../support/strataProcess.ts';

const temp = await mkdtemp(join(tmpdir(), 'strata-serve-'));
after(() => rm(temp, { recursive: true, force: true }));

async function startServer(env: Record<string, string>): Promise<{ run: Run; url: string }> {
  const dataDir = await mkdtemp(join(temp, 'data-'));
  const server = run(['serve'], { PORT: '0', HOST: '127.0.0.1', DATA_DIR: join(dataDir, 'fresh'), ...env });
  const url = await until('the listening line', 30_000, async () => {
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.stderr()}`);
    for (const line of server.stdout().split('\n')) {
      if (!line.startsWith('{')) continue;
      const record = JSON.parse(line) as { msg?: string; url?: string };
      if (record.msg === 'http server listening' && record.url) return record.url;
    }
    return undefined;
  });
  await until('/health/ready 200', 5_000, async () => ((await fetch(`${url}/health/ready`)).status === 200 ? true : undefined));
  return { run: server, url };
}

async function stop(server: Run): Promise<number | null> {
  server.child.kill('SIGTERM');
  const timeout = setTimeout(() => server.child.kill('SIGKILL'), 15_000);
  const code = await server.exited;
  clearTimeout(timeout);
  return code;
}

describe('strata serve', () => {
  test('serves health, JSON 404s and no metrics by default, then stops on SIGTERM', async () => {
    const { run: server, url } = await startServer({});
    try {
      const ready = await fetch(`${url}/health/ready`);
      assert.deepEqual(await ready.json(), {
        status: 'ready',
        checks: { eventStore: 'ok', viewStore: 'ok', queue: 'disabled', projections: { maxLagEvents: 0 } },
      });
      const live = await fetch(`${url}/health/live`);
      assert.equal(live.status, 200);
      assert.deepEqual(await live.json(), { status: 'ok' });

      const missing = await fetch(`${url}/no/such/route`, { headers: { 'X-Request-Id': 'e2e-404' } });
      assert.equal(missing.status, 404);
      assert.equal(missing.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(missing.headers.get('cache-control'), 'no-store');
      assert.equal(missing.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(missing.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(missing.headers.get('x-request-id'), 'e2e-404');
      assert.equal(missing.headers.get('x-powered-by'), null);
      assert.deepEqual(await missing.json(), { statusCode: 404, code: 'ROUTE_NOT_FOUND', message: 'Not found' });

      const metrics = await fetch(`${url}/metrics`);
      assert.equal(metrics.status, 404);
      assert.equal(((await metrics.json()) as { code: string }).code, 'ROUTE_NOT_FOUND');
    } finally {
      assert.equal(await stop(server), 0, server.stderr());
    }
    assert.match(server.stdout(), /"msg":"shutdown complete"/);
  });

  test('serves /metrics with METRICS_ENABLED=true', async () => {
    const { run: server, url } = await startServer({ METRICS_ENABLED: 'true' });
    try {
      const res = await fetch(`${url}/metrics`);
      assert.equal(res.status, 200);
      const text = await res.text();
      assert.match(text, /^strata_http_requests_total\{method="GET",route="\/health\/ready",status="200"\} \d+$/m);
      assert.match(text, /^strata_projection_lag_events\{projection="[a-z-]+"\} 0$/m);
    } finally {
      assert.equal(await stop(server), 0, server.stderr());
    }
  });

  test('an invalid environment exits 1 naming every bad variable', async () => {
    const bad = run(['serve'], { PORT: 'abc', COOKIE_SAMESITE: 'weird', DATA_DIR: join(temp, 'unused') });
    assert.equal(await bad.exited, 1);
    assert.match(bad.stderr(), /PORT/);
    assert.match(bad.stderr(), /COOKIE_SAMESITE/);
    assert.equal(bad.stdout(), '');
  });

  test('an unknown command exits 2 with usage', async () => {
    const unknown = run(['frobnicate'], {});
    assert.equal(await unknown.exited, 2);
    assert.match(unknown.stderr(), /unknown command/);
    assert.match(unknown.stderr(), /Usage: strata/);
    const none = run([], {});
    assert.equal(await none.exited, 2);
    assert.match(none.stderr(), /Usage: strata/);
  });
});
