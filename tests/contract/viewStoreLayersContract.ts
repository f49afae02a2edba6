import assert from 'node:assert/strict';
import { describe, test as nodeTest } from 'node:test';
import { OPEN_SEQ, resolveTableLayers, rowViews, schemaViews, visibleAt } from '../../contracts/index.ts';
import type { Filter, FindQuery, SortKey, VersionLayer, VersionedRead, ViewChange, ViewDoc, ViewStore } from '../../contracts/index.ts';
import { createSkipper, pos, withStore } from './viewStoreFixtures.ts';
import type { OpenViewStore } from './viewStoreFixtures.ts';

const ROWS = rowViews.name;
const SCHEMAS = schemaViews.name;
const eq = (field: string, value: string | number): Filter => ({ kind: 'compare', ref: { field }, op: 'eq', value });
const and = (...filters: Filter[]): Filter => ({ kind: 'and', filters });
const dataIs = (name: string, value: number): Filter => ({ kind: 'json', field: 'data', path: [name], test: { op: 'equals', value } });
const ROW_IDENTITY = ['tableKey', 'rowId'];

/**
 * A branch tree in the `rows` collection, written as the copy-on-write projector writes it
 * (docs/reference/versioned-storage.md §1):
 * - `root` creates r00..r19 of table k1 at 1 (data n = i, g = i % 3, updatedAt u<i % 4>) and r00..r02 of table k2;
 *   at 2 it updates r01. `child` is created from root at 2. Then root moves on: at 3 it updates r02, deletes r03
 *   (tombstone) and creates r50.
 * - `child` at 1 overrides r04, deletes r05, renames r06 to r60 (a tombstone under r06), creates r70; commits; at 2
 *   updates r07 and r04 again. `grand` is created from child at 1.
 * - `grand` at 1 overrides r08 and r04 (over child's), deletes r70 (child's own row) and r09.
 */
function tree(): ViewDoc[] {
  const docs: ViewDoc[] = [];
  const row = (branchId: string, rowId: string, fromSeq: number, toSeq: number, n: number, tableKey = 'k1') =>
    docs.push({
      branchId,
      tableKey,
      rowId,
      fromSeq,
      toSeq,
      data: { n, g: n % 3 },
      createdAt: `c${rowId}`,
      updatedAt: `u${n % 4}`,
      actor: 'user:u1',
      tombstone: null,
    });
  const tombstone = (branchId: string, rowId: string, fromSeq: number) =>
    docs.push({
      branchId,
      tableKey: 'k1',
      rowId,
      fromSeq,
      toSeq: OPEN_SEQ,
      data: null,
      createdAt: null,
      updatedAt: null,
      actor: 'user:u1',
      tombstone: true,
    });
  const id = (i: number) => `r${String(i).padStart(2, '0')}`;
  for (let i = 0; i < 20; i++) {
    const closedAt = i === 1 ? 2 : i === 2 || i === 3 ? 3 : OPEN_SEQ;
    row('root', id(i), 1, closedAt, i);
  }
  for (let i = 0; i < 3; i++) row('root', id(i), 1, OPEN_SEQ, 100 + i, 'k2');
  row('root', 'r01', 2, OPEN_SEQ, 201);
  row('root', 'r02', 3, OPEN_SEQ, 302);
  tombstone('root', 'r03', 3);
  row('root', 'r50', 3, OPEN_SEQ, 350);
  row('child', 'r04', 1, 2, 1104);
  tombstone('child', 'r05', 1);
  tombstone('child', 'r06', 1);
  row('child', 'r60', 1, OPEN_SEQ, 1106);
  row('child', 'r70', 1, OPEN_SEQ, 1170);
  row('child', 'r07', 2, OPEN_SEQ, 1207);
  row('child', 'r04', 2, OPEN_SEQ, 1204);
  row('grand', 'r08', 1, OPEN_SEQ, 2108);
  row('grand', 'r04', 1, OPEN_SEQ, 2104);
  tombstone('grand', 'r70', 1);
  tombstone('grand', 'r09', 1);
  // Another project's branch with the same row ids: never part of an answer.
  row('other', 'r04', 0, OPEN_SEQ, 9999);
  return docs;
}

