import assert from 'node:assert/strict';
import { describe, test as nodeTest } from 'node:test';
import { OPEN_SEQ, rowViews, visibleAt } from '../../contracts/index.ts';
import type { Filter, FindQuery, ViewChange, ViewDoc, ViewStore } from '../../contracts/index.ts';
import { createSkipper, pos, withStore } from './viewStoreFixtures.ts';
import type { OpenViewStore } from './viewStoreFixtures.ts';

const ROWS = rowViews.name;
const eq = (field: string, value: string | number): Filter => ({ kind: 'compare', ref: { field }, op: 'eq', value });
const cmp = (field: string, op: 'gt' | 'lte', value: number): Filter => ({ kind: 'compare', ref: { field }, op, value });
const and = (...filters: Filter[]): Filter => ({ kind: 'and', filters });

/** Row versions of branch b1, table k1: sequence n writes rows r0..r2 (n % 3), r9 is deleted at 5, r1 renamed to r7 at 6. */
function versions(): ViewDoc[] {
  const docs: ViewDoc[] = [];
  const version = (rowId: string, fromSeq: number, toSeq: number, n: number, actor = 'user:u1') =>
    docs.push({ branchId: 'b1', tableKey: 'k1', rowId, fromSeq, toSeq, data: { n }, createdAt: 't', updatedAt: `t${n}`, actor });
  for (let seq = 1; seq <= 6; seq++) {
    const rowId = `r${seq % 3}`;
    if (seq === 6) break;
    const next = [1, 2, 3, 4, 5].find((s) => s > seq && s % 3 === seq % 3) ?? OPEN_SEQ;
    version(rowId, seq, rowId === 'r1' && next === OPEN_SEQ ? 6 : next, seq);
  }
  version('r7', 6, OPEN_SEQ, 4, 'key:k9');
  version('r9', 1, 5, 0);
  // Another branch and another table: never in b1/k1 answers.
  docs.push({ branchId: 'b2', tableKey: 'k1', rowId: 'r0', fromSeq: 0, toSeq: OPEN_SEQ, data: {}, createdAt: 't', updatedAt: 't', actor: null });
  docs.push({ branchId: 'b1', tableKey: 'k2', rowId: 'r0', fromSeq: 3, toSeq: OPEN_SEQ, data: {}, createdAt: 't', updatedAt: 't', actor: null });
  return docs;
}

const marks: ViewDoc[] = [
  { branchId: 'b1', seq: 5, tableKey: 'k1', rowId: 'r9', position: pos(20), kind: 'deleted', previousRowId: null, actor: 'user:u2' },
  { branchId: 'b1', seq: 6, tableKey: 'k1', rowId: 'r7', position: pos(31), kind: 'renamed', previousRowId: 'r5', actor: 'user:u1' },
  { branchId: 'b1', seq: 6, tableKey: 'k1', rowId: 'r5', position: pos(30), kind: 'renamed', previousRowId: 'r1', actor: 'user:u1' },
  { branchId: 'b2', seq: 6, tableKey: 'k1', rowId: 'r5', position: pos(40), kind: 'deleted', previousRowId: null, actor: 'user:u1' },
];

async function seedRows(store: ViewStore): Promise<void> {
  await store.ensureProjection(rowViews);
  const changes: ViewChange[] = [
    ...versions().map((doc): ViewChange => ({ op: 'upsert', collection: 'rows', doc })),
    ...marks.map((doc): ViewChange => ({ op: 'upsert', collection: 'row_marks', doc })),
  ];
  assert.ok(await store.applyBatch({ name: ROWS, version: rowViews.version }, null, pos(1), changes));
}

const keyOf = (doc: ViewDoc) => `${String(doc.rowId)}@${String(doc.fromSeq)}`;

