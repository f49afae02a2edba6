import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SYSTEM_REFS, anonymousPrincipal, branchStreamId, isAppError } from '../../contracts/index.ts';
import { jsonHash } from '../../command-service/domain/tables/jsonHash.ts';
import type { ErrorCode, RevisionCommitted } from '../../contracts/index.ts';
import { createSqliteViewStore } from '../../projection-worker/index.ts';
import { as, fixtureWith, ids, itemsSchema, owner, ownerKey, reader, refsSchema } from '../../command-service/testing/branchHandlersFixture.ts';

// Decided on the durable decision state, as deployments do (decisionFacts.int.test.ts: equal to the in-memory store).
const withFixture = fixtureWith(() => createSqliteViewStore({ file: ':memory:' }));

const target = { organizationId: 'acme', projectName: 'blog', branchName: 'master' };
const ctx = as(owner);

async function rejects(
  promise: Promise<unknown>,
  code: ErrorCode,
  check?: (err: { message: string; details?: readonly unknown[] }) => void,
): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(isAppError(err), String(err));
    assert.equal(err.code, code, err.message);
    check?.(err);
    return true;
  });
}

describe('branch command handlers (SQLite)', () => {
  test('a failing bulk write appends nothing', () =>
    withFixture(async ({ eventStore, handlers }) => {
      const h = handlers();
      const created = await h.CreateTable({ revisionId: ids.mainDraft, tableId: 'items', schema: itemsSchema }, ctx);
      assert.deepEqual(created.projections, ['catalog', 'schemas', 'rows']);
      assert.equal(created.result.readonly, false);
      await h.CreateTable({ revisionId: ids.mainDraft, tableId: 'refs', schema: refsSchema }, ctx);
      const head = await eventStore.headPosition();
      const rows = [
        { rowId: 'a', data: { name: 'a' } },
        { rowId: 'b', data: { name: 'b' } },
        { rowId: 'c', data: { name: 3 } },
      ];
      await rejects(h.CreateRows({ revisionId: ids.mainDraft, tableId: 'items', rows, bulk: true }, ctx), 'INVALID_DATA', (err) => {
        assert.equal((err.details?.[0] as { index: number }).index, 2);
      });
      const refs = [
        { rowId: 'r1', data: { item: 'a' } },
        { rowId: 'r2', data: { item: 'zz' } },
      ];
      await rejects(h.CreateRows({ revisionId: ids.mainDraft, tableId: 'refs', rows: refs, bulk: true }, ctx), 'FOREIGN_KEY_NOT_FOUND');
      assert.equal(await eventStore.headPosition(), head);
      assert.equal((await eventStore.readStream(branchStreamId(ids.main))).length, 2);
    }));

  test('foreign keys: missing targets, delete in use, row and table renames rewrite references', () =>
    withFixture(async ({ handlers }) => {
      const h = handlers();
      const on = { revisionId: ids.mainDraft };
      await h.CreateTable({ ...on, tableId: 'items', schema: itemsSchema }, ctx);
      await h.CreateTable({ ...on, tableId: 'refs', schema: refsSchema }, ctx);
      await rejects(
        h.CreateRows({ ...on, tableId: 'refs', rows: [{ rowId: 'r1', data: { item: 'a' } }], bulk: false }, ctx),
        'FOREIGN_KEY_NOT_FOUND',
        (err) => {
          assert.deepEqual(err.details, [{ path: '/item', tableId: 'items', missingRowIds: ['a'] }]);
        },
      );
      await h.CreateRows({ ...on, tableId: 'items', rows: [{ rowId: 'a', data: { name: 'A' } }], bulk: false }, ctx);
      await h.CreateRows({ ...on, tableId: 'refs', rows: [{ rowId: 'r1', data: { item: 'a' } }], bulk: false }, ctx);
      await rejects(h.DeleteRows({ ...on, tableId: 'items', rowIds: ['a'], bulk: false }, ctx), 'FOREIGN_KEY_IN_USE', (err) => {
        assert.deepEqual(err.details, [{ tableId: 'refs', rowIds: ['r1'] }]);
      });
      const renamed = await h.RenameRow({ ...on, tableId: 'items', rowId: 'a', nextRowId: 'b' }, ctx);
      assert.equal(renamed.result.id, 'b');
      assert.deepEqual(renamed.result.data, { name: 'A' });
      const [ref] = (await h.UpdateRows({ ...on, tableId: 'refs', rows: [{ rowId: 'r1', data: { item: 'b' } }], bulk: false }, ctx)).result;
      assert.ok(ref && ref.updatedAt === renamed.result.updatedAt, 'the reference was rewritten by the rename (no-op update)');
      await rejects(h.DeleteTable({ ...on, tableId: 'items' }, ctx), 'FOREIGN_KEY_IN_USE', (err) => {
        assert.deepEqual(err.details, [{ tableId: 'refs' }]);
      });
      const table = await h.RenameTable({ ...on, tableId: 'items', nextTableId: 'things' }, ctx);
      assert.equal(table.result.id, 'things');
      const patch = [{ op: 'add', path: '/properties/item/description', value: 'x' }];
      const refsTable = await h.UpdateTable({ ...on, tableId: 'refs', patches: patch }, ctx);
      assert.equal((refsTable.result.schema as typeof refsSchema).properties.item.foreignKey, 'things');
      await h.DeleteRows({ ...on, tableId: 'refs', rowIds: ['r1'], bulk: true }, ctx);
      assert.deepEqual((await h.DeleteRows({ ...on, tableId: 'things', rowIds: ['b'], bulk: true }, ctx)).result, { success: true, count: 1 });
    }));

  test('updateTable migrates rows: new updatedAt only for changed data, createdAt kept', () =>
    withFixture(async ({ handlers }) => {
      const h = handlers();
      const on = { revisionId: ids.mainDraft, tableId: 'items' };
      await h.CreateTable({ ...on, schema: itemsSchema }, ctx);
      const [row] = (await h.CreateRows({ ...on, rows: [{ rowId: 'a', data: { name: 'A' } }], bulk: false }, ctx)).result;
      assert.ok(row);
      const copied = await h.UpdateTable({ ...on, patches: [{ op: 'copy', from: '/properties/name', path: '/properties/alias' }] }, ctx);
      assert.deepEqual(copied.result.schema.required, ['name', 'alias']);
      const [migrated] = (await h.UpdateRows({ ...on, rows: [{ rowId: 'a', data: { name: 'A', alias: 'A' } }], bulk: false }, ctx)).result;
      assert.ok(migrated);
      assert.equal(migrated.createdAt, row.createdAt);
      assert.ok(migrated.updatedAt > row.updatedAt);
      assert.ok(copied.result.updatedAt > copied.result.createdAt);
      const described = await h.UpdateTable({ ...on, patches: [{ op: 'add', path: '/properties/name/title', value: 'Name' }] }, ctx);
      assert.ok(described.result.updatedAt > copied.result.updatedAt);
      const [same] = (await h.UpdateRows({ ...on, rows: [{ rowId: 'a', data: { name: 'A', alias: 'A' } }], bulk: false }, ctx)).result;
      assert.equal(same?.updatedAt, migrated.updatedAt);
    }));

  test('restoring a row to HEAD shows the HEAD row (readonly) and clears hasChanges; no-ops return the log head', () =>
    withFixture(async ({ eventStore, handlers }) => {
      const h = handlers();
      const on = { revisionId: ids.mainDraft, tableId: 'items' };
      await h.CreateTable({ ...on, schema: itemsSchema }, ctx);
      const [headRow] = (await h.CreateRows({ ...on, rows: [{ rowId: 'a', data: { name: 'A' } }], bulk: false }, ctx)).result;
      const committed = await h.CreateRevision({ ...target, comment: 'one' }, ctx);
      assert.equal(committed.result.id, ids.mainDraft);
      assert.equal(committed.result.sequence, 1);
      assert.equal(committed.result.parentId, ids.mainStart);
      assert.deepEqual([committed.result.isHead, committed.result.isDraft, committed.result.hasChanges], [true, false, false]);
      assert.equal(committed.result.comment, 'one');
      assert.equal(await h.branchFacts(ids.main).then((f) => f.hasChanges), false);
      await rejects(h.CreateRows({ ...on, rows: [{ rowId: 'x', data: { name: 'x' } }], bulk: false }, ctx), 'REVISION_NOT_DRAFT', (err) => {
        assert.equal(err.message, 'The revision is not a draft');
      });
      await rejects(h.RevertChanges(target, ctx), 'NO_CHANGES');
      const log = await eventStore.readStream(branchStreamId(ids.main));
      const { newDraftRevisionId } = log[log.length - 1]?.data as RevisionCommitted;
      const draft = { revisionId: newDraftRevisionId, tableId: 'items' };
      const unchanged = await h.UpdateTable({ ...draft, patches: [{ op: 'replace', path: '/properties/name/default', value: '' }] }, ctx);
      assert.equal(unchanged.result.readonly, true);
      const [changed] = (await h.UpdateRows({ ...draft, rows: [{ rowId: 'a', data: { name: 'B' } }], bulk: false }, ctx)).result;
      assert.equal(changed?.readonly, false);
      assert.equal(await h.branchFacts(ids.main).then((f) => f.hasChanges), true);
      const renamed = await h.RenameTable({ ...draft, nextTableId: 'things' }, ctx);
      assert.equal(renamed.result.readonly, false);
      await h.RenameTable({ ...draft, tableId: 'things', nextTableId: 'items' }, ctx);
      const restored = await h.UpdateRows({ ...draft, rows: [{ rowId: 'a', data: { name: 'A' } }], bulk: false }, ctx);
      assert.deepEqual(restored.result, [{ ...headRow, readonly: true }]);
      assert.equal(await h.branchFacts(ids.main).then((f) => f.hasChanges), false);
      await rejects(h.CreateRevision(target, ctx), 'NO_CHANGES');
      const noop = await h.UpdateRows({ ...draft, rows: [{ rowId: 'a', data: { name: 'A' } }], bulk: false }, ctx);
      assert.equal(noop.position, await eventStore.headPosition());
      // A second process folds the same state from the log.
      assert.equal(
        await handlers()
          .branchFacts(ids.main)
          .then((f) => f.hasChanges),
        false,
      );
      await h.UpdateRows({ ...draft, rows: [{ rowId: 'a', data: { name: 'C' } }], bulk: false }, ctx);
      const branch = await h.RevertChanges({ ...target, branchName: '$default' }, ctx);
      assert.deepEqual(
        { touched: branch.result.touched, head: branch.result.headRevisionId, draft: branch.result.draftRevisionId },
        { touched: false, head: ids.mainDraft, draft: draft.revisionId },
      );
    }));

  test('rows are returned with system refs filled; stored data keeps them empty', () =>
    withFixture(async ({ handlers }) => {
      const h = handlers();
      const schema = {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'id', 'hash'],
        properties: { name: { type: 'string', default: '' }, id: { $ref: SYSTEM_REFS.rowId }, hash: { $ref: SYSTEM_REFS.rowHash } },
      };
      const on = { revisionId: ids.mainDraft, tableId: 'items' };
      await h.CreateTable({ ...on, schema }, ctx);
      const [row] = (await h.CreateRows({ ...on, rows: [{ rowId: 'a', data: { hash: 'x', id: 'y', name: 'A' } }], bulk: false }, ctx)).result;
      assert.deepEqual(row?.data, { name: 'A', id: 'a', hash: jsonHash({ name: 'A', id: '', hash: '' }) });
      assert.deepEqual(Object.keys(row?.data ?? {}), ['name', 'id', 'hash']);
      await rejects(h.UpdateRows({ ...on, rows: [{ rowId: 'a', data: { name: 'A', id: 1, hash: '' } }], bulk: false }, ctx), 'INVALID_DATA');
      const [same] = (await h.UpdateRows({ ...on, rows: [{ rowId: 'a', data: { name: 'A', id: 'other', hash: '' } }], bulk: false }, ctx)).result;
      assert.equal(same?.updatedAt, row?.updatedAt);
      await h.CreateRevision(target, ctx);
      const noop = [{ op: 'replace', path: '/properties/name/default', value: '' }];
      const table = await h.UpdateTable({ revisionId: ids.mainDraft, tableId: 'items', patches: noop }, ctx).catch((err: unknown) => err);
      assert.ok(isAppError(table, 'REVISION_NOT_DRAFT'));
    }));

  test('authorization and targets', () =>
    withFixture(async ({ handlers }) => {
      const h = handlers();
      const create = { revisionId: ids.mainDraft, tableId: 'items', schema: itemsSchema };
      await rejects(h.CreateTable({ ...create, revisionId: 'nope' }, ctx), 'REVISION_NOT_FOUND');
      await rejects(h.CreateTable(create, as(anonymousPrincipal)), 'UNAUTHENTICATED');
      await rejects(h.CreateTable(create, as(reader)), 'FORBIDDEN');
      await rejects(h.CreateTable(create, as(ownerKey({ readOnly: true }))), 'API_KEY_READ_ONLY');
      await rejects(h.CreateTable(create, as(ownerKey({ tableIds: ['other'] }))), 'API_KEY_SCOPE');
      await rejects(h.CreateTable(create, as(ownerKey({ branchNames: ['dev'] }))), 'API_KEY_SCOPE');
      await rejects(h.CreateTable({ ...create, tableId: 'bad id' }, ctx), 'INVALID_TABLE_ID');
      await h.CreateTable(create, as(ownerKey({ tableIds: ['items'], branchNames: ['$default'] })));
      await h.CreateTable({ ...create, tableId: 'other' }, ctx);
      await rejects(h.CreateRevision(target, as(ownerKey({ tableIds: ['items'] }))), 'API_KEY_SCOPE');
      await rejects(h.CreateRevision({ ...target, organizationId: 'nope' }, ctx), 'ORGANIZATION_NOT_FOUND');
      await rejects(h.CreateRevision({ ...target, organizationId: 'nope' }, as(ownerKey({ organizationId: 'acme' }))), 'API_KEY_SCOPE');
      await rejects(h.CreateRevision({ ...target, projectName: 'nope' }, ctx), 'PROJECT_NOT_FOUND');
      await rejects(h.CreateRevision({ ...target, branchName: 'nope' }, ctx), 'BRANCH_NOT_FOUND');
      await rejects(h.CreateRevision(target, as(reader)), 'FORBIDDEN');
      await rejects(h.CreateRevision({ ...target, comment: 'x'.repeat(1001) }, ctx), 'BAD_USER_INPUT');
      assert.equal((await h.CreateRevision(target, ctx)).result.sequence, 1);
    }));
});
