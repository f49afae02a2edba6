// Group commit (branchWriteBatch.ts) changes nothing a caller can observe: a random interleaving of concurrent
// writes gives the answers, refusals and log of the same commands run one after another, and writers in two
// processes that conflict retry only what conflicted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { branchStreamId, isAppError } from '../../contracts/index.ts';
import type { AppendRequest, CommandContext, DomainEvent, EventStore, RowView } from '../../contracts/index.ts';
import { createSqliteViewStore } from '../../projection-worker/index.ts';
import { createSystemStateSource } from '../../command-service/state/systemStateSource.ts';
import { createBranchContent, type BranchContent } from '../../command-service/branches/branchContent.ts';
import { createBranchCommandHandlers, type BranchCommandHandlers } from '../../command-service/branches/branchCommandHandlers.ts';
import { evolveBranchContent, undoChanges, type UndoLog } from '../../command-service/branches/evolveBranchContent.ts';
import { as, createStepClock, ids, itemsSchema, owner, refsSchema, withFixture } from '../../command-service/testing/branchHandlersFixture.ts';

const ctx = as(owner);
const main = { organizationId: 'acme', projectName: 'blog', branchName: 'master' };

/** A seeded PRNG (mulberry32): the interleaving is random but repeatable from the printed seed. */
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

/** The event store with a record of every appendBatch call's size and failed requests. */
function observed(eventStore: EventStore): { store: EventStore; batchSizes: number[]; failures: () => number } {
  const batchSizes: number[] = [];
  let failures = 0;
  const store: EventStore = Object.create(eventStore) as EventStore;
  store.appendBatch = async (requests: readonly AppendRequest[]) => {
    batchSizes.push(requests.length);
    const outcomes = await eventStore.appendBatch(requests);
    failures += outcomes.filter((o) => !o.ok).length;
    return outcomes;
  };
  return { store, batchSizes, failures: () => failures };
}

/** One process's handlers: its own decision state (a process on another machine keeps its own file). */
function handlersOn(eventStore: EventStore): BranchCommandHandlers {
  let n = 0;
  return createBranchCommandHandlers({
    decisionViews: createSqliteViewStore({ file: ':memory:' }),
    eventStore,
    systemState: createSystemStateSource({ eventStore }),
    clock: createStepClock(),
    log: pino({ level: 'silent' }),
    newId: () => `id-${++n}`,
  });
}

type Command = (h: BranchCommandHandlers, draft: string, context: CommandContext) => Promise<{ result: unknown }>;

/** A random mix of row writes over a small id pool (duplicates, missing rows, FK violations) with one commit. */
function randomCommands(seed: number, count: number): Command[] {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const pool = Array.from({ length: 12 }, (_, i) => `i${i}`);
  const commands: Command[] = [];
  for (let i = 0; i < count; i++) {
    if (i === Math.floor(count / 2)) {
      commands.push((h) => h.CreateRevision({ ...main, comment: 'in the middle' }, ctx));
      continue;
    }
    const roll = random();
    const id = pick(pool);
    if (roll < 0.35) {
      commands.push((h, draft, c) =>
        h.CreateRows({ revisionId: draft, tableId: 'items', rows: [{ rowId: id, data: { name: `c${i}` } }], bulk: false }, c),
      );
    } else if (roll < 0.55) {
      commands.push((h, draft, c) =>
        h.UpdateRows({ revisionId: draft, tableId: 'items', rows: [{ rowId: id, data: { name: `u${i}` } }], bulk: false }, c),
      );
    } else if (roll < 0.7) {
      commands.push((h, draft, c) =>
        h.CreateRows({ revisionId: draft, tableId: 'refs', rows: [{ rowId: `ref${i}`, data: { item: id } }], bulk: false }, c),
      );
    } else if (roll < 0.8) {
      commands.push((h, draft, c) => h.DeleteRows({ revisionId: draft, tableId: 'items', rowIds: [id], bulk: false }, c));
    } else if (roll < 0.9) {
      commands.push((h, draft, c) =>
        h.PatchRows(
          { revisionId: draft, tableId: 'items', rows: [{ rowId: id, patches: [{ op: 'replace', path: '/name', value: `p${i}` }] }], bulk: false },
          c,
        ),
      );
    } else {
      const other = pick(pool);
      commands.push((h, draft, c) => h.RenameRow({ revisionId: draft, tableId: 'items', rowId: id, nextRowId: `${other}x${i}` }, c));
    }
  }
  return commands;
}

