import { AppError, MAX_ERROR_DETAILS, branchStreamId, isDraftRevision, isStreamConflict } from '../../contracts/index.ts';
import type {
  Clock,
  CommandContext,
  CommandInput,
  CommandOutcome,
  DomainEvent,
  DraftChangesResult,
  DraftStaging,
  EventStaging,
  EventStore,
  RowWrite,
  StagedTotals,
  SystemStateSource,
} from '../../contracts/index.ts';
import { buildEvents } from '../commandHandler.ts';
import { draftHasChanges, draftTable, type BranchContent, type DraftTable } from './branchContent.ts';
import { resolveRevisionTarget, type Access } from './branchTargets.ts';
import type { Answer } from './branchWriteBatch.ts';
import { FactRows } from './factRows.ts';
import { sameSchema } from './tableEdit.ts';
import { emptyResult } from './draftRowWrites.ts';
import { clashingRowsOf, recordUnique, uniqueAware } from './stagedUnique.ts';
import { bundleOperations, eventsAfterPrefix, stagedBundleFacts, tableKeySeedOf } from './stagedBundle.ts';

const NO_TOTALS: StagedTotals = { events: 0, rowChanges: 0, netRows: 0, inOverlay: 0, overlayTouched: 0, hasChanges: false };

/** How many draft changes the table had before the import, or null when the decision did not gather them all. */
function overlaySize(table: DraftTable): number | null {
  const rows = table.overlay?.rows;
  if (rows === undefined) return 0;
  if (rows instanceof FactRows && !rows.complete) return null;
  return rows.size;
}

type RowEvent = Extract<DomainEvent, { type: 'RowsCreated' | 'RowsUpdated' | 'RowsDeleted' }>;

const isRestored = (write: RowWrite): boolean => 'restored' in write && write.restored === true;

/**
 * The events of one staged chunk with the facts of the draft after the chunks staged before it
 * (versioned-storage.md §6). A chunk is decided against the draft as it was before the import (the earlier chunks
 * are staged, not appended), so its events' `table.count` is moved by the rows the earlier chunks created and
 * deleted, and `equalsHead`/`draftHasChanges` are recomputed from what the import as a whole leaves: the table
 * equals HEAD when its id and schema do, no row the import wrote or deleted leaves a draft change, and every draft
 * change it had before was written or deleted by the import (known only when the decision gathered them all, which
 * it does when a chunk's own rows all equal HEAD; otherwise the table is said to differ, the safe side). Rows are
 * never written twice by one import, so these counts add up chunk by chunk.
 */
export function stagedChunkFacts(
  state: BranchContent,
  events: readonly DomainEvent[],
  before: StagedTotals,
): { events: DomainEvent[]; after: StagedTotals } {
  let totals = before;
  const out = events.map((event): DomainEvent => {
    if (event.type !== 'RowsCreated' && event.type !== 'RowsUpdated' && event.type !== 'RowsDeleted') {
      throw new AppError('BAD_USER_INPUT', 'A staged import writes rows of one table only');
    }
    const table = draftTable(state, event.data.tableKey);
    if (table === null) throw new AppError('TABLE_NOT_FOUND');
    const ids = event.type === 'RowsDeleted' ? event.data.rowIds : event.data.rows.map((row) => row.rowId);
    const inOverlay =
      event.type === 'RowsDeleted'
        ? event.data.rowIds.filter((rowId) => table.head?.rows.has(rowId) === true).length
        : event.data.rows.filter((row) => !isRestored(row)).length;
    const touched = ids.filter((rowId) => table.overlay?.rows.has(rowId) === true).length;
    const net = event.type === 'RowsCreated' ? ids.length : event.type === 'RowsDeleted' ? -ids.length : 0;
    totals = {
      events: totals.events + 1,
      rowChanges: totals.rowChanges + ids.length,
      netRows: totals.netRows + net,
      inOverlay: totals.inOverlay + inOverlay,
      overlayTouched: totals.overlayTouched + touched,
      hasChanges: totals.hasChanges,
    };
    const { head } = table;
    const before = overlaySize(table);
    const equalsHead =
      head !== null &&
      table.tableId === head.tableId &&
      sameSchema(table.schema, head.schema) &&
      totals.inOverlay === 0 &&
      before !== null &&
      totals.overlayTouched === before;
    const otherChanges = [...state.draft.keys()].some((tableKey) => tableKey !== table.tableKey);
    const hasChanges = otherChanges || !equalsHead;
    totals = { ...totals, hasChanges };
    const facts = { tableKey: table.tableKey, count: table.count + totals.netRows, equalsHead };
    return { type: event.type, data: { ...event.data, draftHasChanges: hasChanges, table: facts } } as RowEvent;
  });
  return { events: out, after: totals };
}

