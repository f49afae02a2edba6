import { test } from 'node:test';
import assert from 'node:assert/strict';
import { branchStreamId, isAppError } from '../../contracts/index.ts';
import type { RevisionCommitted, RowsCreated, RowView } from '../../contracts/index.ts';
import { draftRows, draftTableById } from './branchContent.ts';
import { createBranchContentStore } from './branchContentStore.ts';
import { createSystemStateSource } from '../state/systemStateSource.ts';
import { as, createBranchFrom, ids, itemsSchema, owner, withFixture, type Fixture } from '../testing/branchHandlersFixture.ts';

const ctx = as(owner);
const main = { organizationId: 'acme', projectName: 'blog', branchName: 'master' };

async function lastCommit(fixture: Fixture, branchId: string): Promise<RevisionCommitted> {
  const events = await fixture.eventStore.readStream(branchStreamId(branchId));
  const commits = events.filter((e) => e.type === 'RevisionCommitted');
  return commits[commits.length - 1]?.data as RevisionCommitted;
}

test('a commit racing with draft writes: each write is in the committed revision or in the new draft', () =>
  withFixture(async (fixture) => {
    const [writerA, writerB, committer] = [fixture.handlers(), fixture.handlers(), fixture.handlers()];
    await writerA.CreateTable({ revisionId: ids.mainDraft, tableId: 'items', schema: itemsSchema }, ctx);
    const write = (rowId: string, i: number) =>
      (i % 2 === 0 ? writerA : writerB).CreateRows(
        { revisionId: ids.mainDraft, tableId: 'items', rows: [{ rowId, data: { name: rowId } }], bulk: false },
        ctx,
      );
    const rowIds = Array.from({ length: 40 }, (_, i) => `r${i}`);
    const writes = rowIds.map((rowId, i) => write(rowId, i));
    const commit = committer.CreateRevision({ ...main, comment: 'race' }, ctx);
    const settled = await Promise.allSettled([...writes.slice(0, 20), commit, ...writes.slice(20)]);

    const committed = await commit;
    assert.equal(committed.result.id, ids.mainDraft);
    const written = new Set<string>();
    settled.forEach((outcome) => {
      if (outcome.status === 'rejected') {
        // A write resolved after the commit names a revision that is no longer the draft: refused, never lost.
        assert.ok(isAppError(outcome.reason, 'REVISION_NOT_DRAFT'), String(outcome.reason));
      } else if (Array.isArray(outcome.value.result)) {
        for (const row of outcome.value.result as RowView[]) written.add(row.id);
      }
    });

    const events = await fixture.eventStore.readStream(branchStreamId(ids.main));
    const commitAt = events.findIndex((e) => e.type === 'RevisionCommitted');
    const { newDraftRevisionId } = events[commitAt]?.data as RevisionCommitted;
    const before = new Set<string>();
    const after = new Set<string>();
    events.forEach((e, i) => {
      if (e.type !== 'RowsCreated') return;
      const data = e.data as RowsCreated;
      assert.equal(data.draftRevisionId, i < commitAt ? ids.mainDraft : newDraftRevisionId);
      for (const row of data.rows) (i < commitAt ? before : after).add(row.rowId);
    });
    assert.deepEqual(new Set([...before, ...after]), written);
    assert.equal(before.size + after.size, written.size);

    // A fresh process folds HEAD = exactly the writes before the commit; the draft holds all of them.
    const system = await createSystemStateSource({ eventStore: fixture.eventStore }).current();
    const branch = system.branches.get(ids.main);
    assert.ok(branch);
    await createBranchContentStore({ eventStore: fixture.eventStore }).withBranch(branch, system, async (state) => {
      const headKeys = [...state.head.values()].flatMap((t) => [...t.rows.keys()]);
      assert.deepEqual(new Set(headKeys), before);
      const table = draftTableById(state, 'items');
      assert.ok(table);
      assert.deepEqual(new Set([...draftRows(table)].map(([rowId]) => rowId)), written);
      assert.equal(state.draftRevisionId, newDraftRevisionId);
    });
  }));

