import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadConfig } from './config/loadConfig.ts';
import { isConfigError } from './config/strataConfig.ts';
import { openInfra } from './openInfra.ts';
import { freePort } from '../tests/support/freePort.ts';

const log = pino({ level: 'silent' });
const root = await mkdtemp(join(tmpdir(), 'strata-infra-'));
after(() => rm(root, { recursive: true, force: true }));

/** A loopback port nothing listens on. */
const closedPort = freePort;

describe('openInfra', () => {
  test('opens SQLite files in a new DATA_DIR and the in-process queue', async () => {
    const dataDir = join(root, 'a', 'b');
    const infra = await openInfra(loadConfig({ DATA_DIR: dataDir }), log);
    try {
      assert.equal(infra.eventStore.backend, 'sqlite');
      assert.equal(infra.viewStore.backend, 'sqlite');
      assert.equal(infra.queue.kind, 'in-process');
      assert.equal(await infra.eventStore.ping(), true);
      assert.equal(await infra.viewStore.ping(), true);
      const files = await readdir(dataDir);
      assert.ok(files.includes('events.db') && files.includes('views.db'), files.join(','));
    } finally {
      await infra.close();
      await infra.close();
    }
  });

  test('uses BullMQ when REDIS_URL is set', async () => {
    const port = await closedPort();
    const infra = await openInfra(loadConfig({ DATA_DIR: join(root, 'redis'), REDIS_URL: `redis://127.0.0.1:${port}` }), log);
    try {
      assert.equal(infra.queue.kind, 'bullmq');
    } finally {
      await infra.close();
    }
  });

  test('VIEW_STORE=mongodb opens the MongoDB view store (connecting on first use)', async () => {
    const port = await closedPort();
    const config = loadConfig({ DATA_DIR: join(root, 'mongo'), VIEW_STORE: 'mongodb', MONGO_URL: `mongodb://127.0.0.1:${port}/x` });
    const infra = await openInfra(config, log);
    try {
      assert.equal(infra.viewStore.backend, 'mongodb');
      assert.equal(infra.eventStore.backend, 'sqlite');
    } finally {
      await infra.close();
    }
  });

  test('EVENT_STORE=esdb opens the KurrentDB event store (connecting on first use)', async () => {
    const port = await closedPort();
    const config = loadConfig({ DATA_DIR: join(root, 'esdb'), EVENT_STORE: 'esdb', EVENTSTORE_URL: `esdb://127.0.0.1:${port}?tls=false` });
    const infra = await openInfra(config, log);
    try {
      assert.equal(infra.eventStore.backend, 'kurrent');
      assert.equal(infra.viewStore.backend, 'sqlite');
      assert.equal(await infra.eventStore.ping(), false);
    } finally {
      await infra.close();
    }
  });

  test('EVENT_STORE=esdb without a URL (a config built in code) is refused naming the variable', async () => {
    const dataDir = join(root, 'never');
    const config = { ...loadConfig({ DATA_DIR: dataDir }), eventStore: 'esdb' as const, eventStoreUrl: null };
    await assert.rejects(openInfra(config, log), (err: unknown) => {
      assert.ok(isConfigError(err));
      assert.deepEqual(
        err.problems.map((p) => p.variable),
        ['EVENTSTORE_URL'],
      );
      return true;
    });
    await assert.rejects(readdir(dataDir), { code: 'ENOENT' });
  });
});