export type StagedDraftChangesDeps = {
  readonly eventStore: EventStore;
  readonly clock: Clock;
  readonly systemState: SystemStateSource;
  readonly projections: readonly string[];
  /** Decides ApplyDraftChanges in the branch's group commit (branchCommandHandlers `onDraft`). */
  readonly decide: <T>(
    input: CommandInput<'ApplyDraftChanges'>,
    context: CommandContext,
    access: readonly Access[],
    tableIds: readonly string[],
    answer: Answer<T>,
  ) => Promise<CommandOutcome<T>>;
};

const STAGED_OPERATIONS = new Set(['CreateRows', 'UpsertRows', 'DeleteRows']);

/**
 * ApplyDraftChanges with `stage` (contracts/commands/draftChanges.ts `DraftStaging`): chunks of an import decided
 * one by one in the branch's group commit, like dry runs, their events staged in the event store; then one commit
 * copies them into the branch stream in one transaction (versioned-storage.md §6, option B).
 */
export function createStagedDraftChanges(deps: StagedDraftChangesDeps) {
  const staging = deps.eventStore.staging;

  function requireStaging() {
    if (staging === undefined) {
      throw new AppError('LIMIT_EXCEEDED', 'This event store cannot stage an import above one append (KurrentDB): split the file');
    }
    return staging;
  }

  /** The arguments of `run`, with the staging area and the command's (checked) `stage`. */
  type Staged = [
    store: EventStaging,
    stage: DraftStaging,
    input: CommandInput<'ApplyDraftChanges'>,
    context: CommandContext,
    access: readonly Access[],
    tableIds: readonly string[],
  ];

  async function stageChunk(...[store, stage, input, context, access, tableIds]: Staged): Promise<CommandOutcome<DraftChangesResult>> {
    const bundle = stage.bundle ?? undefined;
    const oneTable = new Set(input.operations.map((op) => op.tableId)).size <= 1;
    if (bundle === undefined && (!oneTable || input.operations.some((op) => !STAGED_OPERATIONS.has(op.type)))) {
      throw new AppError('BAD_USER_INPUT', 'A staged chunk holds CreateRows, UpsertRows or DeleteRows of one table', [
        { path: '/operations', message: 'row operations of one table only' },
      ]);
    }
    if (bundle === undefined) assertNotStagedOnly(input, true);
    const { stage: _stage, merge: _merge, ...plain } = input;
    const unique = await uniqueAware(store, stage, input.operations);
    const operations = bundle === undefined ? unique : bundleOperations(unique, bundle);
    const seed = bundle === undefined ? {} : { tableKeySeed: tableKeySeedOf(stage.stagingId) };
    return deps.decide({ ...plain, operations, dryRun: true, ...seed }, context, access, tableIds, async (state, decided) => {
      const report = decided.report;
      if (report === undefined) throw new AppError('INTERNAL_SERVER_ERROR');
      // Before the first chunk: the draft as it is (nothing of the import staged yet).
      const before = stage.before ?? { ...NO_TOTALS, hasChanges: draftHasChanges(state) };
      const { eventCounts, ...answer } = report;
      const own = bundle === undefined ? decided.events : eventsAfterPrefix(decided.events, eventCounts, bundle.prefix);
      const { events, after } = bundle === undefined ? stagedChunkFacts(state, own, before) : stagedBundleFacts(own, before);
      if (events.length > 0 && stage.dryRun !== true) await store.stage(stage.stagingId, buildEvents(events, context, deps.clock, decided.now));
      if (stage.firstIndex !== undefined && stage.clashesFrom === undefined) {
        await recordUnique(store, { ...stage, stagingId: stage.uniqueScope ?? stage.stagingId }, answer, own);
      }
      const done = answer.operations.map(({ deferredUnique: _values, ...result }) => result);
      return { ...answer, operations: done, dryRun: false, hasChanges: after.hasChanges, streamRevision: state.streamRevision, staged: after };
    });
  }

  async function commitOrDiscard(...[store, stage, input, context, access, tableIds]: Staged): Promise<CommandOutcome<DraftChangesResult>> {
    const system = await deps.systemState.current();
    const { branch, revision } = resolveRevisionTarget(system, context.principal, input.revisionId, tableIds, access);
    if (!isDraftRevision(system, revision)) throw new AppError('REVISION_NOT_DRAFT', 'The revision is not a draft');
    const result = (streamRevision: number | null, hasChanges: boolean): DraftChangesResult => ({
      dryRun: false,
      draftRevisionId: revision.id,
      streamRevision,
      hasChanges,
      rowChanges: stage.before?.rowChanges ?? 0,
      operations: [],
    });
    if (stage.action === 'checkUnique') {
      const tableId = input.operations[0]?.tableId ?? '';
      const found = await store.checkUnique(stage.stagingId, MAX_ERROR_DETAILS);
      const { created, updated, rows } = found;
      const write = { ...emptyResult('UpsertRows', tableId), invalid: clashingRowsOf(tableId, found.first) };
      return { result: { ...result(null, false), operations: [write], uniqueClashes: { rows, created, updated } }, position: null, projections: [] };
    }
    if (stage.action === 'discard') {
      await store.discard(stage.stagingId);
      return { result: result(null, false), position: null, projections: [] };
    }
    const expected = input.expectedStreamRevision;
    if (expected === undefined || expected === null) {
      throw new AppError('BAD_USER_INPUT', 'A commit of staged changes needs expectedStreamRevision', [
        { path: '/expectedStreamRevision', message: 'required with stage.action commit' },
      ]);
    }
    try {
      const appended = await store.commit(stage.stagingId, branchStreamId(branch.id), expected);
      const outcome = result(appended.nextExpectedRevision, stage.before?.hasChanges ?? true);
      return { result: outcome, position: appended.position, projections: deps.projections };
    } catch (err) {
      if (!isStreamConflict(err)) throw err;
      await store.discard(stage.stagingId);
      throw new AppError('CONCURRENT_MODIFICATION', 'The draft was modified during the import; nothing was imported, retry the request');
    }
  }

  return {
    run(
      input: CommandInput<'ApplyDraftChanges'>,
      context: CommandContext,
      access: readonly Access[],
      tableIds: readonly string[],
    ): Promise<CommandOutcome<DraftChangesResult>> {
      const stage = input.stage;
      if (!stage) throw new AppError('BAD_USER_INPUT', 'stage is required');
      const ids = [stage.stagingId, stage.clashesFrom ?? stage.stagingId, stage.uniqueScope ?? stage.stagingId];
      const foreign = ids.some((id) => !id.startsWith(`${input.revisionId}:`));
      if (foreign) {
        throw new AppError('BAD_USER_INPUT', 'stagingId must start with the revision id and ":"', [
          { path: '/stage/stagingId', message: 'foreign staging id' },
        ]);
      }
      const staged: Staged = [requireStaging(), stage, input, context, access, tableIds];
      return stage.action === 'stage' ? stageChunk(...staged) : commitOrDiscard(...staged);
    },
  };
}

/**
 * Fields the command side sets on a staged import's chunks only: refused on any other ApplyDraftChanges (and those
 * of a bundle's chunks on a table import's, `bundleOnly`).
 */
export function assertNotStagedOnly(input: CommandInput<'ApplyDraftChanges'>, bundleOnly = false): void {
  if (input.tableKeySeed !== undefined) {
    throw new AppError('BAD_USER_INPUT', 'tableKeySeed is set by staged imports only', [{ path: '/tableKeySeed', message: 'not allowed' }]);
  }
  const fields = bundleOnly ? (['referenceChecks'] as const) : (['uniqueChecks', 'referenceChecks'] as const);
  for (const [index, op] of input.operations.entries()) {
    for (const field of fields) {
      if (!(field in op) || (op as Partial<Record<typeof field, unknown>>)[field] === undefined) continue;
      throw new AppError('BAD_USER_INPUT', `${field} is set by staged imports only`, [
        { path: `/operations/${index}/${field}`, message: 'not allowed' },
      ]);
    }
  }
}
