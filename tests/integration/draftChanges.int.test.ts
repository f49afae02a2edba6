// ApplyDraftChanges through the CommandGateway, over a real SQLite log: one append or nothing, decided inside the
// branch's group commit (ordinary writes are ordered before or after it), and a dry run appends nothing.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { branchStreamId, isAppError } from '../../contracts/index.ts';
import type { CommandContext, CommandGateway, DraftOperation, ErrorCode, EventStore, RecordedEvent, RowView } from '../../contracts/index.ts';
import { createSqliteViewStore } from '../../projection-worker/index.ts';
import { createCommandService } from '../../command-service/createCommandService.ts';
import { newId } from '../../command-service/ids.ts';
import { createSystemStateSource } from '../../command-service/state/systemStateSource.ts';
import { TEST_COMMAND_CONFIG } from '../../command-service/testing/commandConfig.ts';
import { createStepClock, ids, itemsSchema, owner, ownerKey, refsSchema, withFixture } from '../../command-service/testing/branchHandlersFixture.ts';
import { createBranchCommandHandlers } from '../../command-service/branches/branchCommandHandlers.ts';

let requests = 0;
const ctx = (principal = owner): CommandContext => ({ principal, correlationId: `req-${++requests}` });
const draft = { revisionId: ids.mainDraft };

function gatewayOn(eventStore: EventStore): CommandGateway {
  const systemState = createSystemStateSource({ eventStore });
  return createCommandService({
    eventStore,
    systemState,
    clock: createStepClock(),
    log: pino({ level: 'silent' }),
    config: TEST_COMMAND_CONFIG,
    newId,
    // Decided on the durable decision state, as deployments do.
    branchHandlers: (deps) => createBranchCommandHandlers({ ...deps, decisionViews: createSqliteViewStore({ file: ':memory:' }) }),
  }).gateway;
}

async function branchLog(eventStore: EventStore): Promise<RecordedEvent[]> {
  return eventStore.readStream(branchStreamId(ids.main));
}

async function refused(promise: Promise<unknown>, code: ErrorCode): Promise<void> {
  await assert.rejects(promise, (err: unknown) => isAppError(err, code) || assert.fail(`expected ${code}, got ${String(err)}`));
}

async function setUp(gateway: CommandGateway): Promise<void> {
  await gateway.execute('CreateTable', { ...draft, tableId: 'items', schema: itemsSchema }, ctx());
  await gateway.execute('CreateTable', { ...draft, tableId: 'refs', schema: refsSchema }, ctx());
  const rows = ['a', 'b'].map((rowId) => ({ rowId, data: { name: rowId } }));
  await gateway.execute('CreateRows', { ...draft, tableId: 'items', rows, bulk: true }, ctx());
}

const item = (rowId: string, name = rowId) => ({ rowId, data: { name } });

