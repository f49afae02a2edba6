import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DraftOperation } from '../../contracts/index.ts';
import type { BranchCommandBody } from './branchCommand.ts';
import { decideBranch } from './branchDecider.ts';
import { createBranchSpec, specTime, type BranchSpec } from '../testing/branchDeciderSpec.ts';
import { commit, createRows, createTable, deleteRows, obj, str, updateRows } from '../testing/specSchemas.ts';

/** items: sku (x-unique string), n (x-unique integer), note (plain). */
const itemsSchema = obj({
  sku: { type: 'string', default: '', 'x-unique': true },
  n: { type: 'integer', default: 0, minimum: 0, 'x-unique': true },
  note: str(),
});
const item = (sku: string, n = 0, note = '') => ({ sku, n, note });

/** items with p1 (A, 1) committed to HEAD and p2 (B, 2) in the draft. */
function withItems(): BranchSpec {
  const spec = createBranchSpec();
  spec.exec(createTable('items', itemsSchema));
  spec.exec(createRows('items', [{ rowId: 'p1', data: item('A', 1) }]));
  spec.exec(commit());
  spec.exec(createRows('items', [{ rowId: 'p2', data: item('B', 2) }]));
  return spec;
}

const clash = (rowId: string, path: string, value: unknown, otherRowId: string, index?: number) => ({
  path,
  message: `Another row ("${otherRowId}") already has "${path}" = ${JSON.stringify(value)}`,
  rowId,
  otherRowId,
  value,
  ...(index !== undefined ? { index } : {}),
});

const changes = (operations: DraftOperation[]): BranchCommandBody => ({ type: 'ApplyDraftChanges', data: { operations } });

