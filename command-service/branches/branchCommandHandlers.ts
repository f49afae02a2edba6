import { AppError, invariant, isDraftRevision, isoTime } from '../../contracts/index.ts';
import type {
  BranchRecord,
  CommandContext,
  CommandInput,
  CommandOutcome,
  DraftChangesResult,
  DraftOperation,
  RevisionView,
  SystemState,
  ViewStore,
} from '../../contracts/index.ts';
import type { CommandHandlers, HandlerDeps } from '../commandHandler.ts';
import { createRowValidatorCache, type RowValidatorCache } from '../domain/tables/rowValidator.ts';
import { draftHasChanges, type BranchContent } from './branchContent.ts';
import { validateBranchCommand, type BranchCommandBody, type BranchDeciderTools } from './branchCommand.ts';
import { createBranchContentStore } from './branchContentStore.ts';
import { createDurableContentStore } from './durableContentStore.ts';
import { resolveBranchTarget, resolveRevisionTarget, type Access } from './branchTargets.ts';
import { branchViewOf, draftRowViews, draftTableView } from './branchViews.ts';
import { createBranchWriteBatch, type Answer } from './branchWriteBatch.ts';
import { previewUpdateTable } from './previewUpdateTable.ts';
import { assertNotStagedOnly, createStagedDraftChanges } from './stagedDraftChanges.ts';
import { createHeadValueIndexes } from './headValueIndexes.ts';
import { createTableModelCache } from './tableModelCache.ts';

/** Projections a branch-content write must reach before it is visible. */
export const CONTENT_PROJECTIONS: readonly string[] = ['catalog', 'schemas', 'rows'];

export type BranchCommandHandlerDeps = HandlerDeps & {
  /** Shared compiled row validators (one is created when omitted). */
  readonly rowValidators?: RowValidatorCache;
  /** Bounds of the in-memory branch contents (used only without `decisionViews`). */
  readonly contentCache?: { readonly maxBranches?: number; readonly maxSnapshots?: number };
  /**
   * The view store of the durable decision state (DATA_DIR/state.db, docs/reference/versioned-storage.md §2):
   * decisions read the rows they need from it and nothing of a branch stays in memory. Without it, branch contents
   * are folded into memory (createBranchContentStore).
   */
  readonly decisionViews?: ViewStore;
};

type BranchCommandName =
  | 'ApplyDraftChanges'
  | 'CreateTable'
  | 'UpdateTable'
  | 'PreviewUpdateTable'
  | 'RenameTable'
  | 'DeleteTable'
  | 'CreateRows'
  | 'UpdateRows'
  | 'PatchRows'
  | 'RenameRow'
  | 'DeleteRows'
  | 'CreateRevision'
  | 'RevertChanges';

export type BranchCommandHandlers = Pick<CommandHandlers, BranchCommandName> & {
  /** Whether the branch's draft differs from HEAD, from the caught-up content state. */
  branchFacts(branchId: string): Promise<{ hasChanges: boolean }>;
  /** Catches the decision state up to the log (a no-op without `decisionViews`). */
  warmUp(): Promise<void>;
};

type DraftCommandName = Exclude<BranchCommandName, 'CreateRevision' | 'RevertChanges' | 'PreviewUpdateTable'>;

type WriteAction = 'create' | 'update' | 'delete';

function tableAccess(action: WriteAction): Access {
  return { read: 'Table', action, subject: 'Table' };
}

function rowAccess(action: WriteAction): Access {
  return { read: 'Row', action, subject: 'Row' };
}

/** The permissions of each draft operation (those of its single command; an upsert may create and update). */
function draftOperationAccess(op: DraftOperation): Access[] {
  switch (op.type) {
    case 'CreateTable':
      return [tableAccess('create')];
    case 'UpdateTable':
    case 'RenameTable':
      return [tableAccess('update')];
    case 'DeleteTable':
      return [tableAccess('delete')];
    case 'CreateRows':
      return [rowAccess('create')];
    case 'UpsertRows':
      return [rowAccess('create'), rowAccess('update')];
    case 'UpdateRows':
    case 'PatchRows':
    case 'RenameRow':
      return [rowAccess('update')];
    case 'DeleteRows':
      return [rowAccess('delete')];
    default: {
      const never: never = op;
      return never;
    }
  }
}