describe('ApplyDraftChanges through the gateway', () => {
  test('a failing last operation leaves the log unchanged; the same operations without it are one append', () =>
    withFixture(async ({ eventStore }) => {
      const gateway = gatewayOn(eventStore);
      await setUp(gateway);
      const before = await branchLog(eventStore);
      const head = await eventStore.headPosition();
      const operations: DraftOperation[] = [
        { type: 'CreateTable', tableId: 'tags', schema: itemsSchema },
        { type: 'UpsertRows', tableId: 'items', rows: [item('a', 'A'), item('c')] },
        { type: 'CreateRows', tableId: 'refs', rows: [{ rowId: 'r1', data: { item: 'c' } }] },
        { type: 'RenameTable', tableId: 'items', nextTableId: 'things' },
      ];
      await refused(
        gateway.execute(
          'ApplyDraftChanges',
          { ...draft, operations: [...operations, { type: 'DeleteRows', tableId: 'things', rowIds: ['c'] }] },
          ctx(),
        ),
        'FOREIGN_KEY_IN_USE',
      );
      await refused(
        gateway.execute(
          'ApplyDraftChanges',
          { ...draft, operations: [...operations, { type: 'DeleteRows', tableId: 'tags', rowIds: ['x'] }] },
          ctx(),
        ),
        'ROW_NOT_FOUND',
      );
      assert.deepEqual(await branchLog(eventStore), before);
      assert.equal(await eventStore.headPosition(), head);

      const context = ctx();
      const outcome = await gateway.execute('ApplyDraftChanges', { ...draft, operations }, context);
      const after = await branchLog(eventStore);
      const appended = after.slice(before.length);
      assert.deepEqual(
        appended.map((e) => e.type),
        ['TableCreated', 'RowsCreated', 'RowsUpdated', 'RowsCreated', 'TableRenamed'],
      );
      assert.ok(appended.every((e) => e.metadata.correlationId === context.correlationId && e.metadata.time === appended[0]?.metadata.time));
      assert.equal(outcome.position, await eventStore.headPosition());
      assert.deepEqual(outcome.projections, ['catalog', 'schemas', 'rows']);
      assert.deepEqual(outcome.result, {
        dryRun: false,
        draftRevisionId: ids.mainDraft,
        streamRevision: after.length - 1,
        hasChanges: true,
        rowChanges: 3,
        operations: [
          { type: 'CreateTable', tableId: 'tags', created: 0, updated: 0, unchanged: 0, deleted: 0, renamed: 0, invalid: [] },
          { type: 'UpsertRows', tableId: 'items', created: 1, updated: 1, unchanged: 0, deleted: 0, renamed: 0, invalid: [] },
          { type: 'CreateRows', tableId: 'refs', created: 1, updated: 0, unchanged: 0, deleted: 0, renamed: 0, invalid: [] },
          { type: 'RenameTable', tableId: 'things', created: 0, updated: 0, unchanged: 0, deleted: 0, renamed: 0, invalid: [] },
        ],
      });
    }));

  test('a dry run answers what the real run answers and appends nothing', () =>
    withFixture(async ({ eventStore }) => {
      const gateway = gatewayOn(eventStore);
      await setUp(gateway);
      const before = await branchLog(eventStore);
      const operations: DraftOperation[] = [
        {
          type: 'UpsertRows',
          tableId: 'items',
          onInvalidRow: 'skip',
          rows: [item('a'), item('b', 'B'), { rowId: 'bad', data: { name: 1 } }, item('d')],
        },
        { type: 'DeleteRows', tableId: 'items', rowIds: ['d'] },
      ];
      const merge = { sourceRevisionId: 'r-src', baseRevisionId: 'r-base', totalRowChanges: 1 };
      const dry = await gateway.execute('ApplyDraftChanges', { ...draft, operations, merge, dryRun: true }, ctx());
      assert.deepEqual(await branchLog(eventStore), before);
      assert.equal(dry.result.streamRevision, before.length - 1);
      const [upsert] = dry.result.operations;
      assert.deepEqual(
        [upsert?.created, upsert?.updated, upsert?.unchanged, upsert?.invalid.map((r) => [r.index, r.code])],
        [1, 1, 1, [[2, 'INVALID_DATA']]],
      );
      await refused(
        gateway.execute(
          'ApplyDraftChanges',
          { ...draft, operations: [{ type: 'DeleteRows', tableId: 'items', rowIds: ['zz'] }], dryRun: true },
          ctx(),
        ),
        'ROW_NOT_FOUND',
      );

      const real = await gateway.execute('ApplyDraftChanges', { ...draft, operations, merge }, ctx());
      const after = await branchLog(eventStore);
      assert.deepEqual({ ...real.result, dryRun: true, streamRevision: before.length - 1 }, dry.result);
      assert.equal(real.result.streamRevision, after.length - 1);
      assert.deepEqual(
        after.slice(before.length).map((e) => e.type),
        ['RowsCreated', 'RowsUpdated', 'RowsDeleted', 'MergeRecorded'],
      );
    }));

  test('ordinary writes are ordered before or after it, never interleaved', () =>
    withFixture(async ({ eventStore }) => {
      const gateway = gatewayOn(eventStore);
      await setUp(gateway);
      const before = (await branchLog(eventStore)).length;
      const single = (rowId: string, name: string) =>
        gateway.execute('UpdateRows', { ...draft, tableId: 'items', rows: [item(rowId, name)], bulk: false }, ctx());
      const changes = ctx();
      // Submitted in one turn: they form one batch, decided in this order.
      const [first, applied, last, stale] = await Promise.allSettled([
        single('a', 'first'),
        gateway.execute(
          'ApplyDraftChanges',
          {
            ...draft,
            operations: [
              { type: 'UpdateRows', tableId: 'items', rows: [item('a', 'in-change'), item('b', 'in-change')] },
              { type: 'CreateRows', tableId: 'items', rows: [item('e')] },
            ],
          },
          changes,
        ),
        single('a', 'last'),
        // Computed against the log before the batch: another write came first.
        gateway.execute(
          'ApplyDraftChanges',
          { ...draft, operations: [{ type: 'DeleteRows', tableId: 'items', rowIds: ['e'] }], expectedStreamRevision: before - 1 },
          ctx(),
        ),
      ]);
      assert.equal(first.status, 'fulfilled');
      assert.equal(last.status, 'fulfilled');
      assert.ok(applied.status === 'fulfilled');
      assert.deepEqual(
        applied.value.result.operations.map((op) => [op.updated, op.created]),
        [
          [2, 0],
          [0, 1],
        ],
      );
      assert.ok(stale.status === 'rejected' && isAppError(stale.reason, 'CONCURRENT_MODIFICATION'));

      const appended = (await branchLog(eventStore)).slice(before);
      const owners = appended.map((e) => (e.metadata.correlationId === changes.correlationId ? 'changes' : 'single'));
      assert.deepEqual(owners, ['single', 'changes', 'changes', 'single']);
      const [row] = (await gateway.execute('UpdateRows', { ...draft, tableId: 'items', rows: [item('a', 'last')], bulk: false }, ctx()))
        .result as RowView[];
      assert.equal(row?.data.name, 'last');
      // With the revision it was computed against, the command is accepted.
      const now = (await branchLog(eventStore)).length - 1;
      await gateway.execute(
        'ApplyDraftChanges',
        { ...draft, operations: [{ type: 'DeleteRows', tableId: 'items', rowIds: ['e'] }], expectedStreamRevision: now },
        ctx(),
      );
    }));

  test('permissions and scopes are those of the single commands; the revision must be the draft', () =>
    withFixture(async ({ eventStore }) => {
      const gateway = gatewayOn(eventStore);
      await setUp(gateway);
      const operations: DraftOperation[] = [
        { type: 'UpsertRows', tableId: 'items', rows: [item('z')] },
        { type: 'CreateRows', tableId: 'refs', rows: [{ rowId: 'r', data: { item: 'z' } }] },
      ];
      await refused(gateway.execute('ApplyDraftChanges', { ...draft, operations }, ctx(ownerKey({ tableIds: ['items'] }))), 'API_KEY_SCOPE');
      await refused(gateway.execute('ApplyDraftChanges', { ...draft, operations }, ctx(ownerKey({ readOnly: true }))), 'API_KEY_READ_ONLY');
      await refused(gateway.execute('ApplyDraftChanges', { revisionId: ids.mainStart, operations }, ctx()), 'REVISION_NOT_DRAFT');
      await refused(gateway.execute('ApplyDraftChanges', { revisionId: 'nope', operations }, ctx()), 'REVISION_NOT_FOUND');
      const outcome = await gateway.execute('ApplyDraftChanges', { ...draft, operations }, ctx(ownerKey({ tableIds: ['items', 'refs'] })));
      assert.equal(outcome.result.rowChanges, 2);
    }));
});
