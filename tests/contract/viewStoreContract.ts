import assert from 'node:assert/strict';
import { describe, test as nodeTest } from 'node:test';
import type { Filter, FindQuery, ProjectionSpec, SortKey, ViewChange, ViewStore } from '../../contracts/index.ts';
import { PROJECTION, createSkipper, pos, projectionSpec, ref, sampleDocs, seed, sleep, withStore } from './viewStoreFixtures.ts';
import type { ContractOptions, OpenViewStore } from './viewStoreFixtures.ts';
import { viewStoreChangesContract } from './viewStoreChangesContract.ts';
import { viewStoreFieldIndexContract } from './viewStoreFieldIndexContract.ts';
import { viewStoreLayersContract } from './viewStoreLayersContract.ts';
import { viewStoreQueryContract } from './viewStoreQueryContract.ts';

const upsert = (collection: string, doc: Record<string, unknown>): ViewChange => ({ op: 'upsert', collection, doc });
const idIs = (value: string): Filter => ({ kind: 'compare', ref: { field: 'id' }, op: 'eq', value });
const ALL: Filter = { kind: 'all' };

/** The contract spec with the indexes of `items` only readers need (deferred by `deferReadIndexes`). */
function readersOnlySpec(version: number): ProjectionSpec {
  const spec = projectionSpec(version);
  const collections = spec.collections.map((c) =>
    c.name === 'items' ? { ...c, indexes: (c.indexes ?? []).map((index) => ({ ...index, readersOnly: true })) } : c,
  );
  return { ...spec, collections };
}

async function statusOf(store: ViewStore, version: number) {
  return (await store.projectionStatuses()).find((s) => s.name === PROJECTION && s.version === version);
}

/**
 * Every guarantee of the ViewStore port; `open` must return a fresh, empty store each time. `options.skip` names
 * tests (of this suite and the query suite) that a partial-fidelity stand-in cannot pass, with the reason.
 */