/** The SQLite adapter can show its plan: these reads must go through an index, never scan the collection. */
async function assertIndexed(store: ViewStore, collection: string, query: FindQuery): Promise<void> {
  const explain = (store as Partial<{ explainFind(p: string, c: string, q: FindQuery): Promise<string[]> }>).explainFind;
  if (explain === undefined) return;
  const plan = await explain.call(store, ROWS, collection, query);
  assert.ok(
    plan.some((line) => line.includes('USING') && line.includes('INDEX')),
    plan.join(' | '),
  );
  assert.ok(!plan.some((line) => /SCAN \S+$/.test(line.trim())), plan.join(' | '));
}

/**
 * The reads revision diffs and row history make on the `rows` projection (contracts/views/viewSpecs.ts): versions
 * started or ended in a range of sequences, marks of a range in applied order, one row's versions newest first, and
 * given ids visible in a revision. Each must answer exactly, through an index.
 */
export function viewStoreChangesContract(open: OpenViewStore, skipper = createSkipper()): void {
  const test = (title: string, fn: () => Promise<void>): void => void nodeTest(title, skipper.optionsFor(title), fn);
  describe('versioned change reads', () => {
    test('versions started or ended in a range of sequences, through the sequence indexes', () =>
      withStore(open, async (store) => {
        await seedRows(store);
        const started: FindQuery = { filter: and(eq('branchId', 'b1'), cmp('fromSeq', 'gt', 3), cmp('fromSeq', 'lte', 5)) };
        const ended: FindQuery = { filter: and(eq('branchId', 'b1'), cmp('toSeq', 'gt', 3), cmp('toSeq', 'lte', 5)) };
        assert.deepEqual((await store.find(ROWS, 'rows', started)).map(keyOf).sort(), ['r1@4', 'r2@5']);
        assert.deepEqual((await store.find(ROWS, 'rows', ended)).map(keyOf).sort(), ['r1@1', 'r2@2', 'r9@1']);
        await assertIndexed(store, 'rows', started);
        await assertIndexed(store, 'rows', ended);
      }));

    test('marks of a range of sequences in applied order (sequence, then log position)', () =>
      withStore(open, async (store) => {
        await seedRows(store);
        const query: FindQuery = {
          filter: and(eq('branchId', 'b1'), cmp('seq', 'gt', 4), cmp('seq', 'lte', 6)),
          orderBy: [
            { ref: { field: 'seq' }, direction: 'asc' },
            { ref: { field: 'position' }, direction: 'asc' },
          ],
        };
        const docs = await store.find(ROWS, 'row_marks', query);
        assert.deepEqual(
          docs.map((doc) => `${String(doc.kind)}:${String(doc.rowId)}`),
          ['deleted:r9', 'renamed:r5', 'renamed:r7'],
        );
        assert.deepEqual(docs[1], marks[2]);
        await assertIndexed(store, 'row_marks', query);
      }));

    test("one row's versions newest first with a limit, and given ids visible in a revision, by key", () =>
      withStore(open, async (store) => {
        await seedRows(store);
        const history: FindQuery = {
          filter: and(eq('branchId', 'b1'), eq('tableKey', 'k1'), eq('rowId', 'r1'), cmp('fromSeq', 'lte', 6)),
          orderBy: [{ ref: { field: 'fromSeq' }, direction: 'desc' }],
          limit: 2,
        };
        const newest = await store.find(ROWS, 'rows', history);
        assert.deepEqual(newest.map(keyOf), ['r1@4', 'r1@1']);
        assert.deepEqual([newest[0]?.toSeq, newest[0]?.actor], [6, 'user:u1']);
        await assertIndexed(store, 'rows', history);
        const visible: FindQuery = {
          filter: and(
            eq('branchId', 'b1'),
            eq('tableKey', 'k1'),
            { kind: 'in', ref: { field: 'rowId' }, values: ['r1', 'r7', 'r9', 'rX'] },
            visibleAt('b1', 4),
          ),
        };
        assert.deepEqual((await store.find(ROWS, 'rows', visible)).map(keyOf).sort(), ['r1@4', 'r9@1']);
        await assertIndexed(store, 'rows', visible);
      }));
  });
}
