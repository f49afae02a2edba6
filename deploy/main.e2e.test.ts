import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createSqliteEventStore } from '../command-service/index.ts';
import { loadConfig } from './config/loadConfig.ts';
import { startStrata } from './main.ts';

const log = pino({ level: 'silent' });
const root = await mkdtemp(join(tmpdir(), 'strata-main-'));
after(() => rm(root, { recursive: true, force: true }));

describe('startStrata', () => {
  test('a projector-only process serves health and answers 503 elsewhere, then closes', async () => {
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: join(root, 'projector'), ROLES: 'projector' });
    const strata = await startStrata(config, { log });
    try {
      assert.equal((await fetch(`${strata.url}/health/ready`)).status, 200);
      const res = await fetch(`${strata.url}/api/projects`);
      assert.equal(res.status, 503);
      assert.equal(((await res.json()) as { code: string }).code, 'SERVICE_UNAVAILABLE');
    } finally {
      await Promise.all([strata.close(), strata.close()]);
    }
    await assert.rejects(fetch(`${strata.url}/health/live`));
  });

  test('a query-only process seeds nothing, appends nothing and answers writes 503 without COMMAND_URL', async () => {
    const dataDir = join(root, 'query-only');
    const strata = await startStrata(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ROLES: 'query' }), { log });
    try {
      const json = { 'content-type': 'application/json' };
      const login = await fetch(`${strata.url}/api/auth/login`, { method: 'POST', headers: json, body: '{"username":"admin","password":"admin"}' });
      assert.equal(login.status, 503);
      assert.equal(((await login.json()) as { code: string }).code, 'SERVICE_UNAVAILABLE');
      const mutation = await fetch(`${strata.url}/graphql`, {
        method: 'POST',
        headers: json,
        body: '{"query":"mutation { login(data: {username: \\"admin\\", password: \\"admin\\"}) { accessToken } }"}',
      });
      assert.equal(mutation.status, 503);
      // Reads are served here.
      const query = await fetch(`${strata.url}/graphql`, { method: 'POST', headers: json, body: '{"query":"{ __typename }"}' });
      assert.equal(query.status, 200);
    } finally {
      await strata.close();
    }
    const eventStore = createSqliteEventStore({ file: join(dataDir, 'events.db') });
    try {
      assert.equal(await eventStore.headPosition(), null);
    } finally {
      await eventStore.close();
    }
  });

  test('a failed start releases the stores so a retry can open them', async () => {
    const dataDir = join(root, 'retry');
    const first = await startStrata(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir }), { log });
    const port = new URL(first.url).port;
    try {
      await assert.rejects(startStrata(loadConfig({ PORT: port, HOST: '127.0.0.1', DATA_DIR: dataDir }), { log }), {
        code: 'EADDRINUSE',
      });
    } finally {
      await first.close();
    }
    const second = await startStrata(loadConfig({ PORT: port, HOST: '127.0.0.1', DATA_DIR: dataDir }), { log });
    assert.equal((await fetch(`${second.url}/health/live`)).status, 200);
    await second.close();
  });
});
