import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { MongoClient } from 'mongodb';
import { pino } from 'pino';
import { systemClock } from '../../contracts/index.ts';
import { createSqliteViewStore, loadMongoViewStore } from '../../projection-worker/index.ts';
import { createFakeViewStore } from '../../projection-worker/testing/fakePorts.ts';
import { startJongodb } from '../support/jongodbServer.ts';
import type { JongodbServer } from '../support/jongodbServer.ts';
import { viewStoreContract } from './viewStoreContract.ts';
import type { OpenViewStore } from './viewStoreFixtures.ts';

const { createMongoViewStore } = await loadMongoViewStore();

const log = pino({ level: 'silent' });

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

// The same store with its reads and index builds in worker threads (as the server runs it, QUERY_TIMEOUT_MS).
viewStoreContract('sqlite, reads in worker threads', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'strata-views-'));
  const store = createSqliteViewStore({ file: join(dir, 'views.db'), reads: { timeoutMs: 60_000, threads: 1 } });
  return {
    store,
    cleanup: async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

// The store the projection runner's tests use: SQLite in memory, recording version lifecycle calls.
viewStoreContract('in-memory sqlite (projection-worker/testing/fakePorts.ts)', async () => {
  const store = createFakeViewStore(systemClock);
  return { store, cleanup: () => store.close() };
});

/** A throw-away database per test; `drop` says whether the server can drop it afterwards. */
function openMongo(url: () => Promise<string>, drop: boolean): OpenViewStore {
  return async () => {
    const mongoUrl = await url();
    const database = `strata_contract_${randomUUID().replaceAll('-', '')}`;
    // Every find, aggregate and count carries maxTimeMS (QUERY_TIMEOUT_MS), as in the server.
    const store = createMongoViewStore({ url: mongoUrl, database, log, queryTimeoutMs: 60_000 });
    return {
      store,
      cleanup: async () => {
        await store.close();
        if (drop) await dropMongoDatabase(mongoUrl, database);
      },
    };
  };
}

async function dropMongoDatabase(url: string, database: string): Promise<void> {
  const client = new MongoClient(url);
  try {
    await client.db(database).dropDatabase();
  } finally {
    await client.close();
  }
}

// jongodb is a partial-fidelity MongoDB-wire-compatible stand-in (README "MongoDB in tests"), started once for this
// file. It cannot drop databases; its memory goes with the process. Each skip names what it lacks.
let jongodb: Promise<JongodbServer> | null = null;
after(async () => {
  if (jongodb !== null) await (await jongodb).stop();
});
const UNEVALUATED = 'jongodb does not evaluate aggregation expressions';
viewStoreContract(
  'mongodb (jongodb stand-in)',
  openMongo(async () => (await (jongodb ??= startJongodb())).url, false),
  {
    skip: {
      casts: `${UNEVALUATED} in $expr ($let, $cond, $convert, $regexFind, ...), which casts need`,
      'nulls and uncastable values sort last in both directions': `${UNEVALUATED} in $addFields, which sorting on casts and json paths needs`,
      'booleans sort false before true; several keys': `${UNEVALUATED} in $addFields; one case sorts on a boolean cast of a json path`,
      'text sorts by Unicode code point': 'jongodb orders strings by UTF-16 code units; MongoDB by code point (UTF-8 bytes)',
      'layers: sorted by a json path across layers': `${UNEVALUATED} in $addFields, which sorting on json paths needs`,
      'field indexes: an order on the field then the row id reads the index, page by page': `${UNEVALUATED} in $addFields, which sorting on json paths needs`,
      // Seen 2026-11-28: the whole file then hit its 600 s timeout in `npm test`, and 1 run in 8 hung on a loaded machine.
      'rebuild while the live version is read and written: batches interleave, the switch and the drop lose nothing':
        'jongodb can hang when two transactions on different versions run at once (live and shadow batches together)',
    },
  },
);

const mongoUrl = process.env.MONGO_URL;
if (mongoUrl === undefined || mongoUrl === '') {
  test('ViewStore contract: mongodb', { skip: 'MONGO_URL is not set: the suite against real MongoDB is skipped' }, () => {});
} else {
  viewStoreContract(
    'mongodb',
    openMongo(() => Promise.resolve(mongoUrl), true),
  );
}
