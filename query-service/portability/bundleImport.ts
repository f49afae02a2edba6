import {
  MAX_DRAFT_ROW_CHANGES,
  MAX_IMPORT_ROWS,
  assertCanRead,
  findRevision,
  invariant,
  isAppError,
  projectTarget,
  resolveBranch,
} from '../../contracts/index.ts';
import type {
  CommandContext,
  CommandGateway,
  CommandOutcome,
  DraftChangesResult,
  DraftOperation,
  Principal,
  SystemState,
} from '../../contracts/index.ts';
import { revisionScopeOf, type RevisionScope } from '../readers/revisionScope.ts';
import { createBundleTally, refuseIfInvalid, type BundleImportAnswer } from './bundleAnswer.ts';
import { closeBundle, parseBundle, type ParsedBundle } from './bundleParse.ts';
import { absentRowsOf, bundlePlanOf, type BundlePlan } from './bundlePlan.ts';
import { limitedBody } from './importRecords.ts';
import { runStagedBundleImport } from './stagedBundleImport.ts';
import { STAGED_CHUNK_ROWS } from './stagedTableImport.ts';
import type { TableRows } from './tableRows.ts';

export type BundleImportOptions = { readonly mode: 'replace' | 'merge'; readonly dryRun: boolean };

export type BundleImportDeps = {
  readonly gateway: CommandGateway;
  readonly rows: TableRows;
  readonly maxBytes: number;
  readonly maxBytesText: string;
  /** Bundles above one command (MAX_DRAFT_ROW_CHANGES rows) are staged (default true; false keeps 409 LIMIT_EXCEEDED). */
  readonly staged?: boolean;
  /** Rows (and removals) above which a bundle is staged (default and maximum MAX_DRAFT_ROW_CHANGES; tests lower it). */
  readonly stagedAboveRows?: number;
  /** Rows per staged chunk (default STAGED_CHUNK_ROWS; tests lower it). */
  readonly chunkRows?: number;
  /** Rows one bundle may hold (default and maximum MAX_IMPORT_ROWS; tests lower it). */
  readonly maxRows?: number;
};

type ImportResult = { readonly answer: BundleImportAnswer; readonly outcome: CommandOutcome<DraftChangesResult> | null };

/**
 * A bundle within one command: one ApplyDraftChanges removing the rows the bundle lacks (`mode=replace`), then
 * creating tables or replacing schemas, upserting each table's rows, and removing the tables the bundle lacks.
 */
async function importInOne(
  deps: BundleImportDeps,
  context: CommandContext,
  scope: RevisionScope,
  bundle: ParsedBundle,
  plan: BundlePlan,
  absent: ReadonlyMap<string, string[]>,
  dryRun: boolean,
): Promise<ImportResult> {
  // Removed before the schema changes, so rows the bundle drops are not migrated first.
  const deletions = [...absent].map(([tableId, rowIds]): DraftOperation => ({ type: 'DeleteRows', tableId, rowIds }));
  const head = [...deletions, ...plan.tableOps];
  const written = bundle.tables.flatMap((table) => {
    const rows = bundle.rows.get(table.id)?.rows ?? [];
    return rows.length > 0 ? [{ tableId: table.id, rows }] : [];
  });
  const operations = (onInvalidRow: 'fail' | 'skip'): DraftOperation[] => [
    ...head,
    ...written.map(({ tableId, rows }): DraftOperation => ({
      type: 'UpsertRows',
      tableId,
      rows: rows.map(({ rowId, data }) => ({ rowId, data })),
      onInvalidRow,
    })),
    ...plan.removedTables.map((version): DraftOperation => ({ type: 'DeleteTable', tableId: version.tableId })),
  ];
  const run = (dry: boolean, onInvalidRow: 'fail' | 'skip') =>
    deps.gateway.execute('ApplyDraftChanges', { revisionId: scope.revisionId, operations: operations(onInvalidRow), dryRun: dry }, context);
  const answerOf = (result: DraftChangesResult, dry: boolean): BundleImportAnswer => {
    const tally = createBundleTally();
    result.operations.forEach((op, index) => {
      const removedAt = index - head.length - written.length;
      tally.add(op, plan.removedTables[removedAt]?.count ?? 0);
      const rows = written[index - head.length]?.rows;
      for (const row of index >= head.length ? op.invalid : []) {
        const { rowId, code, message, details } = row;
        bundle.errors.add({ line: rows?.[row.index]?.line ?? 0, rowId, code, message, ...(details ? { details } : {}) });
      }
    });
    return tally.answer(bundle, result.draftRevisionId, dry);
  };

  if (dryRun || bundle.errors.count() > 0) {
    const answer = answerOf((await run(true, 'skip')).result, true);
    refuseIfInvalid(answer);
    return { answer, outcome: null };
  }
  try {
    const outcome = await run(false, 'fail');
    return { answer: answerOf(outcome.result, false), outcome };
  } catch (err) {
    if (!isAppError(err)) throw err;
    refuseIfInvalid(answerOf((await run(true, 'skip')).result, true));
    throw err;
  }
}

/**
 * Bundle import into a branch's draft (portability.md §3): up to MAX_DRAFT_ROW_CHANGES rows and removals in one
 * ApplyDraftChanges; larger bundles (up to MAX_IMPORT_ROWS rows) staged and committed in one append
 * (stagedBundleImport.ts). Any invalid line refuses the whole bundle (400 IMPORT_INVALID listing the lines).
 */
export async function runBundleImport(
  deps: BundleImportDeps,
  context: CommandContext & { readonly principal: Principal },
  state: SystemState,
  ref: { readonly organizationId: string; readonly projectName: string; readonly branchName: string },
  body: AsyncIterable<Buffer>,
  options: BundleImportOptions,
): Promise<ImportResult> {
  const { project, branch } = resolveBranch(state, context.principal, ref);
  assertCanRead(state, context.principal, 'Table', projectTarget(project));
  const revision = findRevision(state, branch.draftRevisionId);
  invariant(revision, 'a live branch has a draft revision');
  const scope = revisionScopeOf(state, revision);
  const staged = deps.staged !== false;
  const stagedAbove = Math.min(deps.stagedAboveRows ?? MAX_DRAFT_ROW_CHANGES, MAX_DRAFT_ROW_CHANGES);
  const limits = {
    staged,
    holdRows: staged ? stagedAbove : MAX_DRAFT_ROW_CHANGES,
    maxRows: Math.min(deps.maxRows ?? MAX_IMPORT_ROWS, MAX_IMPORT_ROWS),
  };
  const bundle = await parseBundle(limitedBody(body, deps.maxBytes, deps.maxBytesText), limits);
  try {
    const plan = await bundlePlanOf(deps.rows, scope, bundle, options.mode);
    const budget = staged ? stagedAbove - bundle.rowCount : Infinity;
    const absent = budget < 0 ? null : await absentRowsOf(deps.rows, scope, bundle, plan, budget);
    if (absent !== null) return await importInOne(deps, context, scope, bundle, plan, absent, options.dryRun);
    const stagedDeps = { gateway: deps.gateway, rows: deps.rows, chunkRows: deps.chunkRows ?? STAGED_CHUNK_ROWS };
    // Lines already invalid: the chunks only list the rows' errors (the bundle is refused), so nothing is staged.
    return await runStagedBundleImport(stagedDeps, context, scope, bundle, plan, options.dryRun || bundle.errors.count() > 0);
  } finally {
    await closeBundle(bundle);
  }
}