const ROOT_AT_1: VersionLayer[] = [{ branchId: 'root', seq: 1 }];
const ROOT_HEAD: VersionLayer[] = [{ branchId: 'root', seq: 3 }];
const CHILD_START: VersionLayer[] = [
  { branchId: 'child', seq: 0 },
  { branchId: 'root', seq: 2 },
];
const CHILD_HEAD: VersionLayer[] = [
  { branchId: 'child', seq: 1 },
  { branchId: 'root', seq: 2 },
];
const CHILD_DRAFT: VersionLayer[] = [
  { branchId: 'child', seq: 2 },
  { branchId: 'root', seq: 2 },
];
const GRAND_DRAFT: VersionLayer[] = [
  { branchId: 'grand', seq: 1 },
  { branchId: 'child', seq: 1 },
  { branchId: 'root', seq: 2 },
];
const EVERY_REVISION = { ROOT_AT_1, ROOT_HEAD, CHILD_START, CHILD_HEAD, CHILD_DRAFT, GRAND_DRAFT };

/** The visible documents by brute force: top version per identity, tombstones hide and are never returned. */
function reference(docs: readonly ViewDoc[], layers: readonly VersionLayer[], identity: readonly string[]): ViewDoc[] {
  const seen = new Set<string>();
  const out: ViewDoc[] = [];
  for (const layer of layers) {
    const valid = docs.filter((d) => d.branchId === layer.branchId && (d.fromSeq as number) <= layer.seq && layer.seq < (d.toSeq as number));
    const keys = valid.map((d) => JSON.stringify(identity.map((f) => d[f])));
    valid.forEach((doc, i) => {
      if (!seen.has(keys[i] as string) && doc.tombstone !== true) out.push(doc);
    });
    for (const key of keys) seen.add(key);
  }
  return out;
}

const byRowId = (a: ViewDoc, b: ViewDoc) => (`${String(a.tableKey)}/${String(a.rowId)}` < `${String(b.tableKey)}/${String(b.rowId)}` ? -1 : 1);
const label = (doc: ViewDoc) => `${String(doc.rowId)}:${(doc.data as { n: number }).n}`;
const layered = (layers: readonly VersionLayer[]): VersionedRead => ({ layers, identity: ROW_IDENTITY });
const ROW_ID_ASC: SortKey = { ref: { field: 'rowId' }, direction: 'asc' };

async function seedTree(store: ViewStore): Promise<ViewDoc[]> {
  const docs = tree();
  await store.ensureProjection(rowViews);
  const changes = docs.map((doc): ViewChange => ({ op: 'upsert', collection: 'rows', doc }));
  assert.ok(await store.applyBatch({ name: ROWS, version: rowViews.version }, null, pos(1), changes));
  return docs;
}

async function tableRows(store: ViewStore, layers: readonly VersionLayer[], query: FindQuery = {}): Promise<string[]> {
  const filter = query.filter === undefined ? eq('tableKey', 'k1') : and(eq('tableKey', 'k1'), query.filter);
  const docs = await store.find(ROWS, 'rows', { orderBy: [ROW_ID_ASC], ...query, filter, versions: layered(layers) });
  return docs.map(label);
}

async function rowById(store: ViewStore, layers: readonly VersionLayer[], rowId: string): Promise<string | null> {
  const [doc] = await store.find(ROWS, 'rows', { filter: and(eq('tableKey', 'k1'), eq('rowId', rowId)), limit: 1, versions: layered(layers) });
  return doc === undefined ? null : label(doc);
}

