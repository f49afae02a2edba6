// Deciding on facts gathered from the durable decision state (decisionFacts.ts, docs/reference/versioned-storage.md
// §2) answers, refuses and appends exactly what deciding on the whole branch folded into memory does: the same random
// commands (rows that exist or not, foreign keys, renames, restores of HEAD values, commits, reverts, schema
// changes, unique values) on a root branch, a branch of it and a branch of that branch, run once on each store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { branchStreamId, isAppError } from '../../contracts/index.ts';
import type { CommandContext, EventStore, RevisionCommitted } from '../../contracts/index.ts';
import { createSqliteViewStore } from '../../projection-worker/index.ts';
import { createSystemStateSource } from '../../command-service/state/systemStateSource.ts';
import { createBranchCommandHandlers, type BranchCommandHandlers } from '../../command-service/branches/branchCommandHandlers.ts';
import { setHoldersByValueFromRows } from '../../command-service/branches/uniqueFields.ts';

// Unique holders are read by value from state.db on every table here, however small (uniqueFields.ts).
setHoldersByValueFromRows(0);
import {
  as,
  createBranchFrom,
  createStepClock,
  ids,
  itemsSchema,
  owner,
  refsSchema,
  withFixture,
} from '../../command-service/testing/branchHandlersFixture.ts';

const ctx: CommandContext = as(owner);
const branches = [
  { branchId: ids.main, name: 'master' },
  { branchId: 'b-child', name: 'child' },
  { branchId: 'b-grandchild', name: 'grandchild' },
] as const;

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A table with a unique string and a unique number (domain.md §5.5): its writes read holders from the field index. */
const codesSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['code', 'n'],
  properties: { code: { type: 'string', default: '', 'x-unique': true }, n: { type: 'integer', default: 0, 'x-unique': true } },
};

type Run = (h: BranchCommandHandlers, draftOf: (branchId: string) => Promise<string>) => Promise<{ result: unknown }>;

function randomCommands(seed: number, count: number): Run[] {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const pool = Array.from({ length: 8 }, (_, i) => `i${i}`);
  const names = ['a', 'b', 'c'];
  const runs: Run[] = [];
  for (let i = 0; i < count; i++) {
    const { branchId, name } = pick(branches);
    const target = { organizationId: 'acme', projectName: 'blog', branchName: name };
    const id = pick(pool);
    const roll = random();
    // Every random choice is made here, never when the command runs (both stores run the same commands).
    const bulk = random() < 0.5;
    const value = pick(names);
    const values = [pick(names), pick(names), pick(names)];
    const other = pick(pool);
    const table = pick(['items', 'refs', 'codes']);
    // A third of the row writes go to the unique table ("" is never a clash; numbers 0..3, strings a..c).
    const unique = random() < 0.35;
    const n = Math.floor(random() * 4);
    const written = unique ? 'codes' : 'items';
    const data = () => (unique ? { code: value, n } : { name: value });
    const patch = unique
      ? { op: 'replace', path: random() < 0.5 ? '/code' : '/n', value: random() < 0.5 ? value : n }
      : { op: 'replace', path: '/name', value };
    const rows = (tableId: string, make: (rowId: string) => unknown) => ({ tableId, rows: [{ rowId: id, ...(make(id) as object) }], bulk });
    let run: Run;
    if (roll < 0.2) run = async (h, d) => h.CreateRows({ revisionId: await d(branchId), ...rows(written, () => ({ data: data() })) } as never, ctx);
    else if (roll < 0.36)
      run = async (h, d) => h.UpdateRows({ revisionId: await d(branchId), ...rows(written, () => ({ data: data() })) } as never, ctx);
    else if (roll < 0.44) {
      run = async (h, d) => h.PatchRows({ revisionId: await d(branchId), ...rows(written, () => ({ patches: [patch] })) } as never, ctx);
    } else if (roll < 0.56) {
      run = async (h, d) =>
        h.CreateRows({ revisionId: await d(branchId), tableId: 'refs', rows: [{ rowId: `ref${i}`, data: { item: id } }], bulk: false }, ctx);
    } else if (roll < 0.68) run = async (h, d) => h.DeleteRows({ revisionId: await d(branchId), tableId: table, rowIds: [id], bulk: false }, ctx);
    else if (roll < 0.76) run = async (h, d) => h.RenameRow({ revisionId: await d(branchId), tableId: written, rowId: id, nextRowId: other }, ctx);
    else if (roll < 0.82) {
      run = async (h, d) =>
        h.ApplyDraftChanges(
          {
            revisionId: await d(branchId),
            operations: [
              {
                type: 'UpsertRows',
                tableId: 'items',
                rows: pool.slice(0, 3).map((rowId, k) => ({ rowId, data: { name: values[k] } })),
                onInvalidRow: 'skip',
              },
              { type: 'DeleteRows', tableId: 'refs', rowIds: [`ref${i - 1}`] },
              {
                type: 'UpsertRows',
                tableId: 'codes',
                rows: pool.slice(2, 5).map((rowId, k) => ({ rowId, data: { code: values[k], n: k } })),
                onInvalidRow: 'skip',
              },
            ],
          } as never,
          ctx,
        );
    } else if (roll < 0.835) {
      run = async (h, d) => {
        const { result } = await h.PreviewUpdateTable(
          {
            revisionId: await d(branchId),
            tableId: 'items',
            patches: [{ op: 'replace', path: '/properties/name', value: { type: 'number', default: 0 } }],
          },
          ctx,
        );
        // Which changed rows a dry run samples follows the order the store keeps them in: compare how many.
        const { migration } = result as { migration: { sample: readonly unknown[]; lossySample: readonly unknown[] } };
        return { result: { ...result, migration: { ...migration, sample: migration.sample.length, lossySample: migration.lossySample.length } } };
      };
    } else if (roll < 0.85) {
      const field = `f${i}`;
      run = async (h, d) =>
        h.UpdateTable(
          {
            revisionId: await d(branchId),
            tableId: 'items',
            patches: [{ op: 'add', path: `/properties/${field}`, value: { type: 'number', default: 0 } }],
          },
          ctx,
        );
    } else if (roll < 0.93) run = (h) => h.CreateRevision({ ...target, comment: `c${i}` }, ctx);
    else run = (h) => h.RevertChanges(target, ctx);
    runs.push(run);
  }
  return runs;
}

