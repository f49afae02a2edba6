// Runs the EventStore contract against every adapter: SQLite always, KurrentDB when EVENTSTORE_URL names a server.
import { test } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteEventStore } from '../../command-service/index.ts';
import type { EventStore, UpcastFn } from '../../contracts/index.ts';
import { eventStoreContract } from './eventStoreContract.ts';

eventStoreContract(
  'sqlite',
  async ({ upcast }) => {
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
  },
  { freshBackend: true },
);

type CreateKurrentEventStore = (options: { url: string; upcast?: UpcastFn }) => EventStore;

const eventStoreUrl = process.env.EVENTSTORE_URL;
if (eventStoreUrl === undefined || eventStoreUrl === '') {
  test('kurrentdb event store', { skip: 'EVENTSTORE_URL is not set: KurrentDB contract suite skipped' }, () => {});
} else {
  const commandService: Record<string, unknown> = await import('../../command-service/index.ts');
  const create = commandService.createKurrentEventStore;
  if (typeof create !== 'function') {
    const skip =
      'EVENTSTORE_URL is set but command-service/index.ts does not export createKurrentEventStore: ' +
      'the KurrentDB adapter is not built yet';
    test('kurrentdb event store', { skip }, () => {});
  } else {
    const createKurrent = create as CreateKurrentEventStore;
    eventStoreContract('kurrentdb', async ({ upcast }) => {
      const options = { url: eventStoreUrl, ...(upcast ? { upcast } : {}) };
      const store = createKurrent(options);
      return {
        store,
        openSecond: async () => createKurrent(options),
        // Tests use fresh stream categories, so nothing on the shared server needs removing.
        cleanup: () => store.close(),
      };
    });
  }
}