export function viewStoreContract(name: string, open: OpenViewStore, options: ContractOptions = {}): void {
  const skipper = createSkipper(options);
  const test = (title: string, fn: () => Promise<void>): void => void nodeTest(title, skipper.optionsFor(title), fn);
  describe(`ViewStore contract: ${name}`, () => {
    test('ensureProjection is idempotent and the first version becomes active', () =>
      withStore(open, async (store) => {
        assert.equal(await store.activeVersion(PROJECTION), null);
        await store.ensureProjection(projectionSpec(1));
        assert.ok(await store.applyBatch(ref(1), null, pos(1), [upsert('items', { id: 'a' })]));
        await store.ensureProjection(projectionSpec(1));
        assert.equal(await store.activeVersion(PROJECTION), 1);
        assert.equal(await store.count(PROJECTION, 'items'), 1, 'a second ensure keeps the data');
        const statuses = (await store.projectionStatuses()).filter((s) => s.name === PROJECTION);
        assert.equal(statuses.length, 1);
        assert.deepEqual(
          { ...statuses[0], updatedAt: null },
          {
            name: PROJECTION,
            version: 1,
            active: true,
            position: pos(1),
            updatedAt: null,
            error: null,
            leaseOwner: null,
            leaseExpiresAt: null,
          },
        );
        assert.equal(typeof statuses[0]?.updatedAt, 'number');
        await store.ensureProjection(projectionSpec(2));
        assert.equal(await store.activeVersion(PROJECTION), 1, 'a later version stays inactive');
        assert.equal((await statusOf(store, 2))?.active, false);
        assert.equal(await store.checkpoint(ref(2)), null);
        assert.equal(await store.ping(), true);
      }));

    test('applyBatch compares and sets the checkpoint, changing nothing on a mismatch', () =>
      withStore(open, async (store) => {
        await store.ensureProjection(projectionSpec());
        assert.equal(await store.checkpoint(ref()), null);
        assert.equal(await store.applyBatch(ref(), pos(5), pos(6), [upsert('items', { id: 'x' })]), false);
        assert.equal(await store.checkpoint(ref()), null);
        assert.equal(await store.count(PROJECTION, 'items'), 0);

        assert.equal(await store.applyBatch(ref(), null, pos(1), [upsert('items', { id: 'a', n: 1 })]), true);
        assert.equal(await store.checkpoint(ref()), pos(1));
        // A stale runner replays the same batch: its changes (before and after a failing CAS) must not land.
        const stale: ViewChange[] = [
          { op: 'delete', collection: 'items', filter: ALL },
          upsert('items', { id: 'z' }),
          { op: 'update', collection: 'items', filter: ALL, inc: { n: 100 } },
        ];
        assert.equal(await store.applyBatch(ref(), null, pos(2), stale), false);
        assert.equal(await store.applyBatch(ref(), pos(3), pos(4), stale), false);
        assert.equal(await store.checkpoint(ref()), pos(1));
        assert.deepEqual(
          (await store.find(PROJECTION, 'items')).map((d) => [d.id, d.n]),
          [['a', 1]],
        );

        assert.equal(await store.applyBatch(ref(), pos(1), pos(2), [upsert('items', { id: 'b' })]), true);
        assert.equal(await store.applyBatch(ref(), pos(2), pos(3), []), true, 'an empty batch still moves the checkpoint');
        assert.equal(await store.checkpoint(ref()), pos(3));
        assert.equal(await store.count(PROJECTION, 'items'), 2);
      }));

    test('a failing change rolls back the whole batch and the checkpoint', () =>
      withStore(open, async (store) => {
        await seed(store);
        const unknownCollection = [upsert('items', { id: 'new' }), upsert('nope', { id: 'x' })];
        await assert.rejects(store.applyBatch(ref(), pos(1), pos(2), unknownCollection));
        await assert.rejects(
          store.applyBatch(ref(), pos(1), pos(2), [
            { op: 'delete', collection: 'items', filter: ALL },
            upsert('users', { id: 'u1', email: 'same@example.com' }),
            upsert('users', { id: 'u2', email: 'same@example.com' }),
          ]),
          Error,
          'a unique index violation fails the batch',
        );
        assert.equal(await store.checkpoint(ref()), pos(1));
        assert.equal(await store.count(PROJECTION, 'items'), sampleDocs.length);
        assert.equal(await store.count(PROJECTION, 'users'), 0);
        assert.equal(await store.get(PROJECTION, 'items', { id: 'new' }), null);
        assert.ok(await store.applyBatch(ref(), pos(1), pos(2), [upsert('users', { id: 'u1', email: 'same@example.com' })]));
      }));

    test('applyBatch calls issued together stay independent: a refused or failing batch affects only itself', () =>
      withStore(open, async (store) => {
        for (const version of [1, 2, 3, 4]) await store.ensureProjection(projectionSpec(version));
        assert.ok(await store.applyBatch(ref(1), null, pos(1), [upsert('items', { id: 'a' })]));
        // Issued in one turn, as the runners of one process do after an append (an adapter may share a transaction);
        // one batch per version, so no two of them race for the same checkpoint.
        const settled = await Promise.allSettled([
          store.applyBatch(ref(1), pos(1), pos(2), [upsert('items', { id: 'b' })]),
          store.applyBatch(ref(2), pos(7), pos(8), [upsert('items', { id: 'stale' })]),
          store.applyBatch(ref(3), null, pos(2), [upsert('items', { id: 'new' }), upsert('nope', { id: 'x' })]),
          store.applyBatch(ref(4), null, pos(2), []),
        ]);
        assert.deepEqual(
          settled.map((s) => (s.status === 'fulfilled' ? s.value : 'rejected')),
          [true, false, 'rejected', true],
        );
        assert.deepEqual(await Promise.all([1, 2, 3, 4].map((version) => store.checkpoint(ref(version)))), [pos(2), null, null, pos(2)]);
        assert.deepEqual((await store.find(PROJECTION, 'items')).map((d) => d.id).sort(), ['a', 'b']);
        for (const version of [2, 3]) {
          await store.activate(PROJECTION, version);
          assert.equal(await store.count(PROJECTION, 'items'), 0, `nothing of the refused or failed batch landed in version ${version}`);
        }
      }));

    test('applyBatch calls for one version issued before the last one ends apply in call order', () =>
      withStore(open, async (store) => {
        await seed(store, [{ id: 'live' }]);
        // A shadow filled by its only writer (a rebuild's replay), which hands over each batch before the last ends.
        await store.ensureProjection(projectionSpec(2), { deferReadIndexes: true });
        const batches = Array.from({ length: 5 }, (_, i) =>
          store.applyBatch(ref(2), i === 0 ? null : pos(i), pos(i + 1), [
            upsert('items', { id: `d${i}`, n: i }),
            upsert('items', { id: 'last', n: i }),
          ]),
        );
        assert.deepEqual(await Promise.all(batches), [true, true, true, true, true]);
        assert.equal(await store.checkpoint(ref(2)), pos(5));
        // A failing batch in the queue: those after it find the checkpoint where it stayed and change nothing.
        const settled = await Promise.allSettled([
          store.applyBatch(ref(2), pos(5), pos(6), [upsert('items', { id: 'e0' })]),
          store.applyBatch(ref(2), pos(6), pos(7), [upsert('items', { id: 'e1' }), upsert('nope', { id: 'x' })]),
          store.applyBatch(ref(2), pos(7), pos(8), [upsert('items', { id: 'e2' })]),
        ]);
        assert.deepEqual(
          settled.map((s) => (s.status === 'fulfilled' ? s.value : 'rejected')),
          [true, 'rejected', false],
        );
        assert.equal(await store.checkpoint(ref(2)), pos(6));
        await store.completeVersion(ref(2));
        await store.activate(PROJECTION, 2);
        assert.equal((await store.get(PROJECTION, 'items', { id: 'last' }))?.n, 4, 'the last batch handed over wrote last');
        assert.deepEqual((await store.find(PROJECTION, 'items')).map((d) => d.id).sort(), ['d0', 'd1', 'd2', 'd3', 'd4', 'e0', 'last']);
      }));

    test('documents round-trip with every declared field', () =>
      withStore(open, async (store) => {
        const data = { s: 'q"uote\'s \\ é \u{1F600}', n: 0.1 + 0.2, arr: [1, 'two', null, { x: [true] }], o: {} };
        await seed(store, [
          { id: 'full', title: 'Ünïcode \u{1F600}', n: 2 ** 40, score: 0.1 + 0.2, flag: false, data, extra: 'dropped' },
          { id: 'sparse', flag: true, data: ['a', 1] },
          { id: 'scalar', data: 'just a string' },
        ]);
        assert.deepEqual(await store.get(PROJECTION, 'items', { id: 'full' }), {
          id: 'full',
          title: 'Ünïcode \u{1F600}',
          n: 2 ** 40,
          score: 0.1 + 0.2,
          flag: false,
          data,
        });
        assert.deepEqual(await store.get(PROJECTION, 'items', { id: 'sparse' }), {
          id: 'sparse',
          title: null,
          n: null,
          score: null,
          flag: true,
          data: ['a', 1],
        });
        assert.equal((await store.get(PROJECTION, 'items', { id: 'scalar' }))?.data, 'just a string');
        assert.equal(await store.get(PROJECTION, 'items', { id: 'missing' }), null);
      }));

    test('upsert replaces; update sets and increments; delete removes', () =>
      withStore(open, async (store) => {
        await seed(store);
        const changes: ViewChange[] = [
          upsert('items', { id: 'a', title: 'A2' }),
          {
            op: 'update',
            collection: 'items',
            filter: { kind: 'in', ref: { field: 'id' }, values: ['b', 'c'] },
            set: { title: 'low', flag: true },
            inc: { n: 5, score: 1 },
          },
          { op: 'update', collection: 'items', filter: idIs('d'), inc: { n: 3 }, set: { data: { x: [1] } } },
          { op: 'update', collection: 'items', filter: idIs('nobody'), set: { title: 'x' } },
          { op: 'delete', collection: 'items', filter: idIs('e') },
        ];
        assert.ok(await store.applyBatch(ref(), pos(1), pos(2), changes));
        const a = await store.get(PROJECTION, 'items', { id: 'a' });
        assert.deepEqual(a, { id: 'a', title: 'A2', n: null, score: null, flag: null, data: null });
        const b = await store.get(PROJECTION, 'items', { id: 'b' });
        assert.deepEqual([b?.title, b?.n, b?.score, b?.flag], ['low', 7, 3.5, true]);
        const c = await store.get(PROJECTION, 'items', { id: 'c' });
        assert.deepEqual([c?.title, c?.n, c?.score, c?.flag], ['low', 8, 1, true], 'inc treats null as 0');
        const d = await store.get(PROJECTION, 'items', { id: 'd' });
        assert.deepEqual([d?.n, d?.data, d?.title], [3, { x: [1] }, null]);
        assert.equal(await store.get(PROJECTION, 'items', { id: 'e' }), null);
        assert.equal(await store.count(PROJECTION, 'items'), 4);
        assert.ok(await store.applyBatch(ref(), pos(2), pos(3), [{ op: 'delete', collection: 'items', filter: ALL }]));
        assert.equal(await store.count(PROJECTION, 'items'), 0);
      }));

    test('copy duplicates matching documents with overrides, replacing same keys; get by composite key', () =>
      withStore(open, async (store) => {
        await store.ensureProjection(projectionSpec());
        const rows: ViewChange[] = [
          upsert('pairs', { branch: 'main', row: 'r1', rev: 1, body: { v: 1 } }),
          upsert('pairs', { branch: 'main', row: 'r2', rev: 2, body: { v: 2 } }),
          upsert('pairs', { branch: 'old', row: 'r9', rev: 9, body: null }),
          upsert('pairs', { branch: 'dev', row: 'r1', rev: 0, body: { stale: true } }),
        ];
        assert.ok(await store.applyBatch(ref(), null, pos(1), rows));
        const copy: ViewChange = {
          op: 'copy',
          collection: 'pairs',
          filter: { kind: 'compare', ref: { field: 'branch' }, op: 'eq', value: 'main' },
          set: { branch: 'dev' },
        };
        const feature: ViewChange = { ...copy, set: { branch: 'feat', body: { fresh: [true] } } };
        assert.ok(await store.applyBatch(ref(), pos(1), pos(2), [copy, feature]));
        const pair = (branch: string, row: string) => store.get(PROJECTION, 'pairs', { branch, row });
        assert.deepEqual(await pair('dev', 'r1'), { branch: 'dev', row: 'r1', rev: 1, body: { v: 1 } });
        assert.deepEqual(await pair('dev', 'r2'), { branch: 'dev', row: 'r2', rev: 2, body: { v: 2 } });
        assert.deepEqual(await pair('feat', 'r2'), { branch: 'feat', row: 'r2', rev: 2, body: { fresh: [true] } });
        assert.deepEqual(await pair('main', 'r1'), { branch: 'main', row: 'r1', rev: 1, body: { v: 1 } });
        assert.deepEqual(
          await store.get(PROJECTION, 'pairs', { row: 'r2', branch: 'main' }),
          { branch: 'main', row: 'r2', rev: 2, body: { v: 2 } },
          'key fields in any order',
        );
        assert.equal(await store.get(PROJECTION, 'pairs', { branch: 'dev', row: 'r9' }), null);
        assert.equal(await store.count(PROJECTION, 'pairs'), 7);
      }));

    test('leases: one owner at a time, renewal, expiry and release', () =>
      withStore(open, async (store) => {
        await store.ensureProjection(projectionSpec());
        assert.equal(await store.acquireLease(PROJECTION, 'A', 60_000), true);
        assert.equal(await store.acquireLease(PROJECTION, 'B', 60_000), false);
        assert.equal(await store.acquireLease(PROJECTION, 'A', 60_000), true, 'the holder renews');
        const status = await statusOf(store, 1);
        assert.equal(status?.leaseOwner, 'A');
        assert.ok((status?.leaseExpiresAt ?? 0) > Date.now() + 30_000);
        assert.equal(await store.acquireLease('other-projection', 'B', 60_000), true, 'leases are per name');

        await store.releaseLease(PROJECTION, 'B');
        assert.equal(await store.acquireLease(PROJECTION, 'B', 60_000), false, 'only the holder releases');
        await store.releaseLease(PROJECTION, 'A');
        assert.equal((await statusOf(store, 1))?.leaseOwner, null);
        assert.equal(await store.acquireLease(PROJECTION, 'B', 1), true);
        await sleep(20);
        assert.equal((await statusOf(store, 1))?.leaseOwner, null, 'an expired lease has no holder');
        assert.equal(await store.acquireLease(PROJECTION, 'A', 60_000), true, 'an expired lease is taken over');
        assert.equal(await store.acquireLease(PROJECTION, 'B', 60_000), false);
      }));

    test('rebuild: a shadow version fills while readers use the active one, then switches', () =>
      withStore(open, async (store) => {
        await seed(store, [{ id: 'x', title: 'v1' }]);
        await store.ensureProjection(projectionSpec(2));
        const shadow = [upsert('items', { id: 'x', title: 'v2' }), upsert('items', { id: 'y' })];
        assert.ok(await store.applyBatch(ref(2), null, pos(7), shadow));
        assert.equal((await store.get(PROJECTION, 'items', { id: 'x' }))?.title, 'v1');
        assert.equal(await store.count(PROJECTION, 'items'), 1);
        await assert.rejects(store.dropVersion(ref(1)), Error, 'the active version cannot be dropped');
        await assert.rejects(store.activate(PROJECTION, 99), Error, 'only ensured versions can be activated');

        await store.activate(PROJECTION, 2);
        assert.equal(await store.activeVersion(PROJECTION), 2);
        assert.equal((await store.get(PROJECTION, 'items', { id: 'x' }))?.title, 'v2');
        const docs = await store.find(PROJECTION, 'items', { orderBy: [{ ref: { field: 'id' }, direction: 'asc' }] });
        assert.deepEqual(
          docs.map((d) => d.id),
          ['x', 'y'],
        );
        assert.equal(await store.count(PROJECTION, 'items'), 2);
        assert.deepEqual(
          (await store.projectionStatuses()).filter((s) => s.name === PROJECTION).map((s) => [s.version, s.active]),
          [
            [1, false],
            [2, true],
          ],
        );

        await store.dropVersion(ref(1));
        const remaining = (await store.projectionStatuses()).filter((s) => s.name === PROJECTION);
        assert.deepEqual(
          remaining.map((s) => s.version),
          [2],
        );
        await assert.rejects(store.dropVersion(ref(2)));
        await store.activate(PROJECTION, 2);
        assert.equal((await store.get(PROJECTION, 'items', { id: 'y' }))?.id, 'y');
      }));

    test('rebuild while the live version is read and written: batches interleave, the switch and the drop lose nothing', () =>
      withStore(open, async (store) => {
        await seed(store, [{ id: 'live-0', n: 0 }]);
        await store.ensureProjection(readersOnlySpec(2), { deferReadIndexes: true });
        let live = 1;
        let shadow = 0;
        const docs = (prefix: string, from: number, count: number): ViewChange[] =>
          Array.from({ length: count }, (_, i) => upsert('items', { id: `${prefix}-${from + i}`, n: from + i }));
        for (let round = 0; round < 5; round++) {
          // The shadow replays the live documents so far plus its own; the live runner keeps writing v1 meanwhile.
          const replay = [...docs('live', 0, live), ...docs('old', shadow * 10, 10)];
          const [liveApplied, shadowApplied] = await Promise.all([
            store.applyBatch(ref(1), pos(live), pos(live + 1), docs('live', live, 1)),
            store.applyBatch(ref(2), shadow === 0 ? null : pos(shadow), pos(shadow + 1), replay),
            store.find(PROJECTION, 'items', { filter: ALL }),
          ]);
          assert.ok(liveApplied && shadowApplied);
          live += 1;
          shadow += 1;
          assert.equal(await store.count(PROJECTION, 'items'), live, 'readers see the live version only');
          assert.equal((await store.get(PROJECTION, 'items', { id: `live-${live - 1}` }))?.n, live - 1);
        }
        await store.completeVersion(ref(2));
        // The shadow catches up with the live writes of the last round, then readers switch.
        assert.ok(await store.applyBatch(ref(2), pos(shadow), pos(shadow + 1), docs('live', 0, live)));
        await store.activate(PROJECTION, 2);
        await store.dropVersion(ref(1));
        assert.deepEqual(
          (await store.projectionStatuses()).filter((s) => s.name === PROJECTION).map((s) => [s.version, s.active, s.position]),
          [[2, true, pos(shadow + 1)]],
        );
        assert.equal(await store.count(PROJECTION, 'items'), live + shadow * 10);
        assert.equal(await store.count(PROJECTION, 'items', { kind: 'compare', ref: { field: 'n' }, op: 'eq', value: live - 1 }), 2);
        await assert.rejects(store.applyBatch(ref(1), pos(live), pos(live + 1), docs('late', 0, 1)), 'the dropped version takes no batches');
        assert.ok(await store.applyBatch(ref(2), pos(shadow + 1), pos(shadow + 2), docs('after', 0, 1)));
        assert.equal((await store.get(PROJECTION, 'items', { id: 'after-0' }))?.n, 0);
      }));

    test('rebuild with deferred read indexes: the shadow takes batches, keeps unique indexes, completes and switches', () =>
      withStore(open, async (store) => {
        await seed(store, [{ id: 'x', title: 'v1', n: 1 }]);
        const byTitle: SortKey[] = [{ ref: { field: 'title' }, direction: 'desc' }];
        await store.ensureIndex(PROJECTION, 'items', { equal: [], sort: byTitle });
        await store.ensureProjection(readersOnlySpec(2), { deferReadIndexes: true });
        assert.equal(await store.activeVersion(PROJECTION), 1);
        const docs = ['c', 'a', 'd', 'b'].map((id, i) => upsert('items', { id, title: `t${id}`, n: 10 - i }));
        assert.ok(await store.applyBatch(ref(2), null, pos(1), docs));
        await assert.rejects(
          store.applyBatch(ref(2), pos(1), pos(2), [
            upsert('users', { id: 'u1', email: 'same@example.com' }),
            upsert('users', { id: 'u2', email: 'same@example.com' }),
          ]),
          Error,
          'unique indexes are never deferred',
        );
        await store.completeVersion(ref(2));
        await store.completeVersion(ref(2));
        assert.ok(await store.applyBatch(ref(2), pos(1), pos(2), [upsert('items', { id: 'e', title: 'te', n: 0 })]));
        await assert.rejects(store.completeVersion(ref(9)), Error, 'only ensured versions can be completed');

        await store.activate(PROJECTION, 2);
        const ids = async (query: FindQuery) => (await store.find(PROJECTION, 'items', query)).map((d) => d.id);
        assert.deepEqual(await ids({ orderBy: [{ ref: { field: 'n' }, direction: 'asc' }] }), ['e', 'b', 'd', 'a', 'c']);
        assert.deepEqual(await ids({ orderBy: byTitle, limit: 2 }), ['e', 'd']);
        await store.ensureIndex(PROJECTION, 'items', { equal: [], sort: byTitle });
        assert.equal(await store.count(PROJECTION, 'items'), 5);
      }));

    test('deferReadIndexes does not hold back the indexes of a first version, which readers use at once', () =>
      withStore(open, async (store) => {
        await store.ensureProjection(readersOnlySpec(1), { deferReadIndexes: true });
        assert.equal(await store.activeVersion(PROJECTION), 1);
        assert.ok(await store.applyBatch(ref(1), null, pos(1), [upsert('items', { id: 'a', n: 2 }), upsert('items', { id: 'b', n: 1 })]));
        await store.completeVersion(ref(1));
        const docs = await store.find(PROJECTION, 'items', { orderBy: [{ ref: { field: 'n' }, direction: 'asc' }] });
        assert.deepEqual(
          docs.map((d) => d.id),
          ['b', 'a'],
        );
      }));

    test('a unique index cannot be readersOnly', () =>
      withStore(open, async (store) => {
        const spec = projectionSpec();
        const bad = spec.collections.map((c) =>
          c.name === 'users' ? { ...c, indexes: [{ fields: ['email'], unique: true, readersOnly: true }] } : c,
        );
        await assert.rejects(store.ensureProjection({ ...spec, collections: bad }), /readersOnly/);
      }));

    test('reads of a projection that does not exist yet are empty', () =>
      withStore(open, async (store) => {
        assert.deepEqual(await store.find('not-there', 'items'), []);
        assert.equal(await store.count('not-there', 'items'), 0);
        assert.equal(await store.get('not-there', 'items', { id: 'a' }), null);
        assert.equal(await store.activeVersion('not-there'), null);
      }));

    test('recordError shows in statuses until a batch applies or it is cleared', () =>
      withStore(open, async (store) => {
        await store.ensureProjection(projectionSpec());
        await store.recordError(ref(), 'boom: event 12 is malformed');
        assert.equal((await statusOf(store, 1))?.error, 'boom: event 12 is malformed');
        assert.ok(await store.applyBatch(ref(), null, pos(1), []));
        const status = await statusOf(store, 1);
        assert.equal(status?.error, null);
        assert.equal(status?.position, pos(1));
        assert.equal(typeof status?.updatedAt, 'number');
        await store.recordError(ref(), 'again');
        assert.equal((await statusOf(store, 1))?.error, 'again');
        await store.recordError(ref(), null);
        assert.equal((await statusOf(store, 1))?.error, null);
      }));

    viewStoreQueryContract(open, skipper);
    viewStoreChangesContract(open, skipper);
    viewStoreLayersContract(open, skipper);
    viewStoreFieldIndexContract(open, skipper);
    skipper.assertAllUsed();
  });
}