type Outcome = { ok: true; result: unknown } | { ok: false; code: string; message: string; details: unknown };

async function lastCommit(eventStore: EventStore, branchId: string): Promise<RevisionCommitted> {
  const commits = (await eventStore.readStream(branchStreamId(branchId))).filter((e) => e.type === 'RevisionCommitted');
  return commits[commits.length - 1]?.data as RevisionCommitted;
}

/**
 * An event's data with its `rows` in id order: a decision that scans a whole table (a schema change, the rows
 * referencing a renamed row) lists rows in the order its store keeps them, which is no part of the decision.
 */
function rowsInIdOrder(data: unknown): unknown {
  const rows = (data as { rows?: { rowId: string }[] }).rows;
  if (!Array.isArray(rows)) return data;
  return { ...(data as object), rows: [...rows].sort((a, b) => (a.rowId < b.rowId ? -1 : a.rowId > b.rowId ? 1 : 0)) };
}

/** Error details with their `rowIds` lists in id order (FOREIGN_KEY_IN_USE lists referencing rows as scanned). */
function rowIdsInOrder(details: unknown): unknown {
  if (!Array.isArray(details)) return details;
  return details.map((detail: unknown) => {
    const rowIds = (detail as { rowIds?: unknown }).rowIds;
    return Array.isArray(rowIds) ? { ...(detail as object), rowIds: [...(rowIds as string[])].sort() } : detail;
  });
}