/** Distinct permissions and table ids (old and new) of ApplyDraftChanges; a change without operations writes rows. */
function draftChangesTargets(operations: readonly DraftOperation[]): { access: Access[]; tableIds: string[] } {
  const access = new Map<string, Access>();
  const tableIds = new Set<string>();
  for (const op of operations) {
    for (const one of draftOperationAccess(op)) access.set(`${one.subject}:${one.action}`, one);
    tableIds.add(op.tableId);
    if (op.type === 'RenameTable') tableIds.add(op.nextTableId);
  }
  if (access.size === 0) access.set('Row:update', rowAccess('update'));
  return { access: [...access.values()], tableIds: [...tableIds] };
}

/**
 * Handlers of the branch-content writes (system-api.md §3.3): authorize (auth.md §10 order) and validate here, then
 * hand the command to the branch's group commit (branchWriteBatch.ts), which decides it against the caught-up
 * content together with the commands queued beside it, appends the batch to `branch-{id}` in one transaction, and
 * answers each caller from the state its own events produced.
 */
export function createBranchCommandHandlers(deps: BranchCommandHandlerDeps): BranchCommandHandlers {
  const durable = deps.decisionViews ? createDurableContentStore({ views: deps.decisionViews, eventStore: deps.eventStore, log: deps.log }) : null;
  const store = durable ?? createBranchContentStore({ eventStore: deps.eventStore, ...deps.contentCache });
  const tools: BranchDeciderTools = {
    rowValidators: deps.rowValidators ?? createRowValidatorCache(),
    models: createTableModelCache(),
    headValues: createHeadValueIndexes(),
  };

  const batch = createBranchWriteBatch({
    store,
    eventStore: deps.eventStore,
    clock: deps.clock,
    newId: deps.newId,
    log: deps.log,
    tools,
    projections: CONTENT_PROJECTIONS,
  });

  function run<T>(
    system: SystemState,
    branch: BranchRecord,
    context: CommandContext,
    body: BranchCommandBody,
    answer: Answer<T>,
  ): Promise<CommandOutcome<T>> {
    return batch.submit(branch, system, body, context, answer);
  }

  /**
   * A table or row write. The revision must be the branch's draft when the request is resolved; a commit racing
   * with it is serialized by the branch stream, and the write then lands in the new draft (domain.md §3.3).
   */
  async function onDraft<K extends DraftCommandName, T>(
    type: K,
    input: CommandInput<K>,
    context: CommandContext,
    access: Access | readonly Access[],
    tableIds: readonly string[],
    answer: Answer<T>,
  ): Promise<CommandOutcome<T>> {
    const system = await deps.systemState.current();
    const { branch, revision } = resolveRevisionTarget(system, context.principal, input.revisionId, tableIds, access);
    const { revisionId: _revisionId, ...data } = input;
    const body = { type, data } as BranchCommandBody;
    validateBranchCommand(body);
    if (!isDraftRevision(system, revision)) throw new AppError('REVISION_NOT_DRAFT', 'The revision is not a draft');
    return run(system, branch, context, body, answer);
  }

  const staged = createStagedDraftChanges({
    eventStore: deps.eventStore,
    clock: deps.clock,
    systemState: deps.systemState,
    projections: CONTENT_PROJECTIONS,
    decide: (input, context, access, tableIds, answer) => onDraft('ApplyDraftChanges', input, context, access, tableIds, answer),
  });

  function draftChanges(input: CommandInput<'ApplyDraftChanges'>, context: CommandContext): Promise<CommandOutcome<DraftChangesResult>> {
    const { access, tableIds } = draftChangesTargets(input.operations);
    // An import above one command: its chunks are staged, then committed in one append (versioned-storage.md §6).
    if (input.stage) return staged.run(input, context, access, tableIds);
    assertNotStagedOnly(input);
    return onDraft('ApplyDraftChanges', input, context, access, tableIds, (state, decided) => {
      const report = decided.report;
      invariant(report, 'ApplyDraftChanges is decided with a report');
      const { eventCounts: _counts, ...answer } = report;
      return { dryRun: input.dryRun === true, streamRevision: state.streamRevision, ...answer };
    });
  }

  const views = (state: BranchContent, tableId: string, rowIds: readonly string[]) => draftRowViews(state, tableId, rowIds, tools.models);

  return {
    ApplyDraftChanges: draftChanges,
    CreateTable: (input, context) =>
      onDraft('CreateTable', input, context, tableAccess('create'), [input.tableId], (state) => draftTableView(state, input.tableId)),
    UpdateTable: (input, context) =>
      onDraft('UpdateTable', input, context, tableAccess('update'), [input.tableId], (state) => draftTableView(state, input.tableId)),
    async PreviewUpdateTable(input, context) {
      // Resolved and checked exactly like UpdateTable (same permission, same failures); nothing is appended.
      const system = await deps.systemState.current();
      const access = tableAccess('update');
      const { branch, revision } = resolveRevisionTarget(system, context.principal, input.revisionId, [input.tableId], access);
      const { revisionId: _revisionId, ...data } = input;
      validateBranchCommand({ type: 'UpdateTable', data });
      if (!isDraftRevision(system, revision)) throw new AppError('REVISION_NOT_DRAFT', 'The revision is not a draft');
      const preview = await previewUpdateTable({ store, clock: deps.clock, newId: deps.newId, tools }, branch, system, data, context);
      return { result: preview, position: null, projections: [] };
    },
    RenameTable: (input, context) =>
      onDraft('RenameTable', input, context, tableAccess('update'), [input.tableId, input.nextTableId], (state) =>
        draftTableView(state, input.nextTableId),
      ),
    DeleteTable: (input, context) =>
      onDraft('DeleteTable', input, context, tableAccess('delete'), [input.tableId], () => ({ success: true as const })),
    CreateRows: (input, context) =>
      onDraft('CreateRows', input, context, rowAccess('create'), [input.tableId], (state) =>
        views(
          state,
          input.tableId,
          input.rows.map((row) => row.rowId),
        ),
      ),
    UpdateRows: (input, context) =>
      onDraft('UpdateRows', input, context, rowAccess('update'), [input.tableId], (state) =>
        views(
          state,
          input.tableId,
          input.rows.map((row) => row.rowId),
        ),
      ),
    PatchRows: (input, context) =>
      onDraft('PatchRows', input, context, rowAccess('update'), [input.tableId], (state) =>
        views(
          state,
          input.tableId,
          input.rows.map((row) => row.rowId),
        ),
      ),
    RenameRow: async (input, context) => {
      const outcome = await onDraft('RenameRow', input, context, rowAccess('update'), [input.tableId], (state) =>
        views(state, input.tableId, [input.nextRowId]),
      );
      const [row] = outcome.result;
      if (!row) throw new AppError('INTERNAL_SERVER_ERROR');
      return { ...outcome, result: row };
    },
    DeleteRows: (input, context) =>
      onDraft('DeleteRows', input, context, rowAccess('delete'), [input.tableId], () => ({
        success: true as const,
        count: input.rowIds.length,
      })),

    async CreateRevision(input, context) {
      const system = await deps.systemState.current();
      const access: Access = { read: 'Revision', action: 'create', subject: 'Revision' };
      const branch = resolveBranchTarget(system, context.principal, input, access);
      const body: BranchCommandBody = { type: 'CreateRevision', data: { comment: input.comment ?? '' } };
      validateBranchCommand(body);
      return run(system, branch, context, body, async (_state, decided): Promise<RevisionView> => {
        const [event] = decided.events;
        if (event?.type !== 'RevisionCommitted') throw new AppError('INTERNAL_SERVER_ERROR');
        const { revisionId, seq, comment } = event.data;
        const known = system.revisions.get(revisionId) ?? (await deps.systemState.current()).revisions.get(revisionId);
        const committedAt = isoTime(decided.now);
        return {
          id: revisionId,
          branchId: branch.id,
          sequence: seq,
          parentId: decided.headBefore,
          isStart: false,
          isHead: true,
          isDraft: false,
          hasChanges: false,
          comment,
          createdAt: known?.createdAt ?? committedAt,
          committedAt,
          // The draft's pending merges become the commit's merge edges (merge.md §5).
          mergedRevisionIds: [...(known?.mergedRevisionIds ?? [])],
          pendingMergeRevisionIds: [],
        };
      });
    },

    async RevertChanges(input, context) {
      const system = await deps.systemState.current();
      const access: Access = { read: 'Revision', action: 'revert', subject: 'Revision' };
      const branch = resolveBranchTarget(system, context.principal, input, access);
      return run(system, branch, context, { type: 'RevertChanges', data: {} }, (state) => branchViewOf(system, branch, state));
    },

    warmUp: () => durable?.warmUp() ?? Promise.resolve(),

    async branchFacts(branchId) {
      const system = await deps.systemState.current();
      const branch = system.branches.get(branchId);
      if (!branch) return { hasChanges: false };
      return store.withBranch(branch, system, async (state) => ({ hasChanges: draftHasChanges(state) }));
    },
  };
}
