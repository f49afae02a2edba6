import type { Logger } from 'pino';
import {
  AppError,
  MAX_CONFLICT_DETAILS,
  MAX_DRAFT_ROW_CHANGES,
  MAX_PREVIEW_CONFLICTS,
  assertCanRead,
  assertTableScope,
  findRevision,
  isAppError,
  isDraftRevision,
  mergeBaseOf,
  projectTarget,
  resolveBranch,
  resolveRevision,
  threeWayMerge,
} from '../../contracts/index.ts';
import type {
  BranchRecord,
  BranchView,
  CommandContext,
  CommandGateway,
  CommandInput,
  CommandOutcome,
  ConsistencyWaiter,
  DraftChangesResult,
  MergeConflict,
  MergePreviewView,
  MergeResultView,
  MergeStrategy,
  RevisionRecord,
  SystemState,
  SystemStateSource,
  ThreeWayMergeResult,
  ViewStore,
} from '../../contracts/index.ts';
import { createChangeReader } from '../changes/changeReader.ts';
import { createCatalogReader } from '../readers/catalogReader.ts';
import { createSchemaReader } from '../readers/schemaReader.ts';
import { readMergeSides, type MergeSides } from './mergeSides.ts';
import { resultChecks } from './resultChecks.ts';

type MergeArgs = CommandInput<'MergeRevision'>;
type RestoreArgs = CommandInput<'RestoreRevision'>;

export type MergeServiceDeps = {
  readonly viewStore: ViewStore;
  readonly systemState: SystemStateSource;
  /** The command side: the merge's dry runs and its one ApplyDraftChanges go through it, with the caller's rights. */
  readonly gateway: CommandGateway;
  readonly waiter: ConsistencyWaiter;
  readonly log: Logger;
  readonly timeoutMs?: number;
};

/** Apply recomputes when the draft moved between the computation and the append (merge.md §3). */
const APPLY_ATTEMPTS = 5;
const CONTENT = ['rows', 'schemas'];

/** A computed merge against the draft at `expected` (its branch stream revision). */
type Computed = {
  readonly branch: BranchRecord;
  readonly draft: RevisionRecord;
  readonly source: RevisionRecord;
  readonly base: RevisionRecord;
  readonly upToDate: boolean;
  readonly merged: ThreeWayMergeResult | null;
  /** Conflicts left open: the merge's own and those of the result checks (merge.md §2.3). */
  readonly open: readonly MergeConflict[];
  readonly expected: number | 'no_stream';
};

/**
 * Merge and restore (merge.md): computed here from the views with the diff machinery, and each side's schema
 * patches from the `schemas` projection (docs/reference/versioned-storage.md §3), applied by the command side as one ApplyDraftChanges with the draft's expected stream
 * revision, so the merge is one append that other draft writes are ordered before or after.
 */
