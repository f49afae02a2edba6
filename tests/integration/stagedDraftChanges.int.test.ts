// ApplyDraftChanges with `stage` (versioned-storage.md §6) through the CommandGateway over a real SQLite log: chunks
// are staged, not appended; the commit appends them in one transaction with the facts of the whole import; a write
// to the branch in between refuses the commit and discards the staging; malformed staged commands (and the fields of
// a staged bundle's chunks on commands that are not staged) are refused.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { branchStreamId, isAppError } from '../../contracts/index.ts';
import type { CommandContext, CommandGateway, ErrorCode, EventStore, StagedTotals } from '../../contracts/index.ts';
import { createSqliteViewStore } from '../../projection-worker/index.ts';
import { createCommandService } from '../../command-service/createCommandService.ts';
import { newId } from '../../command-service/ids.ts';
import { createSystemStateSource } from '../../command-service/state/systemStateSource.ts';
import { TEST_COMMAND_CONFIG } from '../../command-service/testing/commandConfig.ts';
import { createStepClock, ids, itemsSchema, owner, withFixture } from '../../command-service/testing/branchHandlersFixture.ts';
import { createBranchCommandHandlers } from '../../command-service/branches/branchCommandHandlers.ts';

let requests = 0;
const ctx = (): CommandContext => ({ principal: owner, correlationId: `req-${++requests}` });
const revisionId = ids.mainDraft;
const stagingId = `${revisionId}:import-1`;
const item = (rowId: string) => ({ rowId, data: { name: rowId } });

function gatewayOn(eventStore: EventStore): CommandGateway {
  return createCommandService({
    eventStore,
    systemState: createSystemStateSource({ eventStore }),
    clock: createStepClock(),
    log: pino({ level: 'silent' }),
    config: TEST_COMMAND_CONFIG,
    newId,
    branchHandlers: (deps) => createBranchCommandHandlers({ ...deps, decisionViews: createSqliteViewStore({ file: ':memory:' }) }),
  }).gateway;
}

async function refused(promise: Promise<unknown>, code: ErrorCode): Promise<void> {
  await assert.rejects(promise, (err: unknown) => isAppError(err, code) || assert.fail(`expected ${code}, got ${String(err)}`));
}

async function stage(gateway: CommandGateway, rowIds: readonly string[], before: StagedTotals | null) {
  const operations = [{ type: 'CreateRows' as const, tableId: 'items', rows: rowIds.map(item), onInvalidRow: 'skip' as const }];
  return (await gateway.execute('ApplyDraftChanges', { revisionId, operations, stage: { stagingId, action: 'stage', before } }, ctx())).result;
}