describe('x-unique on every write path (domain.md §5.5)', () => {
  test('create: a value held in HEAD or in the draft, or twice in one request, is 409 UNIQUE_VIOLATION', () => {
    const spec = withItems();
    spec.when(createRows('items', [{ rowId: 'p3', data: item('A', 3) }], false)).thenThrows('UNIQUE_VIOLATION', (err) => {
      assert.equal(err.message, 'Another row ("p1") already has "/sku" = "A" in table "items" (row "p3")');
      assert.deepEqual(err.details, [clash('p3', '/sku', 'A', 'p1')]);
    });
    spec.when(createRows('items', [{ rowId: 'p3', data: item('C', 2) }])).thenThrows('UNIQUE_VIOLATION', (err) => {
      assert.deepEqual(err.details, [clash('p3', '/n', 2, 'p2', 0)]);
    });
    spec
      .when(
        createRows('items', [
          { rowId: 'p3', data: item('C', 3) },
          { rowId: 'p4', data: item('C', 4) },
        ]),
      )
      .thenThrows('UNIQUE_VIOLATION', (err) => {
        assert.deepEqual(err.details, [clash('p4', '/sku', 'C', 'p3', 1)]);
      });
    assert.equal(
      spec.decide(
        createRows('items', [
          { rowId: 'p3', data: item('', 3) },
          { rowId: 'p4', data: item('', 4, 'B') },
        ]),
      ).length,
      1,
    );
  });

  test("update and patch: the row keeps its own value; taking another row's value is refused; a swap in one request passes", () => {
    const spec = withItems();
    assert.equal(spec.decide(updateRows('items', [{ rowId: 'p1', data: item('A', 1, 'changed') }])).length, 1);
    spec.when(updateRows('items', [{ rowId: 'p2', data: item('A', 2) }])).thenThrows('UNIQUE_VIOLATION', (err) => {
      assert.deepEqual(err.details, [clash('p2', '/sku', 'A', 'p1', 0)]);
    });
    const patch: BranchCommandBody = {
      type: 'PatchRows',
      data: { tableId: 'items', bulk: false, rows: [{ rowId: 'p1', patches: [{ op: 'replace', path: '/n', value: 2 }] }] },
    };
    spec.when(patch).thenThrows('UNIQUE_VIOLATION', (err) => assert.deepEqual(err.details, [clash('p1', '/n', 2, 'p2')]));
    const swap = updateRows('items', [
      { rowId: 'p1', data: item('B', 2) },
      { rowId: 'p2', data: item('A', 1) },
    ]);
    assert.equal(spec.decide(swap).length, 1);
  });

  test('a deleted row frees its value; a renamed row keeps holding it', () => {
    const spec = withItems();
    spec.exec(deleteRows('items', ['p2']));
    assert.equal(spec.decide(createRows('items', [{ rowId: 'p3', data: item('B', 2) }])).length, 1);
    spec.exec({ type: 'RenameRow', data: { tableId: 'items', rowId: 'p1', nextRowId: 'p9' } });
    spec.when(createRows('items', [{ rowId: 'p1', data: item('A', 5) }])).thenThrows('UNIQUE_VIOLATION', (err) => {
      assert.deepEqual(err.details, [clash('p1', '/sku', 'A', 'p9', 0)]);
    });
  });

  test('schema change: x-unique over repeated values, or a conversion that makes values repeat, is refused', () => {
    const spec = createBranchSpec();
    spec.exec(createTable('items', obj({ sku: str(), other: str() })));
    spec.exec(
      createRows('items', [
        { rowId: 'p1', data: { sku: 'A', other: 'x' } },
        { rowId: 'p2', data: { sku: 'A', other: 'y' } },
        { rowId: 'p3', data: { sku: '', other: '' } },
      ]),
    );
    const makeUnique = (path: string): BranchCommandBody => ({
      type: 'UpdateTable',
      data: { tableId: 'items', patches: [{ op: 'add', path, value: true }] },
    });
    spec
      .when(makeUnique('/properties/sku/x-unique'))
      .thenThrows('UNIQUE_VIOLATION', (err) => assert.deepEqual(err.details, [clash('p2', '/sku', 'A', 'p1')]));
    spec.exec(makeUnique('/properties/other/x-unique'));
    // "x", "y", "" -> integer: no number, so each becomes 0 (domain.md §6) and the migrated rows repeat it.
    const toInteger: BranchCommandBody = {
      type: 'UpdateTable',
      data: { tableId: 'items', patches: [{ op: 'replace', path: '/properties/other', value: { type: 'integer', default: 7, 'x-unique': true } }] },
    };
    spec.when(toInteger).thenThrows('UNIQUE_VIOLATION', (err) => {
      assert.deepEqual(err.details, [clash('p2', '/other', 0, 'p1'), clash('p3', '/other', 0, 'p1')]);
    });
    const keepsUnique: BranchCommandBody = {
      type: 'UpdateTable',
      data: { tableId: 'items', patches: [{ op: 'move', from: '/properties/other', path: '/properties/code' }] },
    };
    assert.equal(spec.decide(keepsUnique).length, 1);
  });

  test('ApplyDraftChanges: checked on the final draft (a swap over two operations passes); skipping writes leave clashing rows out', () => {
    const spec = withItems();
    const swap = changes([
      { type: 'UpdateRows', tableId: 'items', rows: [{ rowId: 'p1', data: item('B', 1) }] },
      { type: 'UpdateRows', tableId: 'items', rows: [{ rowId: 'p2', data: item('A', 2) }] },
    ]);
    assert.equal(spec.decide(swap).length, 2);
    spec.when(changes([{ type: 'UpsertRows', tableId: 'items', rows: [{ rowId: 'p3', data: item('A', 3) }] }])).thenThrows('UNIQUE_VIOLATION');
    spec
      .when(
        changes([
          { type: 'CreateRows', tableId: 'items', rows: [{ rowId: 'p3', data: item('C', 3) }] },
          { type: 'CreateRows', tableId: 'items', rows: [{ rowId: 'p4', data: item('C', 4) }] },
        ]),
      )
      .thenThrows('UNIQUE_VIOLATION', (err) => assert.deepEqual(err.details, [clash('p4', '/sku', 'C', 'p3')]));

    const skipping = changes([
      {
        type: 'UpsertRows',
        tableId: 'items',
        onInvalidRow: 'skip',
        rows: [
          { rowId: 'p3', data: item('A', 3) },
          { rowId: 'p4', data: item('D', 4) },
          { rowId: 'p5', data: item('D', 5) },
        ],
      },
    ]);
    const decision = decideBranch(
      { ...skipping, metadata: { projectId: 'p1', tableInScope: () => true, now: specTime(9), newId: 'x' } } as never,
      spec.state,
      spec.tools,
    );
    const [result] = decision.report?.operations ?? [];
    assert.equal(result?.created, 1);
    assert.deepEqual(
      result?.invalid.map((row) => [row.index, row.rowId, row.code]),
      [
        [0, 'p3', 'UNIQUE_VIOLATION'],
        [2, 'p5', 'UNIQUE_VIOLATION'],
      ],
    );
  });
});