/** The SQLite adapter shows its plan: every arm reads an index, sorted arms are merged, nothing is sorted apart. */
async function assertMergedIndexReads(store: ViewStore, query: FindQuery): Promise<void> {
  const explain = (store as Partial<{ explainFind(p: string, c: string, q: FindQuery): Promise<string[]> }>).explainFind;
  if (explain === undefined) return;
  const plan = await explain.call(store, ROWS, 'rows', query);
  const text = plan.join(' | ');
  assert.ok(plan.includes('MERGE (UNION ALL)'), text);
  assert.ok(!plan.some((line) => /SCAN \S+$/.test(line.trim())), text);
  assert.ok(!plan.some((line) => line.includes('TEMP B-TREE')), text);
  const arms = plan.filter((line) => /^SEARCH \S+ USING (COVERING )?INDEX \S+ \(branchId=\? AND tableKey=\?/.test(line));
  assert.ok(arms.length >= 3, text);
}

/**
 * Layered reads (FindQuery.versions, count with versions) and insertIfAbsent: what copy-on-write branches read
 * (docs/reference/versioned-storage.md §1), checked against a brute-force reading of the same documents.
 */
export function viewStoreLayersContract(open: OpenViewStore, skipper = createSkipper()): void {
  const test = (title: string, fn: () => Promise<void>): void => void nodeTest(title, skipper.optionsFor(title), fn);
  describe('layered reads (copy-on-write branches)', () => {
    test('layers: a child inherits what it did not change, as of the fork', () =>
      withStore(open, async (store) => {
        await seedTree(store);
        assert.equal(await rowById(store, CHILD_START, 'r00'), 'r00:0');
        assert.equal(await rowById(store, CHILD_START, 'r01'), 'r01:201', 'the version the parent had at the fork');
        assert.equal(await rowById(store, CHILD_HEAD, 'r11'), 'r11:11');
        assert.equal((await tableRows(store, CHILD_START)).length, 20);
      }));

    test('layers: overridden rows show the upper version only', () =>
      withStore(open, async (store) => {
        await seedTree(store);
        assert.equal(await rowById(store, CHILD_HEAD, 'r04'), 'r04:1104');
        assert.equal(await rowById(store, CHILD_DRAFT, 'r04'), 'r04:1204');
        assert.deepEqual(
          (await tableRows(store, CHILD_DRAFT)).filter((l) => l.startsWith('r04')),
          ['r04:1204'],
        );
        // The override hides the parent's version even where the override does not match the filter.
        assert.deepEqual(await tableRows(store, CHILD_DRAFT, { filter: dataIs('n', 4) }), []);
      }));

    test('layers: a rename hides the old id and shows the new one', () =>
      withStore(open, async (store) => {
        await seedTree(store);
        assert.equal(await rowById(store, CHILD_HEAD, 'r06'), null);
        assert.equal(await rowById(store, CHILD_HEAD, 'r60'), 'r60:1106');
        assert.equal(await rowById(store, ROOT_HEAD, 'r06'), 'r06:6', 'the parent keeps its row');
      }));

    test('layers: a tombstone hides the row below and is never returned', () =>
      withStore(open, async (store) => {
        await seedTree(store);
        assert.equal(await rowById(store, CHILD_HEAD, 'r05'), null);
        assert.equal(await rowById(store, ROOT_HEAD, 'r03'), null, 'tombstones on the root branch too');
        const all = await store.find(ROWS, 'rows', { filter: eq('tableKey', 'k1'), versions: layered(CHILD_HEAD) });
        assert.ok(all.every((doc) => doc.tombstone !== true));
        assert.equal(await store.count(ROWS, 'rows', eq('tableKey', 'k1'), layered(CHILD_HEAD)), 20 - 2 + 2);
      }));

    test('layers: three levels deep', () =>
      withStore(open, async (store) => {
        await seedTree(store);
        assert.equal(await rowById(store, GRAND_DRAFT, 'r04'), 'r04:2104');
        assert.equal(await rowById(store, GRAND_DRAFT, 'r08'), 'r08:2108');
        assert.equal(await rowById(store, GRAND_DRAFT, 'r60'), 'r60:1106', "the middle branch's rows");
        assert.equal(await rowById(store, GRAND_DRAFT, 'r70'), null, "a deletion of the middle branch's own row");
        assert.equal(await rowById(store, GRAND_DRAFT, 'r09'), null);
        assert.equal(await rowById(store, GRAND_DRAFT, 'r05'), null, "the middle branch's tombstone");
        assert.equal(await rowById(store, GRAND_DRAFT, 'r07'), 'r07:7', "the middle branch's later draft is not seen");
      }));

    test('layers: after the parent moves on the child still reads the fork point', () =>
      withStore(open, async (store) => {
        await seedTree(store);
        assert.equal(await rowById(store, CHILD_DRAFT, 'r02'), 'r02:2');
        assert.equal(await rowById(store, CHILD_DRAFT, 'r03'), 'r03:3');
        assert.equal(await rowById(store, CHILD_DRAFT, 'r50'), null);
        assert.equal(await rowById(store, ROOT_HEAD, 'r02'), 'r02:302');
        assert.equal(await rowById(store, ROOT_AT_1, 'r01'), 'r01:1');
      }));

    test('layers: after the child commits, HEAD and draft read their own versions', () =>
      withStore(open, async (store) => {
        await seedTree(store);
        assert.equal(await rowById(store, CHILD_HEAD, 'r07'), 'r07:7');
        assert.equal(await rowById(store, CHILD_DRAFT, 'r07'), 'r07:1207');
        assert.equal(await rowById(store, CHILD_START, 'r04'), 'r04:4', 'the start revision shows the source content');
        assert.equal(await rowById(store, CHILD_START, 'r60'), null);
      }));

    test('layers: filters, sorts, keyset pages, offsets and counts across layers equal a brute-force reading', () =>
      withStore(open, async (store) => {
        const docs = await seedTree(store);
        const order: SortKey[] = [{ ref: { field: 'updatedAt' }, direction: 'desc' }, ROW_ID_ASC];
        const sortKey = (doc: ViewDoc) => [String(doc.updatedAt), String(doc.rowId)] as const;
        const ordered = (list: ViewDoc[]) =>
          [...list].sort((a, b) => {
            const [au, ar] = sortKey(a);
            const [bu, br] = sortKey(b);
            return au !== bu ? (au < bu ? 1 : -1) : ar < br ? -1 : 1;
          });
        for (const [name, layers] of Object.entries(EVERY_REVISION)) {
          const visible = reference(docs, layers, ROW_IDENTITY).filter((doc) => doc.tableKey === 'k1');
          const expected = ordered(visible).map(label);
          assert.deepEqual(await tableRows(store, layers, { orderBy: order }), expected, name);
          const g1 = ordered(visible.filter((doc) => (doc.data as { g: number }).g === 1)).map(label);
          assert.deepEqual(await tableRows(store, layers, { orderBy: order, filter: dataIs('g', 1) }), g1, `${name} filtered`);
          assert.equal(await store.count(ROWS, 'rows', and(eq('tableKey', 'k1'), dataIs('g', 1)), layered(layers)), g1.length, `${name} count`);
          assert.equal(await store.count(ROWS, 'rows', eq('tableKey', 'k1'), layered(layers)), expected.length, `${name} total`);
          assert.deepEqual(await tableRows(store, layers, { orderBy: order, limit: 4, offset: 3 }), expected.slice(3, 7), `${name} offset`);
          // Keyset pages of 3 by (updatedAt desc, rowId asc), as the readers page.
          const paged: string[] = [];
          let last: ViewDoc | undefined;
          for (;;) {
            const after: Filter | undefined =
              last === undefined
                ? undefined
                : {
                    kind: 'or',
                    filters: [
                      { kind: 'compare', ref: { field: 'updatedAt' }, op: 'lt', value: last.updatedAt as string },
                      and(eq('updatedAt', last.updatedAt as string), {
                        kind: 'compare',
                        ref: { field: 'rowId' },
                        op: 'gt',
                        value: last.rowId as string,
                      }),
                    ],
                  };
            const filter = after === undefined ? eq('tableKey', 'k1') : and(eq('tableKey', 'k1'), after);
            const page = await store.find(ROWS, 'rows', { filter, orderBy: order, limit: 3, versions: layered(layers) });
            paged.push(...page.map(label));
            if (page.length < 3) break;
            last = page[2];
          }
          assert.deepEqual(paged, expected, `${name} keyset pages`);
        }
        // As the readers do (query-service/readers/rowIndexes.ts): the sort's index, which gives SQLite its statistics.
        const byCreation: SortKey[] = [{ ref: { field: 'createdAt' }, direction: 'asc' }, ROW_ID_ASC];
        await store.ensureIndex(ROWS, 'rows', { equal: ['branchId', 'tableKey'], sort: byCreation });
        await assertMergedIndexReads(store, { filter: eq('tableKey', 'k1'), orderBy: byCreation, limit: 3, versions: layered(GRAND_DRAFT) });
      }));

    test('layers: given ids, and reads not narrowed to one table', () =>
      withStore(open, async (store) => {
        const docs = await seedTree(store);
        const ids: Filter = { kind: 'in', ref: { field: 'rowId' }, values: ['r01', 'r04', 'r05', 'r06', 'r60', 'r70', 'rXX'] };
        const found = await store.find(ROWS, 'rows', { filter: and(eq('tableKey', 'k1'), ids), versions: layered(GRAND_DRAFT) });
        assert.deepEqual(found.sort(byRowId).map(label), ['r01:201', 'r04:2104', 'r60:1106']);
        // Reads by id (every identity field pinned) find, count and page like any other read.
        const byId = (rowId: string) => and(eq('tableKey', 'k1'), eq('rowId', rowId));
        for (const [rowId, visible] of [
          ['r04', 1],
          ['r70', 0],
          ['r05', 0],
          ['r01', 1],
          ['r50', 0],
        ] as const) {
          assert.equal(await store.count(ROWS, 'rows', byId(rowId), layered(GRAND_DRAFT)), visible, rowId);
          assert.equal((await store.find(ROWS, 'rows', { filter: byId(rowId), versions: layered(GRAND_DRAFT) })).length, visible, rowId);
        }
        assert.deepEqual(await store.find(ROWS, 'rows', { filter: byId('r04'), offset: 1, versions: layered(GRAND_DRAFT) }), []);
        for (const layers of Object.values(EVERY_REVISION)) {
          const all = await store.find(ROWS, 'rows', {
            orderBy: [{ ref: { field: 'tableKey' }, direction: 'asc' }, ROW_ID_ASC],
            versions: layered(layers),
          });
          assert.deepEqual(
            all.map((doc) => `${String(doc.tableKey)}/${label(doc)}`),
            reference(docs, layers, ROW_IDENTITY)
              .sort(byRowId)
              .map((doc) => `${String(doc.tableKey)}/${label(doc)}`),
          );
        }
      }));

    test('layers: one layer reads like a plain find, no layers read nothing', () =>
      withStore(open, async (store) => {
        await seedTree(store);
        const plain = await store.find(ROWS, 'rows', {
          filter: and(visibleAt('root', 3), eq('tableKey', 'k1'), { kind: 'not', filter: eq('rowId', 'r03') }),
          orderBy: [ROW_ID_ASC],
        });
        assert.deepEqual(await tableRows(store, ROOT_HEAD), plain.map(label));
        assert.deepEqual(await store.find(ROWS, 'rows', { versions: layered([]) }), []);
        assert.equal(await store.count(ROWS, 'rows', undefined, layered([])), 0);
      }));

    test('layers: sorted by a json path across layers', () =>
      withStore(open, async (store) => {
        const docs = await seedTree(store);
        const order: SortKey[] = [{ ref: { field: 'data', path: ['n'] }, direction: 'desc' }, ROW_ID_ASC];
        const expected = reference(docs, GRAND_DRAFT, ROW_IDENTITY)
          .filter((doc) => doc.tableKey === 'k1')
          .sort((a, b) => (b.data as { n: number }).n - (a.data as { n: number }).n)
          .map(label);
        assert.deepEqual(await tableRows(store, GRAND_DRAFT, { orderBy: order, limit: 5 }), expected.slice(0, 5));
      }));

    test('layers: partial table versions take their fields from the layer below; table tombstones hide', () =>
      withStore(open, async (store) => {
        await store.ensureProjection(schemaViews);
        const table = (branchId: string, tableKey: string, fromSeq: number, fields: Record<string, unknown>): ViewChange => ({
          op: 'upsert',
          collection: 'tables',
          doc: {
            branchId,
            tableKey,
            fromSeq,
            toSeq: OPEN_SEQ,
            tableId: null,
            schema: null,
            count: null,
            createdAt: null,
            updatedAt: null,
            tombstone: null,
            ...fields,
          },
        });
        const full = { schema: { type: 'object' }, createdAt: 'c', updatedAt: 'u' };
        const changes = [
          table('root', 't1', 1, { ...full, tableId: 'posts', count: 3 }),
          table('root', 't2', 1, { ...full, tableId: 'users', count: 1 }),
          table('root', 't3', 1, { ...full, tableId: 'tags', count: 0 }),
          table('child', 't1', 1, { count: 4 }),
          table('child', 't2', 1, { tombstone: true }),
          // insertIfAbsent leaves an existing document as it is and adds a missing one.
        ];
        assert.ok(await store.applyBatch({ name: SCHEMAS, version: schemaViews.version }, null, pos(1), changes));
        const more: ViewChange[] = [
          { op: 'insertIfAbsent', collection: 'tables', doc: { branchId: 'child', tableKey: 't1', fromSeq: 1, toSeq: OPEN_SEQ, count: 99 } },
          { op: 'insertIfAbsent', collection: 'tables', doc: { branchId: 'child', tableKey: 't3', fromSeq: 1, toSeq: OPEN_SEQ, count: 7 } },
        ];
        assert.ok(await store.applyBatch({ name: SCHEMAS, version: schemaViews.version }, pos(1), pos(2), more));
        const layers = [
          { branchId: 'child', seq: 1 },
          { branchId: 'root', seq: 1 },
        ];
        const perLayer = await Promise.all(layers.map((layer) => store.find(SCHEMAS, 'tables', { filter: visibleAt(layer.branchId, layer.seq) })));
        const resolved = resolveTableLayers(perLayer).sort((a, b) => ((a.tableKey as string) < (b.tableKey as string) ? -1 : 1));
        assert.deepEqual(
          resolved.map((doc) => [doc.branchId, doc.tableKey, doc.tableId, doc.count, doc.createdAt]),
          [
            ['child', 't1', 'posts', 4, 'c'],
            ['child', 't3', 'tags', 7, 'c'],
          ],
        );
        // The adapter's layered read on tables hides by tableKey alike (partial documents are returned as stored).
        const top = await store.find(SCHEMAS, 'tables', {
          orderBy: [{ ref: { field: 'tableKey' }, direction: 'asc' }],
          versions: { layers, identity: ['tableKey'] },
        });
        assert.deepEqual(
          top.map((doc) => [doc.branchId, doc.tableKey]),
          [
            ['child', 't1'],
            ['child', 't3'],
          ],
        );
      }));
  });
}
