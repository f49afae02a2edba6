import { randomUUID } from 'node:crypto';
import { AppError } from '../../contracts/index.ts';
import type {
  CommandContext,
  CommandGateway,
  CommandOutcome,
  DeferredReference,
  DraftChangesResult,
  DraftOperation,
  DraftOperationResult,
  DraftStaging,
  ErrorDetail,
  StagedTotals,
} from '../../contracts/index.ts';
import type { RevisionScope } from '../readers/revisionScope.ts';
import { rowReadonlyOf } from '../readers/rowReader.ts';
import { createBundleTally, refuseIfInvalid, type BundleImportAnswer } from './bundleAnswer.ts';
import { bundleRowsOf, type ParsedBundle } from './bundleParse.ts';
import type { BundlePlan } from './bundlePlan.ts';
import type { ImportRow } from './importRows.ts';
import type { TableRows } from './tableRows.ts';

export type StagedBundleDeps = { readonly gateway: CommandGateway; readonly rows: TableRows; readonly chunkRows: number };

/** Deferred references whose targets the bundle lacks, one FOREIGN_KEY_NOT_FOUND line error per row. */
function missingReferences(
  bundle: ParsedBundle,
  tableId: string,
  chunk: readonly ImportRow[],
  refs: readonly DeferredReference[],
  invalid: Set<number>,
) {
  const byRow = new Map<number, ErrorDetail[]>();
  for (const ref of refs) {
    if (invalid.has(ref.index)) continue;
    const ids = bundle.rows.get(ref.tableId)?.ids;
    const missing = ref.rowIds.filter((rowId) => ids?.has(rowId) !== true);
    if (missing.length === 0) continue;
    const details = byRow.get(ref.index) ?? [];
    details.push({ path: ref.path, tableId: ref.tableId, missingRowIds: missing, rowId: ref.rowId });
    byRow.set(ref.index, details);
  }
  for (const [index, details] of byRow) {
    const row = chunk[index];
    const [first] = details as { path: string; tableId: string; missingRowIds: string[] }[];
    if (row === undefined || first === undefined) continue;
    const ids = first.missingRowIds.map((id) => `"${id}"`).join(', ');
    const message =
      details.length === 1
        ? `Foreign key error at "${first.path}" in table "${tableId}" for row "${row.rowId}": ${ids} not found in table "${first.tableId}"`
        : `Foreign key check failed with ${details.length} errors in table "${tableId}"`;
    bundle.errors.add({ line: row.line, rowId: row.rowId, code: 'FOREIGN_KEY_NOT_FOUND', message, details });
  }
}

/**
 * A bundle larger than one ApplyDraftChanges (portability.md §3 with the limits of §2; docs/reference/
 * versioned-storage.md §6): staged under one staging id like a table import, then committed in one append. First
 * the bundle's table operations (created tables, replaced schemas) are staged; then each table's rows in chunks,
 * every chunk deciding the table operations again (without staging them twice) so its rows see the bundle's
 * tables; foreign keys naming rows the draft lacks (or rows of a table the bundle replaces) come back deferred and
 * are checked against the bundle's own rows; with `mode=replace`, the rows and then the tables the bundle lacks are
 * removed the same way; unique values are checked per table across its chunks (one unique scope per table). Any
 * invalid line refuses the whole bundle and discards the staging; a dry run decides the same chunks and stages
 * nothing. Every chunk must be decided at one stream revision (a write meanwhile: CONCURRENT_MODIFICATION).
 */
