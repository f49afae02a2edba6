// Unique checks on the durable decision state read the holders of the written values from state.db's field index
// (decisionFacts.ts gatherValues, docs/reference/versioned-storage.md §2): a single write to a large unique table
// reads O(values written) rows, never the table, and still sees HEAD rows, the draft's own rows and its deletions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAppError } from '../../contracts/index.ts';
import type { CommandContext, ViewStore } from '../../contracts/index.ts';
import { createSqliteViewStore } from '../../projection-worker/index.ts';
import { createSystemStateSource } from '../../command-service/state/systemStateSource.ts';
import { as, fixtureWith, ids, owner } from '../../command-service/testing/branchHandlersFixture.ts';

const ctx: CommandContext = as(owner);
const HEAD_ROWS = 12_000;
const DRAFT_ROWS = 3_000;
/** Rows one single-row write may read: the named row, its holders, their draft side (a handful, whatever the size). */
const FEW = 20;

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['sku', 'n', 'note'],
  properties: {
    sku: { type: 'string', default: '', 'x-unique': true },
    n: { type: 'integer', default: 0, 'x-unique': true },
    note: { type: 'string', default: '' },
  },
};

/** A view store that counts the documents its finds return (the rows a decision reads). */
function counting(store: ViewStore): { store: ViewStore; read: () => number; reset: () => void } {
  let read = 0;
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop === 'find') {
        return async (...args: Parameters<ViewStore['find']>) => {
          const docs = await target.find(...args);
          read += docs.length;
          return docs;
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store: proxy, read: () => read, reset: () => (read = 0) };
}

async function refusal(run: () => Promise<unknown>): Promise<{ code: string; details: unknown }> {
  try {
    await run();
  } catch (err) {
    assert.ok(isAppError(err), String(err));
    return { code: err.code, details: err.details };
  }
  assert.fail('expected a refusal');
}

