import { AppError, MAX_IMPORT_ROWS } from '../../contracts/index.ts';
import type { CommandContext, CommandGateway, CommandOutcome, DraftChangesResult, DraftOperation } from '../../contracts/index.ts';
import type { TableContext } from '../readers/rowReader.ts';
import { refuseIfInvalid, type ImportAnswer, type ImportOptions } from './importAnswer.ts';
import type { ImportRecord } from './importRecords.ts';
import type { ImportRow, RowCollector } from './importRows.ts';
import { createImportSpool } from './importSpool.ts';
import { createChunkSender, newPass, type StagedPass } from './stagedChunks.ts';
import type { TableRows } from './tableRows.ts';

/** Rows per staged chunk: one decision and one staged RowsCreated/RowsUpdated pair of at most this many rows. */
export const STAGED_CHUNK_ROWS = 5_000;

export type StagedImportDeps = {
  readonly gateway: CommandGateway;
  readonly rows: TableRows;
  readonly chunkRows?: number;
  /** Rows one import may hold (default and maximum MAX_IMPORT_ROWS; tests lower it). */
  readonly maxRows?: number;
};

/** What the one-command path read before the file turned out to be larger than one command. */
export type StagedImportStart = {
  readonly collector: RowCollector;
  /** Rows read so far, in file order (at most MAX_DRAFT_ROW_CHANGES + 1); taken out as they are sent. */
  readonly rows: ImportRow[];
  /** The rest of the file. */
  readonly rest: AsyncIterator<ImportRecord>;
};

/**
 * A table import larger than one ApplyDraftChanges (versioned-storage.md §6): the rows are sent in chunks of
 * STAGED_CHUNK_ROWS, each decided like a skipping dry run against the draft as it was when the import started and
 * its events staged in the event store (nothing visible), then, with `mode=replace`, the table's rows missing from
 * the file are deleted the same way, and one commit copies every staged event into the branch stream in one
 * transaction. Memory holds one chunk and the file's ids. Any failure, a refusal, a client disconnect, or a write
 * to the branch meanwhile (the chunks must all be decided at one stream revision: CONCURRENT_MODIFICATION) discards
 * the staging; a crash leaves it to the event store's cleanup. A dry run decides the same chunks and stages nothing.
 * Tables with unique fields: the chunks record their values in the staging store, one check then finds the clashes
 * across the whole file as one command would (stagedUnique.ts on the command side); an `onError=skip` import with
 * clashes stages its rows a second time without them, read back from a temporary file (importSpool.ts).
 */
export async function runStagedImport(
  deps: StagedImportDeps,
  context: CommandContext,
  table: TableContext,
  options: ImportOptions,
  start: StagedImportStart,
): Promise<{ answer: ImportAnswer; outcome: CommandOutcome<DraftChangesResult> | null }> {
  const { collector } = start;
  const revisionId = table.scope.revisionId;
  const tableId = table.version.tableId;
  const unique = table.compiled.model.indexedFields.some((field) => field.unique);
  const chunkRows = deps.chunkRows ?? STAGED_CHUNK_ROWS;
  const maxRows = Math.min(deps.maxRows ?? MAX_IMPORT_ROWS, MAX_IMPORT_ROWS);
  const writeType = options.mode === 'insert' ? 'CreateRows' : 'UpsertRows';
  // A dry run stages no event; with unique fields it still records their values under a staging id.
  const staging = !options.dryRun || unique;
  const pass: StagedPass = newPass(revisionId, options, unique);
  const passes: StagedPass[] = [pass];
  // A second pass may be needed only when skipping clashing rows of an import that writes.
  const spool = unique && options.onError === 'skip' && !options.dryRun ? await createImportSpool() : null;
  const answer = (counts: StagedPass['counts']): ImportAnswer => ({
    processed: collector.processed(),
    created: counts.created,
    updated: counts.updated,
    unchanged: counts.unchanged,
    removed: counts.removed,
    invalid: collector.errors.count(),
    errors: collector.errors.first(),
    dryRun: options.dryRun,
  });
  let rowsRead = 0;
  const sender = createChunkSender(deps.gateway, context, { revisionId, tableId, writeType, chunkRows, collector, staging });

  try {
    // Taken out chunk by chunk, so the rows read before the switch are not held to the end.
    // Past the rows one import may hold: refused like an invalid file (operations.md §7), at the first row too many.
    const count = (row: ImportRow): void => {
      rowsRead += 1;
      if (rowsRead <= maxRows) return;
      const message = `IMPORT_INVALID: an import holds at most ${maxRows} rows; split the file`;
      throw new AppError('IMPORT_INVALID', `Line ${row.line} is past ${maxRows} rows; nothing was imported`, [
        { path: `/line/${row.line}`, message },
      ]);
    };
    while (start.rows.length > 0) {
      for (const row of start.rows.splice(0, chunkRows)) {
        count(row);
        await sender.add(pass, row, spool);
      }
    }
    for (let next = await start.rest.next(); next.done !== true; next = await start.rest.next()) {
      const row = collector.add(next.value);
      if (row === null) continue;
      count(row);
      await sender.add(pass, row, spool);
    }
    await sender.finish(pass, spool, deps.rows, table, options.mode === 'replace');
    if (unique) {
      const clashes = await sender.checkUnique(pass);
      if (clashes > 0 && spool !== null) {
        // The clashing rows are in the staged events: stage everything again without them (their lines are listed).
        const second = newPass(revisionId, options, unique, pass.stagingId);
        second.decidedAt = pass.decidedAt;
        passes.push(second);
        for await (const row of spool.rows()) await sender.add(second, row, null);
        await sender.finish(second, null, deps.rows, table, options.mode === 'replace');
      }
    }
    const last = passes[passes.length - 1] ?? pass;
    // After the deletions, as one command decides them: a removed row still referenced (FOREIGN_KEY_IN_USE) refuses
    // the import before its invalid lines are listed.
    if (options.onError === 'fail') refuseIfInvalid(answer(last.counts));
    const staged = last.before;
    if (options.dryRun || staged === null || staged.events === 0) {
      if (staging) await discardAll();
      return { answer: answer(last.counts), outcome: null };
    }
    // The commit is authorized like the writes it appends (the operations name them; their rows are not used).
    const operations: DraftOperation[] = [{ type: writeType, tableId, rows: [] }];
    if (last.counts.removed > 0) operations.push({ type: 'DeleteRows', tableId, rowIds: [] });
    const outcome = await deps.gateway.execute(
      'ApplyDraftChanges',
      {
        revisionId,
        operations,
        expectedStreamRevision: last.decidedAt ?? 'no_stream',
        stage: { stagingId: last.stagingId, action: 'commit', before: staged },
      },
      context,
    );
    if (passes.length > 1) await discardAll();
    return { answer: answer(last.counts), outcome };
  } catch (err) {
    if (staging) await discardAll();
    throw err;
  } finally {
    await spool?.close();
  }

  async function discardAll(): Promise<void> {
    // Best effort: what stays behind is deleted by the event store's cleanup of abandoned stagings.
    for (const { stagingId } of passes) {
      await deps.gateway
        .execute(
          'ApplyDraftChanges',
          { revisionId, operations: [{ type: writeType, tableId, rows: [] }], stage: { stagingId, action: 'discard' } },
          context,
        )
        .catch(() => undefined);
    }
  }
}
