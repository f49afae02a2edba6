// Issue 2 acceptance: two processes share one DATA_DIR — one serves HTTP (command + query), the other only runs the
// projections — and hand events from one to the other through the shared SQLite log and BullMQ wake-ups on Redis.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedisServer, type RedisServer } from '../support/redisServer.ts';
import { startStrataProcess, until, type StrataProcess } from '../support/strataProcess.ts';

let dataDir = '';
let redis: RedisServer;
let api: StrataProcess;
let projector: StrataProcess;

before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'strata-two-'));
  redis = await startRedisServer();
  const shared = { DATA_DIR: dataDir, REDIS_URL: redis.url, ADMIN_PASSWORD: 'two-process-admin', CONSISTENCY_TIMEOUT_MS: '10000' };
  // The projector starts first so the tables exist; the API process has no projector role at all.
  projector = await startStrataProcess({ ...shared, ROLES: 'projector' });
  api = await startStrataProcess({ ...shared, ROLES: 'command,query' });
});

after(async () => {
  await Promise.allSettled([api?.stop(), projector?.stop()]);
  await redis?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

test('a write in the command process is projected by the projector process and read back', async () => {
  const login = await fetch(`${api.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'two-process-admin' }),
  });
  assert.equal(login.status, 200);
  const { accessToken } = (await login.json()) as { accessToken: string };
  const auth = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };

  const created = await fetch(`${api.url}/api/organization/admin/projects`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ projectName: 'handoff' }),
  });
  assert.equal(created.status, 201);
  // The API process cannot project: 'projected' means the other process applied the events.
  assert.equal(created.headers.get('x-strata-consistency'), 'projected');
  const position = created.headers.get('x-strata-position');
  assert.match(position ?? '', /^s:\d{20}$/);

  const read = await fetch(`${api.url}/api/organization/admin/project/handoff`, {
    headers: { ...auth, 'x-strata-min-position': position ?? '' },
  });
  assert.equal(read.status, 200);
  assert.equal(((await read.json()) as { name: string }).name, 'handoff');

  // The projector process reports the checkpoint at the write's position and serves nothing but health.
  const ready = await fetch(`${projector.url}/health/ready`);
  assert.equal(ready.status, 200);
  assert.equal(((await ready.json()) as { checks: { queue: string } }).checks.queue, 'ok');
  const refused = await fetch(`${projector.url}/api/organization/admin/projects`, { headers: auth });
  assert.equal(refused.status, 503);
  assert.equal(((await refused.json()) as { code: string }).code, 'SERVICE_UNAVAILABLE');
});

test('the projector process is woken through Redis, not only by polling', async () => {
  // Each append rings BullMQ; the projector logs nothing per wake-up, so assert on latency across many writes:
  // every write must come back 'projected' well within the consistency timeout.
  const login = await fetch(`${api.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'two-process-admin' }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const auth = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
  for (let i = 0; i < 5; i++) {
    const res = await fetch(`${api.url}/api/organization/admin/projects`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ projectName: `wake${i}` }),
    });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('x-strata-consistency'), 'projected');
  }
  const list = await until('five projects listed', 5000, async () => {
    const res = await fetch(`${api.url}/api/organization/admin/projects?first=100`, { headers: auth });
    const body = (await res.json()) as { totalCount: number };
    return body.totalCount >= 6 ? body : undefined;
  });
  assert.ok(list.totalCount >= 6);
});