test('a single write to a large unique table reads the holders of its values, not the table', async () => {
  const views = counting(createSqliteViewStore({ file: ':memory:' }));
  await fixtureWith(() => views.store)(async ({ eventStore, handlers }) => {
    const h = handlers();
    const revisionId = ids.mainDraft;
    await h.CreateTable({ revisionId, tableId: 'items', schema }, ctx);
    const rows = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, k) => ({ rowId: `r${from + k}`, data: { sku: `s${from + k}`, n: from + k, note: '' } }));
    for (let at = 0; at < HEAD_ROWS; at += 1000) await h.CreateRows({ revisionId, tableId: 'items', rows: rows(at, at + 1000), bulk: true }, ctx);
    await h.CreateRevision({ organizationId: 'acme', projectName: 'blog', branchName: 'master', comment: 'seed' }, ctx);
    const next = (await createSystemStateSource({ eventStore }).current()).branches.get(ids.main)?.draftRevisionId ?? '';
    // Writes decided in one batch see each other's rows (folded, not in state.db yet): with no draft change of the
    // table yet (the batch opens its overlay), and again below with the draft's own rows.
    const sameTurn = async (sku: string) => {
      const outcomes = await Promise.allSettled(
        ['t1', 't2'].map((rowId, k) =>
          h.CreateRows(
            {
              revisionId: next,
              tableId: 'items',
              rows: [{ rowId: `${sku}-${rowId}`, data: { sku, n: 5_000_000 + k + sku.length * 10, note: '' } }],
              bulk: false,
            },
            ctx,
          ),
        ),
      );
      assert.deepEqual(outcomes.map((o) => o.status).sort(), ['fulfilled', 'rejected'], `one of two same-turn writes of ${sku} wins`);
      const lost = outcomes.find((o) => o.status === 'rejected');
      assert.equal(isAppError(lost?.reason) ? lost.reason.code : String(lost?.reason), 'UNIQUE_VIOLATION');
    };
    await sameTurn('dup');
    for (let at = HEAD_ROWS; at < HEAD_ROWS + DRAFT_ROWS; at += 1000)
      await h.CreateRows({ revisionId: next, tableId: 'items', rows: rows(at, at + 1000), bulk: true }, ctx);
    await sameTurn('dup-again');
    // The first write after the schema declared the field creates state.db's index on it (not a row read).
    await h.CreateRows({ revisionId: next, tableId: 'items', rows: [{ rowId: 'warm', data: { sku: 'warm', n: -1, note: '' } }], bulk: false }, ctx);

    views.reset();
    await h.CreateRows(
      { revisionId: next, tableId: 'items', rows: [{ rowId: 'new1', data: { sku: 'fresh', n: 1_000_000, note: '' } }], bulk: false },
      ctx,
    );
    assert.ok(views.read() <= FEW, `a new unique value read ${views.read()} rows`);

    views.reset();
    const headClash = await refusal(() =>
      h.CreateRows({ revisionId: next, tableId: 'items', rows: [{ rowId: 'new2', data: { sku: 's5', n: 2_000_000, note: '' } }], bulk: false }, ctx),
    );
    assert.equal(headClash.code, 'UNIQUE_VIOLATION');
    assert.match(JSON.stringify(headClash.details), /r5/, 'names the HEAD row holding the value');
    assert.ok(views.read() <= FEW, `a clash with HEAD read ${views.read()} rows`);

    views.reset();
    const draftClash = await refusal(() =>
      h.CreateRows(
        { revisionId: next, tableId: 'items', rows: [{ rowId: 'new3', data: { sku: 'x', n: HEAD_ROWS + 7, note: '' } }], bulk: false },
        ctx,
      ),
    );
    assert.equal(draftClash.code, 'UNIQUE_VIOLATION');
    assert.match(JSON.stringify(draftClash.details), new RegExp(`r${HEAD_ROWS + 7}`), 'names the draft row holding the number');
    assert.ok(views.read() <= FEW, `a clash with the draft read ${views.read()} rows`);

    views.reset();
    const patchClash = await refusal(() =>
      h.PatchRows(
        {
          revisionId: next,
          tableId: 'items',
          rows: [{ rowId: 'r9', patches: [{ op: 'replace', path: '/sku', value: `s${HEAD_ROWS + 1}` }] }],
          bulk: false,
        },
        ctx,
      ),
    );
    assert.equal(patchClash.code, 'UNIQUE_VIOLATION');
    assert.ok(views.read() <= FEW, `a clashing patch read ${views.read()} rows`);

    // A HEAD row the draft deleted, or changed, no longer holds its value.
    await h.DeleteRows({ revisionId: next, tableId: 'items', rowIds: ['r10'], bulk: false }, ctx);
    await h.UpdateRows({ revisionId: next, tableId: 'items', rows: [{ rowId: 'r11', data: { sku: 'moved', n: 11, note: '' } }], bulk: false }, ctx);
    views.reset();
    await h.CreateRows(
      {
        revisionId: next,
        tableId: 'items',
        rows: [
          { rowId: 'new4', data: { sku: 's10', n: 3_000_000, note: '' } },
          { rowId: 'new5', data: { sku: 's11', n: 3_000_001, note: '' } },
        ],
        bulk: false,
      },
      ctx,
    );
    assert.ok(views.read() <= FEW, `values freed in the draft read ${views.read()} rows`);
    // A swap within one write passes; the same value twice in one write does not.
    await h.UpdateRows(
      {
        revisionId: next,
        tableId: 'items',
        rows: [
          { rowId: 'r1', data: { sku: 's2', n: 1, note: '' } },
          { rowId: 'r2', data: { sku: 's1', n: 2, note: '' } },
        ],
        bulk: false,
      },
      ctx,
    );
    const twice = await refusal(() =>
      h.CreateRows(
        {
          revisionId: next,
          tableId: 'items',
          rows: [
            { rowId: 'new6', data: { sku: 'twice', n: 4_000_000, note: '' } },
            { rowId: 'new7', data: { sku: 'twice', n: 4_000_001, note: '' } },
          ],
          bulk: false,
        },
        ctx,
      ),
    );
    assert.equal(twice.code, 'UNIQUE_VIOLATION');
    await views.store.close();
  });
});
