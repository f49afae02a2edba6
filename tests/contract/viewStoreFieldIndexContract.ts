import assert from 'node:assert/strict';
import { describe, test as nodeTest } from 'node:test';
import { OPEN_SEQ, fieldIndex as fieldIndexAt, rowViews } from '../../contracts/index.ts';
import type {
  Filter,
  FindQuery,
  JsonTest,
  SortIndex,
  SortKey,
  VersionLayer,
  VersionedRead,
  ViewChange,
  ViewDoc,
  ViewStore,
} from '../../contracts/index.ts';
import { createSkipper, pos, withStore } from './viewStoreFixtures.ts';
import type { OpenViewStore } from './viewStoreFixtures.ts';

const ROWS = rowViews.name;
const ROW_ID_ASC: SortKey = { ref: { field: 'rowId' }, direction: 'asc' };
const eq = (field: string, value: string): Filter => ({ kind: 'compare', ref: { field }, op: 'eq', value });
const and = (...filters: Filter[]): Filter => ({ kind: 'and', filters });
const data = (path: string, test: JsonTest): Filter => ({ kind: 'json', field: 'data', path: [path], test });

/**
 * The index of an x-index / x-unique field as the readers and the write side declare it (contracts fieldIndex):
 * `(branchId, tableKey, <value at the path, uncast>, rowId, fromSeq, toSeq, tombstone)`.
 */
const fieldIndex = (path: string): SortIndex => fieldIndexAt([path]);

/** 300 rows of table k1 on `root` (sku S<i>, n = i % 30) and 20 of k2; `child` overrides 10 and deletes 5. */
function docs(): ViewDoc[] {
  const out: ViewDoc[] = [];
  const row = (branchId: string, tableKey: string, i: number, sku: string, n: number): void =>
    void out.push({
      branchId,
      tableKey,
      rowId: `r${String(i).padStart(3, '0')}`,
      fromSeq: 1,
      toSeq: OPEN_SEQ,
      data: { sku, n },
      createdAt: 'c',
      updatedAt: 'u',
      actor: 'user:u1',
      tombstone: null,
    });
  for (let i = 0; i < 300; i++) row('root', 'k1', i, `S${i}`, i % 30);
  for (let i = 0; i < 20; i++) row('root', 'k2', i, `S${i}`, 99);
  for (let i = 0; i < 10; i++) row('child', 'k1', i * 7, `C${i}`, 100 + i);
  for (let i = 0; i < 5; i++) {
    out.push({
      branchId: 'child',
      tableKey: 'k1',
      rowId: `r${String(i * 11 + 1).padStart(3, '0')}`,
      fromSeq: 1,
      toSeq: OPEN_SEQ,
      data: null,
      createdAt: null,
      updatedAt: null,
      actor: 'user:u1',
      tombstone: true,
    });
  }
  return out;
}

const CHILD: VersionLayer[] = [
  { branchId: 'child', seq: 1 },
  { branchId: 'root', seq: 1 },
];

/** The rows of k1 the child sees, by brute force. */
function visible(all: readonly ViewDoc[]): ViewDoc[] {
  const child = all.filter((d) => d.branchId === 'child');
  const hidden = new Set(child.map((d) => d.rowId));
  return [...child.filter((d) => d.tombstone !== true), ...all.filter((d) => d.branchId === 'root' && d.tableKey === 'k1' && !hidden.has(d.rowId))];
}

async function seed(store: ViewStore, version: number = rowViews.version): Promise<ViewDoc[]> {
  const all = docs();
  await store.ensureProjection({ ...rowViews, version });
  const changes = all.map((doc): ViewChange => ({ op: 'upsert', collection: 'rows', doc }));
  assert.ok(await store.applyBatch({ name: ROWS, version }, null, pos(1), changes));
  return all;
}

const read = (store: ViewStore, query: FindQuery) =>
  store.find(ROWS, 'rows', {
    ...query,
    filter: and(eq('tableKey', 'k1'), ...(query.filter ? [query.filter] : [])),
    versions: { layers: CHILD, identity: ['tableKey', 'rowId'] },
  });
const ids = (found: readonly ViewDoc[]) => found.map((d) => String(d.rowId));
const sorted = (found: readonly ViewDoc[]) => ids(found).sort();
const sku = (d: ViewDoc) => (d.data as { sku: string }).sku;
const n = (d: ViewDoc) => (d.data as { n: number }).n;

type Explaining = {
  explainFind(p: string, c: string, q: FindQuery): Promise<string[]>;
  explainCount(p: string, c: string, f: Filter, v?: VersionedRead): Promise<string[]>;
};
type IndexListing = { indexKeys(p: string, c: string): Promise<Record<string, unknown>[]> };

/**
 * How each adapter proves the field index serves a read: SQLite names it in EXPLAIN QUERY PLAN, searched by the
 * equality fields and the path expression (`expect`: `<expr>=?`, `<expr>>?`, ...), with no temporary sort; MongoDB
 * holds the index on the document path (the filter shape it serves is mongoViewIndex.unit.test.ts's).
 */