type Outcome = { ok: true; result: unknown } | { ok: false; code: string; message: string; details: unknown };

function outcomeOf(settled: PromiseSettledResult<{ result: unknown }>): Outcome {
  if (settled.status === 'fulfilled') return { ok: true, result: settled.value.result };
  const err: unknown = settled.reason;
  assert.ok(isAppError(err), `only domain refusals are expected: ${String(err)}`);
  return { ok: false, code: err.code, message: err.message, details: err.details };
}

async function branchLog(eventStore: EventStore): Promise<{ type: string; data: unknown }[]> {
  return (await eventStore.readStream(branchStreamId(ids.main))).map((e) => ({ type: e.type, data: e.data }));
}

async function setUp(h: BranchCommandHandlers): Promise<void> {
  await h.CreateTable({ revisionId: ids.mainDraft, tableId: 'items', schema: itemsSchema }, ctx);
  await h.CreateTable({ revisionId: ids.mainDraft, tableId: 'refs', schema: refsSchema }, ctx);
}

for (const seed of [1, 7, 42, Number(process.env.STRATA_TEST_SEED ?? Date.now() % 100_000)]) {
  test(`random concurrent writes (seed ${seed}) answer, refuse and append exactly as the same commands one by one`, async () => {
    const commands = randomCommands(seed, 120);

    let batched: { outcomes: Outcome[]; log: unknown[]; batchSizes: number[] } | undefined;
    await withFixture(async (fixture) => {
      const { store, batchSizes } = observed(fixture.eventStore);
      const h = handlersOn(store);
      await setUp(h);
      batchSizes.length = 0;
      // All at once: they queue for the branch and are decided in this order, a few batches in all.
      const settled = await Promise.allSettled(commands.map((command) => command(h, ids.mainDraft, ctx)));
      batched = { outcomes: settled.map(outcomeOf), log: await branchLog(fixture.eventStore), batchSizes: [...batchSizes] };
    });

    let serial: { outcomes: Outcome[]; log: unknown[] } | undefined;
    await withFixture(async (fixture) => {
      const h = handlersOn(fixture.eventStore);
      await setUp(h);
      const systemState = createSystemStateSource({ eventStore: fixture.eventStore });
      const outcomes: Outcome[] = [];
      for (const command of commands) {
        // A write racing with a commit lands in the new draft (domain.md §3.3): one by one, it names that draft.
        const draft = (await systemState.current()).branches.get(ids.main)?.draftRevisionId ?? ids.mainDraft;
        const [settled] = await Promise.allSettled([command(h, draft, ctx)]);
        outcomes.push(outcomeOf(settled as PromiseSettledResult<{ result: unknown }>));
      }
      serial = { outcomes, log: await branchLog(fixture.eventStore) };
    });

    assert.ok(batched && serial);
    assert.ok(Math.max(...batched.batchSizes) > 1, `the writes were batched (batch sizes ${batched.batchSizes.join(',')})`);
    assert.ok(batched.batchSizes.length < commands.length / 4, `few batches: ${batched.batchSizes.length}`);
    const refused = serial.outcomes.filter((o) => !o.ok).length;
    assert.ok(refused > 10 && refused < commands.length - 10, `a mix of accepted and refused commands (${refused} refused)`);
    serial.outcomes.forEach((expected, i) => assert.deepEqual(batched?.outcomes[i], expected, `command ${i} (seed ${seed})`));
    assert.deepEqual(batched.log, serial.log);
  });
}

