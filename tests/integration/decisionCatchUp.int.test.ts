// The decision state's catch-up (decisionCatchUp.ts): processes sharing state.db never apply a batch twice (the
// checkpoint CAS), a deleted file fills again from the log, branch_heads follows each branch stream, and a batch's
// own appends are applied without reading them back when nothing else was appended in between.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { pino } from 'pino';
import { branchStreamId } from '../../contracts/index.ts';
import type { ViewDoc, ViewStore } from '../../contracts/index.ts';
import { createSqliteViewStore } from '../../projection-worker/index.ts';
import { createDecisionCatchUp } from '../../command-service/branches/decisionCatchUp.ts';
import { DECISION_PROJECTION } from '../../command-service/branches/decisionViews.ts';
import { createSystemStateSource } from '../../command-service/state/systemStateSource.ts';
import { createBranchCommandHandlers } from '../../command-service/branches/branchCommandHandlers.ts';
import { as, createStepClock, ids, itemsSchema, owner, withFixture } from '../../command-service/testing/branchHandlersFixture.ts';

const ctx = as(owner);
const log = pino({ level: 'silent' });

async function contents(views: ViewStore): Promise<Record<string, ViewDoc[]>> {
  const out: Record<string, ViewDoc[]> = {};
  for (const collection of ['tables', 'rows', 'branch_heads']) {
    const docs = await views.find(DECISION_PROJECTION, collection);
    out[collection] = docs
      .map((doc) => JSON.stringify(doc))
      .sort()
      .map((text) => JSON.parse(text) as ViewDoc);
  }
  return out;
}

test('catch-ups of processes sharing one state file apply every batch once and equal a catch-up alone', () =>
  withFixture(async (fixture) => {
    const dir = await mkdtemp(join(tmpdir(), 'strata-decision-'));
    const shared = [0, 1, 2].map(() => createSqliteViewStore({ file: join(dir, 'state.db') }));
    const alone = createSqliteViewStore({ file: ':memory:' });
    try {
      const h = fixture.handlers();
      await h.CreateTable({ revisionId: ids.mainDraft, tableId: 'items', schema: itemsSchema }, ctx);
      let lost = 0;
      const counted = (views: ViewStore): ViewStore => {
        const wrapped = Object.create(views) as ViewStore;
        wrapped.applyBatch = async (...args) => {
          const applied = await views.applyBatch(...args);
          if (!applied) lost++;
          return applied;
        };
        return wrapped;
      };
      const catchUps = shared.map((views) => createDecisionCatchUp({ views: counted(views), eventStore: fixture.eventStore, log, batchEvents: 3 }));
      for (let round = 0; round < 6; round++) {
        const rows = Array.from({ length: 5 }, (_, i) => ({ rowId: `r${round}-${i}`, data: { name: `n${i}` } }));
        await h.CreateRows({ revisionId: ids.mainDraft, tableId: 'items', rows, bulk: true }, ctx);
        await h.UpdateRows({ revisionId: ids.mainDraft, tableId: 'items', rows: [{ rowId: `r${round}-0`, data: { name: 'x' } }], bulk: false }, ctx);
        if (round === 5) await h.CreateRevision({ organizationId: 'acme', projectName: 'blog', branchName: 'master', comment: 'mid' }, ctx);
        // Three processes race over the same batches; each call returns once the state holds the log so far.
        await Promise.all(catchUps.flatMap((c) => [c.catchUp(), c.catchUp()]));
      }
      await createDecisionCatchUp({ views: alone, eventStore: fixture.eventStore, log }).catchUp();
      assert.ok(lost > 0, 'the processes raced for a batch at least once');
      const expected = await contents(alone);
      assert.ok((expected.rows?.length ?? 0) >= 30);
      for (const views of shared) assert.deepEqual(await contents(views), expected);
      const [head] = expected.branch_heads ?? [];
      assert.equal(head?.streamRevision, (await fixture.eventStore.streamRevision(branchStreamId(ids.main))) ?? -1);
      assert.equal(head?.headSeq, 1);
      assert.equal(head?.headRevisionId, ids.mainDraft, 'the committed draft is HEAD');
    } finally {
      for (const views of [...shared, alone]) await views.close();
      await rm(dir, { recursive: true, force: true });
    }
  }));

