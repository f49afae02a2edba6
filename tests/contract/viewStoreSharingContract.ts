import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sqlitePosition } from '../../contracts/index.ts';
import type { Clock, ProjectionSpec, ViewChange, ViewDoc, ViewStore } from '../../contracts/index.ts';

/**
 * Runs `fn` with a way to open several stores on one fresh backend (connections, as separate processes would have),
 * each with its own clock or the system's; closes them and removes the data afterwards.
 */
export type WithSharedStores = (fn: (open: (clock?: Clock) => ViewStore) => Promise<void>) => Promise<void>;

export type SharingContractOptions = {
  /** Why the backend cannot show that concurrent batches conflict (a partial stand-in), if it cannot. */
  readonly skipConcurrentBatches?: string;
};

function manualClock(start: number): Clock & { advance(ms: number): void } {
  let now = start;
  return { now: () => now, advance: (ms) => void (now += ms) };
}

/** The projection the suite uses (adapters' own tests may use it too); `extraField` adds a `note` field. */
export const spec = (version: number, extraField = false): ProjectionSpec => ({
  name: 'api-keys',
  version,
  collections: [
    {
      name: 'keys',
      fields: { id: 'text', owner: 'text', uses: 'integer', ...(extraField ? { note: 'text' as const } : {}) },
      key: ['id'],
      indexes: [{ fields: ['owner'] }],
    },
  ],
});
export const v = (version: number) => ({ name: 'api-keys', version });
export const keyDoc = (doc: ViewDoc): ViewChange => ({ op: 'upsert', collection: 'keys', doc });

/** What stores sharing one backend agree on: leases, checkpoints and the active version. */
export function viewStoreSharingContract(name: string, withStores: WithSharedStores, options: SharingContractOptions = {}): void {
  describe(`ViewStore sharing contract: ${name}`, () => {
    test('two stores never both hold a lease; expiry follows the injected clock', () =>
      withStores(async (open) => {
        const clock = manualClock(1_000_000);
        const a = open(clock);
        const b = open(clock);
        assert.equal(await a.acquireLease('rows', 'A', 1000), true);
        assert.equal(await b.acquireLease('rows', 'B', 1000), false);
        clock.advance(999);
        assert.equal(await b.acquireLease('rows', 'B', 1000), false);
        assert.equal(await a.acquireLease('rows', 'A', 1000), true, 'renewal extends the lease to 1_001_999');
        clock.advance(999);
        assert.equal(await b.acquireLease('rows', 'B', 1000), false);
        clock.advance(1);
        assert.equal(await b.acquireLease('rows', 'B', 1000), true);
        assert.equal(await a.acquireLease('rows', 'A', 1000), false);
      }));

    const concurrency = options.skipConcurrentBatches === undefined ? {} : { skip: options.skipConcurrentBatches };
    test('concurrent batches from the same checkpoint: exactly one wins', concurrency, () =>
      withStores(async (open) => {
        const a = open(manualClock(5_000));
        const b = open(manualClock(5_000));
        await a.ensureProjection(spec(1));
        await b.ensureProjection(spec(1));
        const results = await Promise.all([
          a.applyBatch(v(1), null, sqlitePosition(1), [keyDoc({ id: 'from-a', owner: 'a', uses: 0 })]),
          b.applyBatch(v(1), null, sqlitePosition(1), [keyDoc({ id: 'from-b', owner: 'b', uses: 0 })]),
        ]);
        assert.deepEqual([...results].sort(), [false, true]);
        assert.equal(await a.count('api-keys', 'keys'), 1);
        assert.equal(await b.count('api-keys', 'keys'), 1);
        assert.equal((await b.projectionStatuses())[0]?.updatedAt, 5_000);
      }),
    );

    test('a reader in another store follows activate and dropVersion', () =>
      withStores(async (open) => {
        const writer = open();
        const reader = open();
        await writer.ensureProjection(spec(1));
        await writer.applyBatch(v(1), null, sqlitePosition(1), [keyDoc({ id: 'k', owner: 'old' })]);
        assert.equal((await reader.get('api-keys', 'keys', { id: 'k' }))?.owner, 'old');
        assert.equal(await reader.activeVersion('api-keys'), 1);
        await writer.ensureProjection(spec(2, true));
        await writer.applyBatch(v(2), null, sqlitePosition(1), [keyDoc({ id: 'k', owner: 'new', note: 'n' })]);
        assert.equal((await reader.get('api-keys', 'keys', { id: 'k' }))?.owner, 'old');
        await writer.activate('api-keys', 2);
        await writer.dropVersion(v(1));
        assert.deepEqual(await reader.get('api-keys', 'keys', { id: 'k' }), { id: 'k', owner: 'new', uses: null, note: 'n' });
        assert.equal(await reader.activeVersion('api-keys'), 2);
        assert.deepEqual(
          (await reader.projectionStatuses()).map((s) => s.version),
          [2],
        );
      }));
  });
}