export function createMergeService(deps: MergeServiceDeps) {
  const schemas = createSchemaReader(deps.viewStore);
  const changes = createChangeReader(deps.viewStore);
  const catalog = createCatalogReader(deps.viewStore);
  const timeoutMs = deps.timeoutMs ?? 10_000;
  const sideDeps = { schemas, changes, views: deps.viewStore };

  /**
   * The draft as the views hold it: an empty dry run names the branch stream revision the command side decides
   * against and the log head, then the content views are awaited up to it.
   */
  async function syncDraft(revisionId: string, context: CommandContext): Promise<number | 'no_stream'> {
    const probe = await deps.gateway.execute('ApplyDraftChanges', { revisionId, operations: [], dryRun: true }, context);
    if (probe.position !== null && !(await deps.waiter.waitFor(probe.position, timeoutMs, CONTENT))) {
      throw new AppError('SERVICE_UNAVAILABLE', 'The views did not reach the draft in time');
    }
    return probe.result.streamRevision ?? 'no_stream';
  }

  function resolveTarget(state: SystemState, context: CommandContext, args: RestoreArgs | MergeArgs, sourceId: string, field: string) {
    const { project, branch } = resolveBranch(state, context.principal, args);
    assertCanRead(state, context.principal, 'Revision', projectTarget(project));
    const source = findRevision(state, sourceId);
    if (source === null) throw new AppError('REVISION_NOT_FOUND', `Revision "${sourceId}" not found`);
    const refuse = (message: string) => new AppError('BAD_USER_INPUT', message, [{ path: `/${field}`, message }]);
    if (source.projectId !== project.id) throw refuse(`${field} must be a revision of the same project`);
    if (isDraftRevision(state, source)) throw refuse(`${field} must be a committed revision`);
    resolveRevision(state, context.principal, sourceId);
    assertCanRead(state, context.principal, 'Row', projectTarget(project));
    return { branch, source };
  }

  async function compute(args: MergeArgs, context: CommandContext): Promise<Computed> {
    const before = await deps.systemState.current();
    const { branch: resolved, source } = resolveTarget(before, context, args, args.sourceRevisionId, 'sourceRevisionId');
    if (source.branchId === resolved.id) {
      const message = 'sourceRevisionId must be a revision of another branch';
      throw new AppError('BAD_USER_INPUT', message, [{ path: '/sourceRevisionId', message }]);
    }
    const expected = await syncDraft(resolved.draftRevisionId, context);
    const state = await deps.systemState.current();
    const branch = state.branches.get(resolved.id) ?? resolved;
    const draft = state.revisions.get(branch.draftRevisionId) as RevisionRecord;
    const { base, upToDate } = mergeBaseOf(state, source, draft);
    if (upToDate) {
      const [named] = args.resolutions ?? [];
      if (named !== undefined) {
        const message = `conflict "${named.conflictId}" is not a conflict of this merge (it is up to date)`;
        throw new AppError('BAD_USER_INPUT', message, [{ path: `/resolutions/${named.conflictId}`, message }]);
      }
      return { branch, draft, source, base, upToDate, merged: null, open: [], expected };
    }
    const sides = await readMergeSides(sideDeps, state, { base, ours: draft, theirs: source, oursEnd: expected });
    for (const tableId of sides.theirsTableIds) assertTableScope(context.principal, tableId);
    const run = (overrides?: Parameters<typeof threeWayMerge>[0]['rowOverrides']) =>
      threeWayMerge({
        sourceRevisionId: source.id,
        baseRevisionId: base.id,
        ...sidesOf(sides),
        resolutions: args.resolutions ?? [],
        strategy: (args.strategy ?? 'FAIL') as MergeStrategy,
        ...(overrides ? { rowOverrides: overrides } : {}),
      });
    const checked = await resultChecks(
      { gateway: deps.gateway, context, draftRevisionId: draft.id, expected, ids: { source: source.id, base: base.id } },
      run,
      args.resolutions ?? [],
    );
    return { branch, draft, source, base, upToDate, merged: checked.merged, open: checked.open, expected };
  }

  /**
   * The branch as the append left it, without waiting for the views (the edges wait for WRITE_CONSISTENCY like for
   * any write): the stable fields from the catalog, HEAD and draft from the system state, `touched` from the
   * command's answer (whether the draft differs from HEAD).
   */
  async function branchView(branch: BranchRecord, outcome: CommandOutcome<DraftChangesResult> | null): Promise<BranchView> {
    const view = await catalog.branch(branch.id);
    if (view === null) throw new AppError('BRANCH_NOT_FOUND', 'Branch not found');
    const current = (await deps.systemState.current()).branches.get(branch.id) ?? branch;
    return {
      ...view,
      headRevisionId: current.headRevisionId,
      draftRevisionId: current.draftRevisionId,
      touched: outcome === null ? view.touched : outcome.result.hasChanges,
    };
  }

  function assertWithinLimit(total: number): void {
    if (total > MAX_DRAFT_ROW_CHANGES) {
      throw new AppError('LIMIT_EXCEEDED', `The merge changes ${total} rows; at most ${MAX_DRAFT_ROW_CHANGES} per merge`);
    }
  }

  return {
    async preview(args: MergeArgs, context: CommandContext): Promise<CommandOutcome<MergePreviewView>> {
      const computed = await withRetries(() => compute(args, context));
      const { merged, open } = computed;
      const result: MergePreviewView = {
        status: computed.upToDate ? 'UP_TO_DATE' : open.length > 0 ? 'CONFLICTS' : 'CLEAN',
        sourceRevisionId: computed.source.id,
        baseRevisionId: computed.base.id,
        targetRevisionId: computed.draft.id,
        tables: merged?.tables ?? [],
        totalRowChanges: merged?.totalRowChanges ?? 0,
        conflicts: open.slice(0, MAX_PREVIEW_CONFLICTS),
        conflictCount: open.length,
      };
      return { result, position: null, projections: [] };
    },

    async merge(args: MergeArgs, context: CommandContext): Promise<CommandOutcome<MergeResultView>> {
      for (let attempt = 1; ; attempt++) {
        const computed = await compute(args, context);
        const { merged, open, source, base } = computed;
        const answer = (outcome: CommandOutcome<DraftChangesResult> | null, status: 'UP_TO_DATE' | 'CLEAN') =>
          branchView(computed.branch, outcome).then((branch) => ({
            result: {
              status,
              sourceRevisionId: source.id,
              baseRevisionId: base.id,
              branch,
              tables: merged?.tables ?? [],
              totalRowChanges: merged?.totalRowChanges ?? 0,
            },
            position: outcome?.position ?? null,
            projections: outcome?.projections ?? [],
          }));
        if (merged === null) return answer(null, 'UP_TO_DATE');
        if (open.length > 0) throw mergeConflictError(open);
        assertWithinLimit(merged.totalRowChanges);
        try {
          const outcome = await deps.gateway.execute(
            'ApplyDraftChanges',
            {
              revisionId: computed.draft.id,
              operations: merged.operations,
              expectedStreamRevision: computed.expected,
              merge: { sourceRevisionId: source.id, baseRevisionId: base.id, totalRowChanges: merged.totalRowChanges },
            },
            context,
          );
          return answer(outcome, 'CLEAN');
        } catch (err) {
          if (!isAppError(err, 'CONCURRENT_MODIFICATION') || attempt >= APPLY_ATTEMPTS) throw err;
          deps.log.debug({ attempt, branchId: computed.branch.id }, 'merge recomputed after a concurrent draft write');
        }
      }
    },

    async restore(args: RestoreArgs, context: CommandContext): Promise<CommandOutcome<BranchView>> {
      for (let attempt = 1; ; attempt++) {
        const before = await deps.systemState.current();
        const { branch: resolved, source } = resolveTarget(before, context, args, args.revisionId, 'revisionId');
        const expected = await syncDraft(resolved.draftRevisionId, context);
        const state = await deps.systemState.current();
        const branch = state.branches.get(resolved.id) ?? resolved;
        const draft = state.revisions.get(branch.draftRevisionId) as RevisionRecord;
        // A restore is a merge whose base is the draft itself: nothing changed on our side, theirs is the revision.
        const sides = await readMergeSides(sideDeps, state, { base: draft, ours: draft, theirs: source, oursEnd: expected });
        for (const tableId of sides.theirsTableIds) assertTableScope(context.principal, tableId);
        const merged = threeWayMerge({
          sourceRevisionId: source.id,
          baseRevisionId: draft.id,
          ...sidesOf(sides),
          resolutions: [],
          strategy: 'THEIRS',
        });
        if (merged.operations.length === 0) throw new AppError('NO_CHANGES', 'The draft already equals that revision');
        assertWithinLimit(merged.totalRowChanges);
        try {
          const outcome = await deps.gateway.execute(
            'ApplyDraftChanges',
            { revisionId: draft.id, operations: merged.operations, expectedStreamRevision: expected },
            context,
          );
          return { result: await branchView(branch, outcome), position: outcome.position, projections: outcome.projections };
        } catch (err) {
          if (!isAppError(err, 'CONCURRENT_MODIFICATION') || attempt >= APPLY_ATTEMPTS) throw err;
        }
      }
    },
  };
}