async function assertServedByFieldIndex(store: ViewStore, query: FindQuery, expect: RegExp, path: string): Promise<void> {
  if ('explainFind' in store) {
    const layered = {
      ...query,
      filter: and(eq('tableKey', 'k1'), ...(query.filter ? [query.filter] : [])),
      versions: { layers: CHILD, identity: ['tableKey', 'rowId'] },
    };
    const plan = await (store as unknown as Explaining).explainFind(ROWS, 'rows', layered);
    const text = plan.join(' | ');
    const searches = plan.filter(
      (line) => /USING (COVERING )?INDEX \S+__sort_[0-9a-f]{16} \(branchId=\? AND tableKey=\? AND /.test(line) && expect.test(line),
    );
    assert.ok(searches.length >= 2, `each layer's arm searches the field index: ${text}`);
    assert.ok(!plan.some((line) => /^SCAN \S+_rows$/.test(line.trim())), `no full scan: ${text}`);
    if (query.orderBy !== undefined && query.orderBy[0]?.ref.path?.[0] === path)
      assert.ok(!text.includes('TEMP B-TREE'), `ordered by the index: ${text}`);
    // A count reads the index alone: the version fields after the row id tell each arm which versions it sees.
    const counting = await (store as unknown as Explaining).explainCount(ROWS, 'rows', layered.filter, layered.versions);
    const covered = counting.filter((line) => /USING COVERING INDEX \S+__sort_[0-9a-f]{16} \(branchId=\? AND tableKey=\? AND /.test(line));
    assert.ok(covered.length >= 2, `each arm of the count reads only the field index: ${counting.join(' | ')}`);
  }
  if ('indexKeys' in store) {
    const keys = await (store as unknown as IndexListing).indexKeys(ROWS, 'rows');
    assert.ok(
      keys.some(
        (key) =>
          JSON.stringify(key) === JSON.stringify({ branchId: 1, tableKey: 1, [`data.${path}`]: 1, rowId: 1, fromSeq: 1, toSeq: 1, tombstone: 1 }),
      ),
      `an index on (branchId, tableKey, data.${path}, rowId, fromSeq, toSeq, tombstone): ${JSON.stringify(keys)}`,
    );
  }
}

/**
 * Field indexes (domain.md §5.5, docs/reference/versioned-storage.md §4): reads with equality, `in` and range
 * conditions on a declared path, and an order on it, answer as without the index and read it, through
 * copy-on-write layers and after a rebuild into a new version.
 */
export function viewStoreFieldIndexContract(open: OpenViewStore, skipper = createSkipper()): void {
  const test = (title: string, fn: () => Promise<void>): void => void nodeTest(title, skipper.optionsFor(title), fn);
  describe('field indexes (x-index, x-unique)', () => {
    test('field indexes: equality, in and ranges on the path read the index and answer through the layers', () =>
      withStore(open, async (store) => {
        const all = await seed(store);
        await store.ensureIndex(ROWS, 'rows', fieldIndex('sku'));
        await store.ensureIndex(ROWS, 'rows', fieldIndex('n'));
        await store.ensureIndex(ROWS, 'rows', fieldIndex('sku')); // idempotent
        const rows = visible(all);

        const equals = data('sku', { op: 'equals', value: 'S43' });
        assert.deepEqual(ids(await read(store, { filter: equals })), ids(rows.filter((d) => sku(d) === 'S43')));
        assert.deepEqual(ids(await read(store, { filter: data('sku', { op: 'equals', value: 'S14' }) })), [], 'r014 is overridden in the child');
        assert.deepEqual(ids(await read(store, { filter: data('sku', { op: 'equals', value: 'C2' }) })), ['r014']);
        await assertServedByFieldIndex(store, { filter: equals, orderBy: [ROW_ID_ASC] }, /<expr>=\?/, 'sku');

        const inList = data('sku', { op: 'in', values: ['S3', 'S12', 'C1', 'nope'] });
        const wanted = new Set(['S3', 'S12', 'C1', 'nope']);
        assert.deepEqual(sorted(await read(store, { filter: inList })), ids(rows.filter((d) => wanted.has(sku(d)))).sort());
        assert.deepEqual(sorted(await read(store, { filter: inList })), ['r003', 'r007'], 'r012 is deleted in the child');
        await assertServedByFieldIndex(store, { filter: inList }, /<expr>=\?/, 'sku');

        const range = and(data('n', { op: 'gte', value: 28 }), data('n', { op: 'lt', value: 101 }));
        const expected = rows.filter((d) => n(d) >= 28 && n(d) < 101);
        assert.deepEqual(sorted(await read(store, { filter: range })), ids(expected).sort());
        await assertServedByFieldIndex(store, { filter: range }, /<expr>[<>]/, 'n');
      }));

    test('field indexes: an order on the field then the row id reads the index, page by page', () =>
      withStore(open, async (store) => {
        const all = await seed(store);
        await store.ensureIndex(ROWS, 'rows', fieldIndex('n'));
        const order: SortKey[] = [{ ref: { field: 'data', path: ['n'] }, direction: 'asc' }, ROW_ID_ASC];
        const filter = data('n', { op: 'gte', value: 25 });
        const expected = visible(all)
          .filter((d) => n(d) >= 25)
          .sort((a, b) => n(a) - n(b) || (String(a.rowId) < String(b.rowId) ? -1 : 1));
        assert.deepEqual(ids(await read(store, { filter, orderBy: order, limit: 7 })), ids(expected.slice(0, 7)));
        assert.deepEqual(ids(await read(store, { filter, orderBy: order, limit: 7, offset: 7 })), ids(expected.slice(7, 14)));
        await assertServedByFieldIndex(store, { filter, orderBy: order, limit: 7 }, /<expr>>\?/, 'n');
      }));

    test('field indexes: a rebuilt version gets the indexes readers made on the active one', () =>
      withStore(open, async (store) => {
        await seed(store);
        await store.ensureIndex(ROWS, 'rows', fieldIndex('sku'));
        const next = rowViews.version + 1;
        await seed(store, next);
        await store.completeVersion({ name: ROWS, version: next });
        await store.activate(ROWS, next);
        assert.deepEqual(ids(await read(store, { filter: data('sku', { op: 'equals', value: 'S43' }) })), ['r043']);
        await assertServedByFieldIndex(store, { filter: data('sku', { op: 'equals', value: 'S43' }) }, /<expr>=\?/, 'sku');
      }));
  });
}