test('a branch starts from the source revision content; later changes on either side stay apart', () =>
  withFixture(async (fixture) => {
    const h = fixture.handlers();
    const users = (rowIds: string[], name = (id: string) => id) => rowIds.map((rowId) => ({ rowId, data: { name: name(rowId) } }));
    await h.CreateTable({ revisionId: ids.mainDraft, tableId: 'items', schema: itemsSchema }, ctx);
    await h.CreateRows({ revisionId: ids.mainDraft, tableId: 'items', rows: users(['a', 'b']), bulk: true }, ctx);
    await h.CreateRevision(main, ctx);
    const mainDraft2 = (await lastCommit(fixture, ids.main)).newDraftRevisionId;
    await h.UpdateRows({ revisionId: mainDraft2, tableId: 'items', rows: users(['a'], () => 'A2'), bulk: false }, ctx);
    await h.CreateRows({ revisionId: mainDraft2, tableId: 'items', rows: users(['c']), bulk: false }, ctx);
    await h.CreateRevision(main, ctx);

    const dev = { branchId: 'b-dev', name: 'dev', startRevisionId: 'r-dev-0', draftRevisionId: 'r-dev-1' };
    await createBranchFrom(fixture.eventStore, { branchId: ids.main, revisionId: ids.mainDraft, seq: 1 }, dev);
    const on = (revisionId: string) => ({ revisionId, tableId: 'items' });
    const nameOf = async (handlers: typeof h, revisionId: string, rowId: string, name: string) => {
      // Writing the current value is a no-op that returns the row.
      const [row] = (await handlers.UpdateRows({ ...on(revisionId), rows: [{ rowId, data: { name } }], bulk: false }, ctx)).result;
      return row;
    };
    for (const handlers of [h, fixture.handlers()]) {
      const row = await nameOf(handlers, 'r-dev-1', 'a', 'a');
      assert.equal(row?.readonly, true);
      await assert.rejects(handlers.CreateRows({ ...on('r-dev-1'), rows: users(['b']), bulk: false }, ctx), (err) =>
        isAppError(err, 'ROW_ALREADY_EXISTS'),
      );
      await assert.rejects(handlers.UpdateRows({ ...on('r-dev-1'), rows: users(['c']), bulk: false }, ctx), (err) =>
        isAppError(err, 'ROW_NOT_FOUND'),
      );
    }
    await h.UpdateRows({ ...on('r-dev-1'), rows: users(['a'], () => 'dev'), bulk: false }, ctx);
    assert.equal((await h.branchFacts('b-dev')).hasChanges, true);
    assert.equal((await h.branchFacts(ids.main)).hasChanges, false);
    await h.CreateRevision({ ...main, branchName: 'dev' }, ctx);
    const mainDraft3 = (await lastCommit(fixture, ids.main)).newDraftRevisionId;
    assert.equal((await nameOf(h, mainDraft3, 'a', 'A2'))?.readonly, true);

    // Branches of a branch: from its committed revision 1 and from its start revision (= main at 1).
    const feature = { branchId: 'b-feature', name: 'feature', startRevisionId: 'r-f-0', draftRevisionId: 'r-f-1' };
    await createBranchFrom(fixture.eventStore, { branchId: 'b-dev', revisionId: 'r-dev-1', seq: 1 }, feature);
    const early = { branchId: 'b-early', name: 'early', startRevisionId: 'r-e-0', draftRevisionId: 'r-e-1' };
    await createBranchFrom(fixture.eventStore, { branchId: 'b-dev', revisionId: 'r-dev-0', seq: 0 }, early);
    for (const handlers of [h, fixture.handlers()]) {
      assert.equal((await nameOf(handlers, 'r-f-1', 'a', 'dev'))?.readonly, true);
      assert.equal((await nameOf(handlers, 'r-e-1', 'a', 'a'))?.readonly, true);
      assert.equal((await handlers.branchFacts('b-feature')).hasChanges, false);
    }
  }));