test('a deleted state file fills again from the log to the same content', () =>
  withFixture(async (fixture) => {
    const dir = await mkdtemp(join(tmpdir(), 'strata-decision-'));
    try {
      const h = fixture.handlers();
      await h.CreateTable({ revisionId: ids.mainDraft, tableId: 'items', schema: itemsSchema }, ctx);
      await h.CreateRows({ revisionId: ids.mainDraft, tableId: 'items', rows: [{ rowId: 'a', data: { name: 'a' } }], bulk: false }, ctx);
      let views = createSqliteViewStore({ file: join(dir, 'state.db') });
      await createDecisionCatchUp({ views, eventStore: fixture.eventStore, log }).catchUp();
      const before = await contents(views);
      await views.close();
      await rm(join(dir, 'state.db'), { force: true });
      await rm(join(dir, 'state.db-wal'), { force: true });
      await rm(join(dir, 'state.db-shm'), { force: true });
      views = createSqliteViewStore({ file: join(dir, 'state.db') });
      await createDecisionCatchUp({ views, eventStore: fixture.eventStore, log }).catchUp();
      assert.deepEqual(await contents(views), before);
      await views.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }));

test('batches cut by their byte budget fill the same state as whole ones', () =>
  withFixture(async (fixture) => {
    const dir = await mkdtemp(join(tmpdir(), 'strata-decision-'));
    try {
      const h = fixture.handlers();
      await h.CreateTable({ revisionId: ids.mainDraft, tableId: 'items', schema: itemsSchema }, ctx);
      for (const rowId of ['a', 'b', 'c', 'd']) {
        await h.CreateRows({ revisionId: ids.mainDraft, tableId: 'items', rows: [{ rowId, data: { name: rowId } }], bulk: false }, ctx);
      }
      const whole = createSqliteViewStore({ file: join(dir, 'whole.db') });
      await createDecisionCatchUp({ views: whole, eventStore: fixture.eventStore, log }).catchUp();
      // A one-byte budget cuts every read after its first event: one event per batch.
      const cut = createSqliteViewStore({ file: join(dir, 'cut.db') });
      await createDecisionCatchUp({ views: cut, eventStore: fixture.eventStore, log, batchBytes: 1 }).catchUp();
      assert.deepEqual(await contents(cut), await contents(whole));
      assert.equal((await contents(cut)).rows?.length, 4);
      await whole.close();
      await cut.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }));

test("a batch's own appends are applied without reading them back, and the state equals one filled from the log", () =>
  withFixture(async ({ eventStore }) => {
    let readBack = 0;
    const counting = Object.create(eventStore) as typeof eventStore;
    counting.readAll = async (...args) => {
      const events = await eventStore.readAll(...args);
      readBack += events.length;
      return events;
    };
    const views = createSqliteViewStore({ file: ':memory:' });
    const alone = createSqliteViewStore({ file: ':memory:' });
    try {
      const h = createBranchCommandHandlers({
        eventStore: counting,
        systemState: createSystemStateSource({ eventStore }),
        clock: createStepClock(),
        log,
        newId: (() => {
          let n = 0;
          return () => `id-${++n}`;
        })(),
        decisionViews: views,
      });
      await h.CreateTable({ revisionId: ids.mainDraft, tableId: 'items', schema: itemsSchema }, ctx);
      const before = readBack;
      const rows = (from: number) => Array.from({ length: 50 }, (_, k) => ({ rowId: `r${from + k}`, data: { name: `n${from + k}` } }));
      // Sequential and concurrent (group-committed) writes, a commit, a refusal.
      for (let at = 0; at < 200; at += 50) await h.CreateRows({ revisionId: ids.mainDraft, tableId: 'items', rows: rows(at), bulk: true }, ctx);
      await Promise.all(
        ['a', 'b', 'c'].map((rowId) =>
          h.UpdateRows(
            { revisionId: ids.mainDraft, tableId: 'items', rows: [{ rowId: `r1${rowId.charCodeAt(0)}`, data: { name: rowId } }], bulk: false },
            ctx,
          ),
        ),
      );
      await h.DeleteRows({ revisionId: ids.mainDraft, tableId: 'items', rowIds: ['r0'], bulk: false }, ctx);
      await assert.rejects(
        h.CreateRows({ revisionId: ids.mainDraft, tableId: 'items', rows: [{ rowId: 'r1', data: { name: 'again' } }], bulk: false }, ctx),
      );
      await h.CreateRevision({ organizationId: 'acme', projectName: 'blog', branchName: 'master', comment: 'one' }, ctx);
      await h.warmUp();
      assert.equal(readBack - before, 0, 'no event of its own was read back from the log');

      // An append by another writer in between (no apply of its own) is read from the log as before.
      const other = createBranchCommandHandlers({
        eventStore,
        systemState: createSystemStateSource({ eventStore }),
        clock: createStepClock(Date.UTC(2026, 0, 1)),
        log,
        newId: () => `other-${Math.random()}`,
      });
      const draft = (await createSystemStateSource({ eventStore }).current()).branches.get(ids.main)?.draftRevisionId ?? '';
      await other.CreateRows({ revisionId: draft, tableId: 'items', rows: [{ rowId: 'x', data: { name: 'x' } }], bulk: false }, ctx);
      await h.CreateRows({ revisionId: draft, tableId: 'items', rows: [{ rowId: 'y', data: { name: 'y' } }], bulk: false }, ctx);
      await h.warmUp();
      assert.ok(readBack - before >= 1, 'the other writer’s event was read from the log');

      await createDecisionCatchUp({ views: alone, eventStore, log }).catchUp();
      assert.deepEqual(await contents(views), await contents(alone));
    } finally {
      await views.close();
      await alone.close();
    }
  }));