describe('staged ApplyDraftChanges', () => {
  test('chunks are staged, then one commit appends them with the counts of the whole import', () =>
    withFixture(async ({ eventStore }) => {
      const gateway = gatewayOn(eventStore);
      await gateway.execute('CreateTable', { revisionId, tableId: 'items', schema: itemsSchema }, ctx());
      await gateway.execute('CreateRows', { revisionId, tableId: 'items', rows: [item('a')], bulk: true }, ctx());
      const log = await eventStore.readStream(branchStreamId(ids.main));
      const first = await stage(gateway, ['b', 'c'], null);
      const second = await stage(gateway, ['d'], first.staged ?? null);
      assert.equal(first.streamRevision, second.streamRevision);
      assert.deepEqual(await eventStore.readStream(branchStreamId(ids.main)), log, 'staging appends nothing');
      assert.deepEqual(second.staged, { events: 2, rowChanges: 3, netRows: 3, inOverlay: 3, overlayTouched: 0, hasChanges: true });
      const committed = await gateway.execute(
        'ApplyDraftChanges',
        {
          revisionId,
          operations: [{ type: 'CreateRows', tableId: 'items', rows: [] }],
          expectedStreamRevision: second.streamRevision,
          stage: { stagingId, action: 'commit', before: second.staged ?? null },
        },
        ctx(),
      );
      const after = await eventStore.readStream(branchStreamId(ids.main));
      assert.equal(committed.result.streamRevision, after.length - 1);
      assert.deepEqual(
        after.slice(log.length).map((event) => [event.type, (event.data as { table: { count: number } }).table.count]),
        [
          ['RowsCreated', 3],
          ['RowsCreated', 4],
        ],
      );
      assert.deepEqual(await eventStore.staging?.list(), []);
    }));

  test('a write to the branch between the chunks and the commit refuses the commit and discards the staging', () =>
    withFixture(async ({ eventStore }) => {
      const gateway = gatewayOn(eventStore);
      await gateway.execute('CreateTable', { revisionId, tableId: 'items', schema: itemsSchema }, ctx());
      const chunk = await stage(gateway, ['b'], null);
      await gateway.execute('CreateRows', { revisionId, tableId: 'items', rows: [item('z')], bulk: true }, ctx());
      const log = await eventStore.readStream(branchStreamId(ids.main));
      await refused(
        gateway.execute(
          'ApplyDraftChanges',
          {
            revisionId,
            operations: [{ type: 'CreateRows', tableId: 'items', rows: [] }],
            expectedStreamRevision: chunk.streamRevision,
            stage: { stagingId, action: 'commit', before: chunk.staged ?? null },
          },
          ctx(),
        ),
        'CONCURRENT_MODIFICATION',
      );
      assert.deepEqual(await eventStore.readStream(branchStreamId(ids.main)), log);
      assert.deepEqual(await eventStore.staging?.list(), []);
    }));

  test('malformed staged commands are refused and stage nothing', () =>
    withFixture(async ({ eventStore }) => {
      const gateway = gatewayOn(eventStore);
      await gateway.execute('CreateTable', { revisionId, tableId: 'items', schema: itemsSchema }, ctx());
      const rows = [{ type: 'CreateRows' as const, tableId: 'items', rows: [item('b')] }];
      const run = (input: Parameters<CommandGateway['execute']>[1]) => gateway.execute('ApplyDraftChanges', input as never, ctx());
      await refused(run({ revisionId, operations: rows, stage: { stagingId: 'other:import', action: 'stage' } }), 'BAD_USER_INPUT');
      await refused(
        run({ revisionId, operations: [{ type: 'CreateTable', tableId: 't2', schema: itemsSchema }], stage: { stagingId, action: 'stage' } }),
        'BAD_USER_INPUT',
      );
      await refused(run({ revisionId, operations: rows, stage: { stagingId, action: 'commit' } }), 'BAD_USER_INPUT');
      // A bundle's chunk: a foreign unique scope, rows of two tables; its fields on a command that is not staged.
      const bundle = { prefix: 0, replacedTables: [] };
      await refused(run({ revisionId, operations: rows, stage: { stagingId, action: 'stage', bundle, uniqueScope: 'other:u' } }), 'BAD_USER_INPUT');
      const twoTables = [...rows, { type: 'DeleteRows' as const, tableId: 'other', rowIds: ['x'] }];
      await refused(run({ revisionId, operations: twoTables, stage: { stagingId, action: 'stage', bundle } }), 'BAD_USER_INPUT');
      await refused(run({ revisionId, operations: rows, tableKeySeed: 'seed' }), 'BAD_USER_INPUT');
      await refused(run({ revisionId, operations: rows, tableKeySeed: 'seed', stage: { stagingId, action: 'stage' } }), 'BAD_USER_INPUT');
      await refused(
        run({
          revisionId,
          operations: [{ type: 'CreateRows' as const, tableId: 'items', rows: [item('b')], referenceChecks: { replacedTables: [] } }],
        }),
        'BAD_USER_INPUT',
      );
      assert.deepEqual(await eventStore.staging?.list(), []);
    }));
});