/** Runs the commands one by one after the same set-up; returns the outcomes and every branch's log. */
async function runAll(durable: boolean, runs: readonly Run[]): Promise<{ outcomes: Outcome[]; logs: unknown[] }> {
  let answer: { outcomes: Outcome[]; logs: unknown[] } | undefined;
  await withFixture(async ({ eventStore }) => {
    let n = 0;
    const decisionViews = durable ? createSqliteViewStore({ file: ':memory:' }) : undefined;
    const h = createBranchCommandHandlers({
      eventStore,
      systemState: createSystemStateSource({ eventStore }),
      clock: createStepClock(),
      log: pino({ level: 'silent' }),
      newId: () => `id-${++n}`,
      ...(decisionViews ? { decisionViews } : {}),
    });
    const systemState = createSystemStateSource({ eventStore });
    const draftOf = async (branchId: string) => (await systemState.current()).branches.get(branchId)?.draftRevisionId ?? '';
    const seedRows = (names: string[]) => names.map((rowId) => ({ rowId, data: { name: 'a' } }));
    await h.CreateTable({ revisionId: ids.mainDraft, tableId: 'items', schema: itemsSchema }, ctx);
    await h.CreateTable({ revisionId: ids.mainDraft, tableId: 'refs', schema: refsSchema }, ctx);
    await h.CreateTable({ revisionId: ids.mainDraft, tableId: 'codes', schema: codesSchema }, ctx);
    await h.CreateRows(
      {
        revisionId: ids.mainDraft,
        tableId: 'codes',
        rows: [
          { rowId: 'i0', data: { code: 'a', n: 1 } },
          { rowId: 'i1', data: { code: 'b', n: 2 } },
        ],
        bulk: true,
      },
      ctx,
    );
    await h.CreateRows({ revisionId: ids.mainDraft, tableId: 'items', rows: seedRows(['i0', 'i1', 'i2', 'i3']), bulk: true }, ctx);
    await h.CreateRows({ revisionId: ids.mainDraft, tableId: 'refs', rows: [{ rowId: 'ref-1', data: { item: 'i0' } }], bulk: false }, ctx);
    await h.CreateRevision({ organizationId: 'acme', projectName: 'blog', branchName: 'master', comment: 'seed' }, ctx);
    const mainHead = await lastCommit(eventStore, ids.main);
    await createBranchFrom(
      eventStore,
      { branchId: ids.main, revisionId: mainHead.revisionId, seq: mainHead.seq },
      { branchId: 'b-child', name: 'child', startRevisionId: 'r-child-0', draftRevisionId: 'r-child-1' },
    );
    await h.CreateRows({ revisionId: 'r-child-1', tableId: 'items', rows: seedRows(['i4', 'i5']), bulk: true }, ctx);
    await h.CreateRows({ revisionId: 'r-child-1', tableId: 'codes', rows: [{ rowId: 'i4', data: { code: 'c', n: 3 } }], bulk: true }, ctx);
    await h.DeleteRows({ revisionId: 'r-child-1', tableId: 'items', rowIds: ['i3'], bulk: false }, ctx);
    await h.CreateRevision({ organizationId: 'acme', projectName: 'blog', branchName: 'child', comment: 'child seed' }, ctx);
    const childHead = await lastCommit(eventStore, 'b-child');
    await createBranchFrom(
      eventStore,
      { branchId: 'b-child', revisionId: childHead.revisionId, seq: childHead.seq },
      { branchId: 'b-grandchild', name: 'grandchild', startRevisionId: 'r-gc-0', draftRevisionId: 'r-gc-1' },
    );

    const outcomes: Outcome[] = [];
    for (const run of runs) {
      try {
        outcomes.push({ ok: true, result: (await run(h, draftOf)).result });
      } catch (err) {
        assert.ok(isAppError(err), `only domain refusals are expected: ${String(err)}`);
        outcomes.push({ ok: false, code: err.code, message: err.message, details: rowIdsInOrder(err.details) });
      }
    }
    const logs = [];
    for (const { branchId } of branches)
      logs.push((await eventStore.readStream(branchStreamId(branchId))).map((e) => ({ type: e.type, data: rowsInIdOrder(e.data) })));
    answer = { outcomes, logs };
    await decisionViews?.close();
  });
  assert.ok(answer);
  return answer;
}

for (const seed of [3, 11, 2024, Number(process.env.STRATA_TEST_SEED ?? Date.now() % 100_000)]) {
  test(`decisions on gathered facts equal decisions on whole branches (seed ${seed})`, async () => {
    const runs = randomCommands(seed, 150);
    const inMemory = await runAll(false, runs);
    const durable = await runAll(true, runs);
    const refused = inMemory.outcomes.filter((o) => !o.ok).length;
    assert.ok(refused > 10 && refused < runs.length - 10, `a mix of accepted and refused commands (${refused} refused)`);
    const clashes = inMemory.outcomes.filter((o) => !o.ok && o.code === 'UNIQUE_VIOLATION').length;
    assert.ok(clashes > 0, `some writes repeat a unique value (seed ${seed})`);
    inMemory.outcomes.forEach((expected, i) => assert.deepEqual(durable.outcomes[i], expected, `command ${i} (seed ${seed})`));
    assert.deepEqual(durable.logs, inMemory.logs, `logs (seed ${seed})`);
  });
}
