import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { MongoClient } from 'mongodb';
import { sqlitePosition } from '../../contracts/index.ts';
import type { Clock, ProjectionSpec, ViewChange, ViewDoc, ViewStore } from '../../contracts/index.ts';
import { startJongodb } from '../support/jongodbServer.ts';
import type { JongodbServer } from '../support/jongodbServer.ts';
import { loadMongoViewStore } from '../../projection-worker/index.ts';
import { viewStoreSharingContract } from '../contract/viewStoreSharingContract.ts';

const { createMongoViewStore } = await loadMongoViewStore();

// Adapter-specific behaviour on the jongodb stand-in (README "MongoDB in tests"), and on real MongoDB when MONGO_URL
// is set. The ViewStore contract suite (tests/contract) covers the port itself.

const spec = (version: number, extraField = false): ProjectionSpec => ({
  name: 'api-keys',
  version,
  collections: [
    {
      name: 'keys',
      fields: { id: 'text', owner: 'text', uses: 'integer', data: 'json', ...(extraField ? { note: 'text' as const } : {}) },
      key: ['id'],
      indexes: [{ fields: ['owner'] }, { fields: ['owner', 'uses'], unique: true }],
    },
  ],
});
const v = (version: number) => ({ name: 'api-keys', version });
const keyDoc = (doc: ViewDoc): ViewChange => ({ op: 'upsert', collection: 'keys', doc });
const ids = (docs: readonly ViewDoc[]): unknown[] => docs.map((d) => d.id);

type Target = { name: string; url: () => Promise<string>; writeConflicts: boolean };

let jongodb: Promise<JongodbServer> | null = null;
after(async () => {
  if (jongodb !== null) await (await jongodb).stop();
});
const targets: Target[] = [{ name: 'jongodb stand-in', url: async () => (await (jongodb ??= startJongodb())).url, writeConflicts: false }];
const mongoUrl = process.env.MONGO_URL;
if (mongoUrl !== undefined && mongoUrl !== '') targets.push({ name: 'MongoDB', url: () => Promise.resolve(mongoUrl), writeConflicts: true });