test('writers in two processes on one branch conflict, retry what conflicted, and every write lands once', () =>
  withFixture(async (fixture) => {
    const { store, failures } = observed(fixture.eventStore);
    const [a, b] = [handlersOn(store), handlersOn(store)];
    await setUp(a);
    const rowIds = Array.from({ length: 60 }, (_, i) => `r${i}`);
    // Both processes keep writing: each one's batches were decided against content the other has just moved on.
    const writes = rowIds.map((rowId, i) =>
      (i % 2 === 0 ? a : b).CreateRows({ revisionId: ids.mainDraft, tableId: 'items', rows: [{ rowId, data: { name: rowId } }], bulk: false }, ctx),
    );
    const outcomes = await Promise.all(writes);
    outcomes.forEach((outcome, i) => {
      const [row] = outcome.result as RowView[];
      assert.equal(row?.id, rowIds[i]);
      assert.deepEqual(row?.data, { name: rowIds[i] });
    });
    assert.ok(failures() > 0, 'the two processes conflicted at least once');
    const created = (await branchLog(fixture.eventStore))
      .filter((e) => e.type === 'RowsCreated')
      .flatMap((e) => (e.data as { rows: { rowId: string }[] }).rows.map((r) => r.rowId));
    assert.deepEqual([...created].sort(), [...rowIds].sort());

    // Each process's content is what the log says (a conflict's speculative folds were taken back): creating any
    // of the rows again is refused by both, and a new row is accepted by both in turn.
    for (const h of [a, b]) {
      await assert.rejects(
        h.CreateRows({ revisionId: ids.mainDraft, tableId: 'items', rows: [{ rowId: 'r1', data: { name: 'again' } }], bulk: false }, ctx),
        (err: unknown) => isAppError(err) && err.code === 'ROW_ALREADY_EXISTS',
      );
    }
    await a.CreateRows({ revisionId: ids.mainDraft, tableId: 'items', rows: [{ rowId: 'after-a', data: { name: 'a' } }], bulk: false }, ctx);
    const [fromB] = (
      await b.UpdateRows({ revisionId: ids.mainDraft, tableId: 'items', rows: [{ rowId: 'after-a', data: { name: 'b' } }], bulk: false }, ctx)
    ).result as RowView[];
    assert.deepEqual(fromB?.data, { name: 'b' });
  }));

test('undo takes back folded events exactly, for every kind of branch event', () =>
  withFixture(async (fixture) => {
    const h = handlersOn(fixture.eventStore);
    await setUp(h);
    const rows = (names: string[]) => names.map((rowId) => ({ rowId, data: { name: rowId } }));
    const draft = async () =>
      (await createSystemStateSource({ eventStore: fixture.eventStore }).current()).branches.get(ids.main)?.draftRevisionId ?? '';
    await h.CreateRows({ revisionId: ids.mainDraft, tableId: 'items', rows: rows(['a', 'b', 'c']), bulk: true }, ctx);
    await h.CreateRevision({ ...main, comment: 'one' }, ctx);
    let d = await draft();
    await h.UpdateRows({ revisionId: d, tableId: 'items', rows: [{ rowId: 'a', data: { name: 'A' } }], bulk: false }, ctx);
    await h.RenameRow({ revisionId: d, tableId: 'items', rowId: 'b', nextRowId: 'bb' }, ctx);
    await h.DeleteRows({ revisionId: d, tableId: 'items', rowIds: ['c'], bulk: false }, ctx);
    await h.CreateRows({ revisionId: d, tableId: 'refs', rows: [{ rowId: 'x', data: { item: 'a' } }], bulk: false }, ctx);
    await h.UpdateTable(
      { revisionId: d, tableId: 'items', patches: [{ op: 'add', path: '/properties/n', value: { type: 'number', default: 0 } }] },
      ctx,
    );
    await h.RenameTable({ revisionId: d, tableId: 'items', nextTableId: 'things' }, ctx);
    await h.RevertChanges(main, ctx);
    await h.CreateTable({ revisionId: d, tableId: 'extra', schema: itemsSchema }, ctx);
    await h.DeleteTable({ revisionId: d, tableId: 'refs' }, ctx);
    await h.CreateRevision({ ...main, comment: 'two' }, ctx);
    d = await draft();
    await h.CreateRows({ revisionId: d, tableId: 'extra', rows: rows(['e']), bulk: false }, ctx);

    const events = await fixture.eventStore.readStream(branchStreamId(ids.main));
    assert.ok(new Set(events.map((e) => e.type)).size >= 10, 'every kind of branch event is in the log');
    const fold = (count: number, undo?: UndoLog) => (state: BranchContent) => {
      for (const recorded of events.slice(state.streamRevision === null ? 0 : state.streamRevision + 1, count)) {
        evolveBranchContent(state, { type: recorded.type, data: recorded.data } as DomainEvent, {
          revision: recorded.revision,
          time: recorded.metadata.time,
          ...(undo ? { undo } : {}),
        });
      }
      return state;
    };
    const fresh = () => createBranchContent({ branchId: ids.main, headRevisionId: ids.mainStart, draftRevisionId: ids.mainDraft });
    for (let k = 0; k < events.length; k++) {
      const expected = fold(k)(fresh());
      const undo: UndoLog = [];
      const state = fold(events.length, undo)(fold(k)(fresh()));
      assert.notDeepEqual(state, expected);
      undoChanges(undo);
      assert.deepEqual(state, expected, `undo after folding events ${k}..${events.length - 1}`);
    }
  }));
