import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ViewStore } from '../../contracts/index.ts';
import { createSqliteViewStore } from '../../projection-worker/index.ts';
import { viewStoreContract } from './viewStoreContract.ts';

viewStoreContract('sqlite', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'strata-views-'));
  const store = createSqliteViewStore({ file: join(dir, 'views.db') });
  return {
    store,
    cleanup: async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

const mongoUrl = process.env.MONGO_URL;
if (mongoUrl === undefined || mongoUrl === '') {
  test('ViewStore contract: mongodb', { skip: 'MONGO_URL is not set: MongoDB contract suite skipped' }, () => {});
} else {
  const worker = (await import('../../projection-worker/index.ts')) as Record<string, unknown>;
  const create = worker.createMongoViewStore as ((options: { url: string; database: string }) => ViewStore) | undefined;
  if (typeof create !== 'function') {
    const skip = 'createMongoViewStore is not exported: the MongoDB adapter is not built';
    test('ViewStore contract: mongodb', { skip }, () => {});
  } else {
    viewStoreContract('mongodb', async () => {
      // One throw-away database per test; it is dropped afterwards when the mongodb driver is installed.
      const database = `strata_contract_${randomUUID().replaceAll('-', '')}`;
      const store = create({ url: mongoUrl, database });
      return {
        store,
        cleanup: async () => {
          await store.close();
          await dropMongoDatabase(mongoUrl, database);
        },
      };
    });
  }
}

async function dropMongoDatabase(url: string, database: string): Promise<void> {
  const specifier = 'mongodb';
  const driver = (await import(specifier)) as {
    MongoClient: new (url: string) => { db(name: string): { dropDatabase(): Promise<unknown> }; close(): Promise<void> };
  };
  const client = new driver.MongoClient(url);
  try {
    await client.db(database).dropDatabase();
  } finally {
    await client.close();
  }
}
