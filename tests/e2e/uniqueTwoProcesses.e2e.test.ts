// x-unique between writers in separate processes (domain.md §5.5, issue 30): two `strata serve` on one DATA_DIR,
// both with the command role, write the same unique value at the same moment. The log decides: exactly one write
// of each pair is created, the other is refused with 409 UNIQUE_VIOLATION naming the winner.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedisServer, type RedisServer } from '../support/redisServer.ts';
import { strataApi, type StrataApi } from '../support/strataApi.ts';
import { startStrataProcess, type StrataProcess } from '../support/strataProcess.ts';

const PASSWORD = 'unique-two-processes-admin';
let dir = '';
let redis: RedisServer;
let first: StrataProcess;
let second: StrataProcess;
let token = '';
let apiA: StrataApi;
let apiB: StrataApi;

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['sku'],
  properties: { sku: { type: 'string', default: '', 'x-unique': true } },
};

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-unique-two-'));
  redis = await startRedisServer();
  const shared = { DATA_DIR: dir, REDIS_URL: redis.url, ADMIN_PASSWORD: PASSWORD, JWT_SECRET: 'unique-two-processes-secret-of-32-bytes+' };
  // The first process runs every role (projections included); the second one decides and serves only.
  first = await startStrataProcess(shared);
  second = await startStrataProcess({ ...shared, ROLES: 'command,query' });
  apiA = strataApi(
    () => first.url,
    () => token,
  );
  apiB = strataApi(
    () => second.url,
    () => token,
  );
});

after(async () => {
  await Promise.allSettled([first?.stop(), second?.stop()]);
  await redis?.stop();
  await rm(dir, { recursive: true, force: true });
});

test('the same unique value written at once through two processes: exactly one write wins', async () => {
  token = (await apiA.ok('POST', '/auth/login', { username: 'admin', password: PASSWORD })).accessToken;
  await apiA.ok('POST', '/organizations', { organizationId: 'acme' }, 201);
  await apiA.ok('POST', '/organization/acme/projects', { projectName: 'shop' }, 201);
  const draft = (await apiA.ok('GET', '/organization/acme/project/shop/branch/master')).draftRevisionId;
  await apiA.ok('POST', `/revision/${draft}/tables`, { tableId: 'items', schema }, 201);
  const rows = `/revision/${draft}/table/items/rows`;

  const pairs = 12;
  for (let i = 0; i < pairs; i++) {
    const [a, b] = await Promise.all([
      apiA.call('POST', rows, { rowId: `a${i}`, data: { sku: `S-${i}` } }),
      apiB.call('POST', rows, { rowId: `b${i}`, data: { sku: `S-${i}` } }),
    ]);
    const statuses = [a.status, b.status].sort();
    assert.deepEqual(statuses, [201, 409], `pair ${i}: ${JSON.stringify([a.body, b.body])}`);
    const [winner, loser] = a.status === 201 ? [`a${i}`, b] : [`b${i}`, a];
    assert.equal(loser.body.code, 'UNIQUE_VIOLATION');
    assert.equal(loser.body.details[0].otherRowId, winner);
  }

  // Both processes read the same table: one row per value.
  for (const api of [apiA, apiB]) {
    const page = await api.ok('GET', `${rows}?first=100`);
    const values = page.edges.map((edge: { node: { data: { sku: string } } }) => edge.node.data.sku).sort();
    assert.equal(values.length, pairs);
    assert.equal(new Set(values).size, pairs);
  }
});
