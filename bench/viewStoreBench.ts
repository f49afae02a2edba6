// Upserts per second through ViewStore.applyBatch on the embedded SQLite store (one transaction per batch,
// checkpoint compare-and-set included). Run alone with `npx tsx bench/viewStoreBench.ts`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sqlitePosition } from '../contracts/index.ts';
import type { ProjectionSpec, ViewChange, ViewStore } from '../contracts/index.ts';
import { createSqliteViewStore } from '../projection-worker/index.ts';

const spec: ProjectionSpec = {
  name: 'bench-view',
  version: 1,
  collections: [
    {
      name: 'docs',
      fields: { id: 'text', owner: 'text', n: 'integer', active: 'boolean', meta: 'json' },
      key: ['id'],
      indexes: [{ fields: ['owner'] }],
    },
  ],
};
/** Ids repeat after this many documents, so later batches replace existing rows as well as insert. */
const KEY_SPACE = 50_000;

type Measured = { rate: number; next: number };

async function measure(store: ViewStore, batchSize: number, ms: number, start: number): Promise<Measured> {
  const ref = { name: spec.name, version: spec.version };
  let position = start;
  let upserts = 0;
  const began = performance.now();
  while (performance.now() - began < ms) {
    const changes: ViewChange[] = new Array(batchSize);
    for (let i = 0; i < batchSize; i++) {
      const seq = upserts + i;
      changes[i] = {
        op: 'upsert',
        collection: 'docs',
        doc: { id: `doc-${seq % KEY_SPACE}`, owner: `user-${seq % 97}`, n: seq, active: seq % 2 === 0, meta: { seq } },
      };
    }
    const expected = position === 0 ? null : sqlitePosition(position);
    const ok = await store.applyBatch(ref, expected, sqlitePosition(position + batchSize), changes);
    if (!ok) throw new Error('checkpoint moved unexpectedly');
    position += batchSize;
    upserts += batchSize;
  }
  return { rate: upserts / ((performance.now() - began) / 1000), next: position };
}

export async function runViewStoreBench(): Promise<{ name: string; value: number; unit: string }[]> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-view-bench-'));
  const store = createSqliteViewStore({ file: join(dir, 'views.db') });
  try {
    await store.ensureProjection(spec);
    const warm = await measure(store, 500, 200, 0);
    const small = await measure(store, 100, 1200, warm.next);
    const large = await measure(store, 1000, 1200, small.next);
    return [
      { name: 'viewStore.sqlite.applyBatch upserts (batch 100)', value: Math.round(small.rate), unit: 'upserts/s' },
      { name: 'viewStore.sqlite.applyBatch upserts (batch 1000)', value: Math.round(large.rate), unit: 'upserts/s' },
    ];
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const result of await runViewStoreBench()) console.log(`${result.name}: ${result.value} ${result.unit}`);
}