export type MergeService = ReturnType<typeof createMergeService>;

/** A preview's checks run against the draft's expected revision too: a write in between recomputes it. */
async function withRetries<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (!isAppError(err, 'CONCURRENT_MODIFICATION') || attempt >= APPLY_ATTEMPTS) throw err;
    }
  }
}

function sidesOf(sides: MergeSides) {
  return { ours: sides.ours, theirs: sides.theirs, oursTableIds: sides.oursTableIds, oursRow: sides.oursRow };
}

/** 409 MERGE_CONFLICT (errors.md): details name up to 100 open conflicts, `path` = the conflict id. */
export function mergeConflictError(open: readonly MergeConflict[]): AppError {
  const details = open.slice(0, MAX_CONFLICT_DETAILS).map((conflict) => ({
    path: conflict.id,
    message: `${conflict.kind} in table "${conflict.tableId}"${conflict.rowId === null ? '' : ` row "${conflict.rowId}"`}${conflict.path === null ? '' : ` at "${conflict.path}"`}`,
  }));
  const count = open.length === 1 ? '1 unresolved conflict' : `${open.length} unresolved conflicts`;
  return new AppError('MERGE_CONFLICT', `The merge has ${count}`, details);
}

/** The gateway with the query side's commands (QUERY_SIDE_COMMANDS) answered by the merge service. */
export function withMerges(gateway: CommandGateway, merges: MergeService): CommandGateway {
  return {
    execute(type, input, context) {
      switch (type) {
        case 'PreviewMerge':
          return merges.preview(input as MergeArgs, context) as ReturnType<typeof gateway.execute<typeof type>>;
        case 'MergeRevision':
          return merges.merge(input as MergeArgs, context) as ReturnType<typeof gateway.execute<typeof type>>;
        case 'RestoreRevision':
          return merges.restore(input as RestoreArgs, context) as ReturnType<typeof gateway.execute<typeof type>>;
        default:
          return gateway.execute(type, input, context);
      }
    },
  };
}
