// Runs the EventStore contract against every adapter: SQLite always, KurrentDB when EVENTSTORE_URL names a server,
// and the in-memory store the projection runner's tests use in place of SQLite.
import { test } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteEventStore, loadKurrentEventStore } from '../../command-service/index.ts';
import { createFakeEventStore } from '../../projection-worker/testing/fakePorts.ts';
import { eventStagingContract } from './eventStagingContract.ts';
import { eventStoreContract, type OpenedEventStore, type OpenEventStoreOptions } from './eventStoreContract.ts';

const { createKurrentEventStore } = await loadKurrentEventStore();

async function openSqlite({ upcast }: OpenEventStoreOptions): Promise<OpenedEventStore> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-event-store-'));
  const options = { file: join(dir, 'events.db'), pollIntervalMs: 10, ...(upcast ? { upcast } : {}) };
  const store = createSqliteEventStore(options);
  return {
    store,
    openSecond: async () => createSqliteEventStore(options),
    async cleanup() {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

eventStoreContract('sqlite', openSqlite, { freshBackend: true });
eventStagingContract('sqlite', openSqlite);

eventStoreContract(
  'in-memory (projection-worker/testing/fakePorts.ts)',
  async ({ upcast }) => {
    const store = createFakeEventStore(upcast ? { upcast } : {});
    return { store, cleanup: () => store.close() };
  },
  { freshBackend: true },
);

const eventStoreUrl = process.env.EVENTSTORE_URL;
if (eventStoreUrl === undefined || eventStoreUrl === '') {
  test('kurrentdb event store', { skip: 'EVENTSTORE_URL is not set: KurrentDB contract suite skipped' }, () => {});
} else {
  eventStoreContract('kurrentdb', async ({ upcast }) => {
    const options = { url: eventStoreUrl, ...(upcast ? { upcast } : {}) };
    const store = createKurrentEventStore(options);
    return {
      store,
      openSecond: async () => createKurrentEventStore(options),
      // Every test uses fresh stream categories (unique per run), so nothing on the shared server needs removing.
      cleanup: () => store.close(),
    };
  });
}