for (const target of targets) {
  /** Several stores (as separate processes would have) on one fresh database. */
  async function withDatabase(fn: (open: (clock?: Clock) => ViewStore, client: MongoClient, database: string) => Promise<void>): Promise<void> {
    const url = await target.url();
    const database = `strata_int_${randomUUID().replaceAll('-', '')}`;
    const client = new MongoClient(url);
    const stores: ViewStore[] = [];
    try {
      await fn(
        (clock) => {
          const store = createMongoViewStore(clock === undefined ? { url, database } : { url, database, clock });
          stores.push(store);
          return store;
        },
        client,
        database,
      );
    } finally {
      for (const store of stores) await store.close();
      if (target.writeConflicts) await client.db(database).dropDatabase();
      await client.close();
    }
  }

  viewStoreSharingContract(`mongodb stores on one database (${target.name})`, (fn) => withDatabase((open) => fn(open)), {
    ...(target.writeConflicts ? {} : { skipConcurrentBatches: 'jongodb does not detect write conflicts between transactions' }),
  });

  describe(`mongoViewStore on ${target.name}`, () => {
    test('a field added to the spec reads as null, sorts last and reaches readers holding the old spec', () =>
      withDatabase(async (open) => {
        const reader = open();
        const writer = open();
        await reader.ensureProjection(spec(1));
        await reader.applyBatch(v(1), null, sqlitePosition(1), [keyDoc({ id: 'old', owner: 'o' })]);
        const noted = { kind: 'compare', ref: { field: 'note' }, op: 'eq', value: 'x' } as const;
        await assert.rejects(reader.find('api-keys', 'keys', { filter: noted }), /unknown field "note"/);
        await writer.ensureProjection(spec(1, true));
        await writer.applyBatch(v(1), sqlitePosition(1), sqlitePosition(2), [keyDoc({ id: 'new', owner: 'p', note: 'x' })]);
        assert.deepEqual(ids(await reader.find('api-keys', 'keys', { filter: noted })), ['new']);
        const byNote = (direction: 'asc' | 'desc') => reader.find('api-keys', 'keys', { orderBy: [{ ref: { field: 'note' }, direction }] });
        assert.deepEqual(ids(await byNote('asc')), ['new', 'old']);
        assert.deepEqual(ids(await byNote('desc')), ['new', 'old']);
      }));

    test('plain fields sort with nulls last in both directions, after updates too', () =>
      withDatabase(async (open) => {
        const store = open();
        await store.ensureProjection(spec(1));
        const docs = [
          { id: 'a', uses: 2 },
          { id: 'b', uses: null },
          { id: 'c', uses: 1 },
          { id: 'd', uses: 3 },
        ];
        assert.ok(await store.applyBatch(v(1), null, sqlitePosition(1), docs.map(keyDoc)));
        const byUses = async (direction: 'asc' | 'desc') =>
          ids(
            await store.find('api-keys', 'keys', {
              orderBy: [
                { ref: { field: 'uses' }, direction },
                { ref: { field: 'id' }, direction: 'asc' },
              ],
            }),
          );
        assert.deepEqual(await byUses('asc'), ['c', 'a', 'd', 'b']);
        assert.deepEqual(await byUses('desc'), ['d', 'a', 'c', 'b']);
        const idIs = (value: string) => ({ kind: 'compare', ref: { field: 'id' }, op: 'eq', value }) as const;
        assert.ok(
          await store.applyBatch(v(1), sqlitePosition(1), sqlitePosition(2), [
            { op: 'update', collection: 'keys', filter: idIs('d'), set: { uses: null } },
            { op: 'update', collection: 'keys', filter: idIs('b'), inc: { uses: 5 } },
          ]),
        );
        assert.deepEqual(await byUses('asc'), ['c', 'a', 'b', 'd']);
        assert.deepEqual(await byUses('desc'), ['b', 'a', 'c', 'd']);
      }));

    test('an update of a key field re-keys the document; a taken key fails the batch', () =>
      withDatabase(async (open) => {
        const store = open();
        await store.ensureProjection(spec(1));
        await store.applyBatch(v(1), null, sqlitePosition(1), [keyDoc({ id: 'a', owner: 'o', uses: 1 }), keyDoc({ id: 'b' })]);
        const renameA = (to: string): ViewChange => ({
          op: 'update',
          collection: 'keys',
          filter: { kind: 'compare', ref: { field: 'id' }, op: 'eq', value: 'a' },
          set: { id: to },
          inc: { uses: 1 },
        });
        await assert.rejects(store.applyBatch(v(1), sqlitePosition(1), sqlitePosition(2), [renameA('b')]));
        assert.equal((await store.get('api-keys', 'keys', { id: 'a' }))?.owner, 'o');
        assert.ok(await store.applyBatch(v(1), sqlitePosition(1), sqlitePosition(2), [renameA('z')]));
        assert.equal(await store.get('api-keys', 'keys', { id: 'a' }), null);
        assert.deepEqual(await store.get('api-keys', 'keys', { id: 'z' }), { id: 'z', owner: 'o', uses: 2, data: null });
      }));

    test('json object keys MongoDB cannot hold as they are round-trip and can be filtered on', () =>
      withDatabase(async (open) => {
        const store = open();
        await store.ensureProjection(spec(1));
        const data = { '': 1, '0': 'zero', $x: { 'a.b': [{ '%_': true }] }, '%41': 'pct', 'nul\u0000': null, list: ['first'] };
        await store.applyBatch(v(1), null, sqlitePosition(1), [keyDoc({ id: 'j', data }), keyDoc({ id: 'k', data: [{ '0': 'x' }] })]);
        assert.deepEqual((await store.get('api-keys', 'keys', { id: 'j' }))?.data, data);
        const where = (path: (string | number)[], value: string | number | boolean) =>
          store.find('api-keys', 'keys', { filter: { kind: 'compare', ref: { field: 'data', path }, op: 'eq', value } });
        assert.deepEqual(ids(await where(['0'], 'zero')), ['j'], 'a property named "0"');
        assert.deepEqual(ids(await where([0, '0'], 'x')), ['k'], 'index 0, then a property named "0"');
        assert.deepEqual(ids(await where(['list', 0], 'first')), ['j']);
        assert.deepEqual(ids(await where(['list', '0'], 'first')), [], 'a property "0" is not an array index');
        assert.deepEqual(ids(await where(['$x', 'a.b', 0, '%_'], true)), ['j']);
        assert.deepEqual(ids(await where(['%41'], 'pct')), ['j']);
        assert.deepEqual(ids(await where([''], 1)), ['j']);
      }));

    test('completeVersion adds the deferred readersOnly indexes and the sort indexes of the active version', () =>
      withDatabase(async (open, client, database) => {
        const store = open();
        const readersOnly = (version: number): ProjectionSpec => {
          const base = spec(version);
          const readIndex = { fields: ['uses'], readersOnly: true };
          return { ...base, collections: base.collections.map((c) => ({ ...c, indexes: [...(c.indexes ?? []), readIndex] })) };
        };
        const names = async (collection: string) => (await client.db(database).collection(collection).indexes()).map((i) => i.name).sort();
        await store.ensureProjection(readersOnly(1), { deferReadIndexes: true });
        assert.deepEqual(await names('v_api_keys_1_keys'), ['_id_', 'key', 'owner', 'owner__uses__u', 'uses'], 'a first version gets all');
        await store.ensureIndex('api-keys', 'keys', { equal: ['owner'], sort: [{ ref: { field: 'uses' }, direction: 'desc' }] });
        const sortIndex = (await names('v_api_keys_1_keys')).find((name) => name?.startsWith('sort_'));
        assert.ok(sortIndex !== undefined);

        await store.ensureProjection(readersOnly(2), { deferReadIndexes: true });
        assert.deepEqual(await names('v_api_keys_2_keys'), ['_id_', 'key', 'owner', 'owner__uses__u']);
        await store.applyBatch(v(2), null, sqlitePosition(1), [keyDoc({ id: 'k1', owner: 'o', uses: 1 })]);
        await store.completeVersion(v(2));
        await store.completeVersion(v(2));
        assert.deepEqual(await names('v_api_keys_2_keys'), await names('v_api_keys_1_keys'));
      }));

    test('storage: collection names, indexes, clashing names refused, a reused version number starts empty', () =>
      withDatabase(async (open, client, database) => {
        const store = open();
        await store.ensureProjection(spec(1));
        await store.ensureProjection(spec(1));
        const keys = client.db(database).collection('v_api_keys_1_keys');
        const indexes = await keys.indexes();
        assert.deepEqual(indexes.map((i) => i.name).sort(), ['_id_', 'key', 'owner', 'owner__uses__u']);
        assert.equal(indexes.find((i) => i.name === 'owner__uses__u')?.unique, true);
        await assert.rejects(store.ensureProjection({ ...spec(1), name: 'api_keys' }), /clashes/);

        // Two documents without `owner` do not collide on the unique (owner, uses) index, as in SQLite.
        await store.applyBatch(v(1), null, sqlitePosition(1), [keyDoc({ id: 'x', uses: 1 }), keyDoc({ id: 'y', uses: 1 })]);
        await store.ensureProjection(spec(2));
        await store.activate('api-keys', 2);
        await store.dropVersion(v(1));
        // Leftovers of an interrupted drop are cleared when the version number is ensured again.
        await keys.insertOne({ _id: 'stray' as never, id: 'stray' });
        await store.ensureProjection(spec(1));
        await store.activate('api-keys', 1);
        assert.equal(await store.count('api-keys', 'keys'), 0);
        assert.equal(await store.checkpoint(v(1)), null);
      }));
  });
}