export async function runStagedBundleImport(
  deps: StagedBundleDeps,
  context: CommandContext,
  scope: RevisionScope,
  bundle: ParsedBundle,
  plan: BundlePlan,
  dryRun: boolean,
): Promise<{ readonly answer: BundleImportAnswer; readonly outcome: CommandOutcome<DraftChangesResult> | null }> {
  const revisionId = scope.revisionId;
  const stagingId = `${revisionId}:${randomUUID()}`;
  const prefix = plan.tableOps;
  const tally = createBundleTally();
  const uniqueScopes = new Map<string, string>();
  let before: StagedTotals | null = null;
  let decidedAt: number | null | undefined;
  // What the commit appends, for its authorization (and the discards'): the rows' writes and the removals.
  const writes: DraftOperation[] = bundle.tables
    .filter((table) => (bundle.rows.get(table.id)?.count ?? 0) > 0)
    .map((table): DraftOperation => ({ type: 'UpsertRows', tableId: table.id, rows: [] }));
  const commitOperations = (): DraftOperation[] => [...prefix, ...writes];

  async function send(operations: DraftOperation[], prefixCount: number, extra: Partial<DraftStaging> = {}): Promise<DraftOperationResult[]> {
    const bundleStage = { prefix: prefixCount, replacedTables: plan.replacedTables };
    const stage: DraftStaging = { stagingId, action: 'stage', before, bundle: bundleStage, ...(dryRun ? { dryRun: true } : {}), ...extra };
    const { result } = await deps.gateway.execute('ApplyDraftChanges', { revisionId, operations, stage }, context);
    if (decidedAt === undefined) decidedAt = result.streamRevision;
    else if (result.streamRevision !== decidedAt) {
      throw new AppError('CONCURRENT_MODIFICATION', 'The draft was modified during the import; nothing was imported, retry the request');
    }
    before = result.staged ?? null;
    return result.operations.slice(prefixCount);
  }

  const uniqueOf = (tableId: string, firstIndex: number): Partial<DraftStaging> => {
    const uniqueScope = uniqueScopes.get(tableId);
    return uniqueScope === undefined ? {} : { firstIndex, uniqueScope };
  };

  async function sendRows(tableId: string, chunk: readonly ImportRow[], firstIndex: number): Promise<void> {
    const rows = chunk.map(({ rowId, data }) => ({ rowId, data }));
    const [done] = await send([...prefix, { type: 'UpsertRows', tableId, rows, onInvalidRow: 'skip' }], prefix.length, uniqueOf(tableId, firstIndex));
    if (done === undefined) return;
    tally.add(done);
    for (const row of done.invalid) {
      const { rowId, code, message, details } = row;
      bundle.errors.add({ line: chunk[row.index]?.line ?? 0, rowId, code, message, ...(details !== undefined ? { details } : {}) });
    }
    const invalid = new Set(done.invalid.map((row) => row.index));
    missingReferences(bundle, tableId, chunk, done.deferredReferences ?? [], invalid);
  }

  async function removeAbsentRows(tableId: string): Promise<void> {
    const version = plan.current.get(tableId);
    const ids = bundle.rows.get(tableId)?.ids;
    if (version === undefined || ids === undefined) return;
    const table = { scope, version, compiled: deps.rows.models(version.schema), readonly: await rowReadonlyOf(deps.rows.schemas, scope, version) };
    let absent: string[] = [];
    const flush = async (): Promise<void> => {
      if (absent.length === 0) return;
      const [done] = await send([...prefix, { type: 'DeleteRows', tableId, rowIds: absent }], prefix.length, uniqueOf(tableId, 0));
      if (done !== undefined) tally.add(done);
      if (!writes.some((op) => op.type === 'DeleteRows' && op.tableId === tableId)) writes.push({ type: 'DeleteRows', tableId, rowIds: [] });
      absent = [];
    };
    for await (const page of deps.rows.pages(table)) {
      for (const row of page) if (!ids.has(row.id)) absent.push(row.id);
      if (absent.length >= deps.chunkRows) await flush();
    }
    await flush();
  }

  async function checkUnique(tableId: string, uniqueScope: string): Promise<void> {
    const operations: DraftOperation[] = [{ type: 'UpsertRows', tableId, rows: [] }];
    const { result } = await deps.gateway.execute(
      'ApplyDraftChanges',
      { revisionId, operations, stage: { stagingId: uniqueScope, action: 'checkUnique' } },
      context,
    );
    const listed = result.operations[0]?.invalid ?? [];
    const ids = bundle.rows.get(tableId)?.ids;
    for (const { rowId, code, message, details } of listed) {
      bundle.errors.add({ line: ids?.get(rowId) ?? 0, rowId, code, message, ...(details !== undefined ? { details } : {}) });
    }
    bundle.errors.addUnlisted((result.uniqueClashes?.rows ?? 0) - listed.length);
  }

  async function discardAll(): Promise<void> {
    // Best effort: what stays behind is deleted by the event store's cleanup of abandoned stagings.
    const operations = commitOperations();
    for (const id of [stagingId, ...uniqueScopes.values()]) {
      await deps.gateway
        .execute('ApplyDraftChanges', { revisionId, operations, stage: { stagingId: id, action: 'discard' } }, context)
        .catch(() => undefined);
    }
  }

  try {
    if (prefix.length > 0) for (const done of await send(prefix, 0)) tally.add(done);
    for (const table of bundle.tables) {
      const tableRows = bundle.rows.get(table.id);
      if (tableRows === undefined || tableRows.count === 0) continue;
      if (deps.rows.models(table.schema).model.indexedFields.some((field) => field.unique)) {
        uniqueScopes.set(table.id, `${revisionId}:${randomUUID()}`);
      }
      let chunk: ImportRow[] = [];
      let sent = 0;
      for await (const row of bundleRowsOf(tableRows)) {
        chunk.push(row);
        if (chunk.length < deps.chunkRows) continue;
        await sendRows(table.id, chunk, sent);
        sent += chunk.length;
        chunk = [];
      }
      if (chunk.length > 0) await sendRows(table.id, chunk, sent);
    }
    for (const tableId of plan.replacedTables) await removeAbsentRows(tableId);
    if (plan.removedTables.length > 0) {
      const removals = plan.removedTables.map((version): DraftOperation => ({ type: 'DeleteTable', tableId: version.tableId }));
      const done = await send([...prefix, ...removals], prefix.length);
      done.forEach((op, i) => tally.add(op, plan.removedTables[i]?.count ?? 0));
      writes.push(...removals);
    }
    for (const [tableId, uniqueScope] of uniqueScopes) await checkUnique(tableId, uniqueScope);
    const answer = tally.answer(bundle, revisionId, dryRun);
    refuseIfInvalid(answer);
    const staged = before as StagedTotals | null;
    if (dryRun || staged === null || staged.events === 0) {
      await discardAll();
      return { answer, outcome: null };
    }
    // The commit is authorized like the writes it appends (the operations name them; their rows are not used).
    const outcome = await deps.gateway.execute(
      'ApplyDraftChanges',
      {
        revisionId,
        operations: commitOperations(),
        expectedStreamRevision: decidedAt ?? 'no_stream',
        stage: { stagingId, action: 'commit', before: staged },
      },
      context,
    );
    for (const id of uniqueScopes.values()) {
      await deps.gateway
        .execute('ApplyDraftChanges', { revisionId, operations: writes, stage: { stagingId: id, action: 'discard' } }, context)
        .catch(() => undefined);
    }
    return { answer, outcome };
  } catch (err) {
    await discardAll();
    throw err;
  }
}
