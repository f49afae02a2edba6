import { randomUUID } from 'node:crypto';
import { AppError, MAX_IMPORT_ROWS } from '../../contracts/index.ts';
import type {
  ApplyDraftChangesInput,
  CommandContext,
  CommandGateway,
  CommandOutcome,
  DraftChangesResult,
  DraftOperation,
  ErrorDetail,
  StagedTotals,
} from '../../contracts/index.ts';
import type { TableContext } from '../readers/rowReader.ts';
import { refuseIfInvalid, type ImportAnswer, type ImportOptions } from './importAnswer.ts';
import type { ImportRecord } from './importRecords.ts';
import type { ImportRow, RowCollector } from './importRows.ts';
import type { TableRows } from './tableRows.ts';

/** Rows per staged chunk: one decision and one staged RowsCreated/RowsUpdated pair of at most this many rows. */
export const STAGED_CHUNK_ROWS = 5_000;

/** A row error's detail naming the row by its index in the chunk, renumbered as in the whole file's rows. */
function shiftIndex(detail: ErrorDetail, offset: number): ErrorDetail {
  const index = (detail as { index?: unknown }).index;
  return offset === 0 || typeof index !== 'number' ? detail : { ...detail, index: index + offset };
}

/** Whether an import into this table may go above one command: not with unique fields (checked across the whole file). */
export function canStageImport(table: TableContext): boolean {
  return !table.compiled.model.indexedFields.some((field) => field.unique);
}

export type StagedImportDeps = { readonly gateway: CommandGateway; readonly rows: TableRows; readonly chunkRows?: number };

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
  const stagingId = `${revisionId}:${randomUUID()}`;
  const staging = !options.dryRun;
  const chunkRows = deps.chunkRows ?? STAGED_CHUNK_ROWS;
  const counts = { created: 0, updated: 0, unchanged: 0, removed: 0, rows: 0 };
  // The totals after the last staged chunk, and the stream revision every chunk was decided at.
  const progress: { before: StagedTotals | null; decidedAt: number | null | undefined } = { before: null, decidedAt: undefined };

  /**
   * Sends one chunk; `lines` are its rows' file lines and `offset` how many rows of the file were sent before it
   * (row errors name a row by its index in the operation: in the file's row list, as one command would).
   */
  async function send(operation: DraftOperation, lines: readonly number[], offset = 0): Promise<void> {
    const input: ApplyDraftChangesInput = staging
      ? { revisionId, operations: [operation], stage: { stagingId, action: 'stage', before: progress.before } }
      : { revisionId, operations: [operation], dryRun: true };
    const { result } = await deps.gateway.execute('ApplyDraftChanges', input, context);
    if (progress.decidedAt === undefined) progress.decidedAt = result.streamRevision;
    else if (result.streamRevision !== progress.decidedAt) {
      throw new AppError('CONCURRENT_MODIFICATION', 'The draft was modified during the import; nothing was imported, retry the request');
    }
    progress.before = result.staged ?? null;
    const done = result.operations[0];
    if (done === undefined) return;
    counts.created += done.created;
    counts.updated += done.updated;
    counts.unchanged += done.unchanged;
    counts.removed += done.deleted;
    for (const row of done.invalid) {
      collector.errors.add({
        line: lines[row.index] ?? 0,
        rowId: row.rowId,
        code: row.code,
        message: row.message,
        ...(row.details !== undefined ? { details: row.details.map((detail) => shiftIndex(detail, offset)) } : {}),
      });
    }
  }

  const writeType = options.mode === 'insert' ? 'CreateRows' : 'UpsertRows';
  let chunk: ImportRow[] = [];
  let sent = 0;
  async function flush(): Promise<void> {
    if (chunk.length === 0) return;
    const rows = chunk;
    chunk = [];
    const offset = sent;
    sent += rows.length;
    await send(
      { type: writeType, tableId, rows: rows.map(({ rowId, data }) => ({ rowId, data })), onInvalidRow: 'skip' },
      rows.map((row) => row.line),
      offset,
    );
  }
  async function add(row: ImportRow): Promise<void> {
    counts.rows += 1;
    if (counts.rows > MAX_IMPORT_ROWS) throw new AppError('LIMIT_EXCEEDED', `An import can write at most ${MAX_IMPORT_ROWS} rows; split the file`);
    chunk.push(row);
    if (chunk.length >= chunkRows) await flush();
  }

  try {
    // Taken out chunk by chunk, so the rows read before the switch are not held to the end.
    while (start.rows.length > 0) for (const row of start.rows.splice(0, chunkRows)) await add(row);
    for (let next = await start.rest.next(); next.done !== true; next = await start.rest.next()) {
      const row = collector.add(next.value);
      if (row !== null) await add(row);
    }
    await flush();
    const answer = (): ImportAnswer => ({
      processed: collector.processed(),
      created: counts.created,
      updated: counts.updated,
      unchanged: counts.unchanged,
      removed: counts.removed,
      invalid: collector.errors.count(),
      errors: collector.errors.first(),
      dryRun: options.dryRun,
    });
    if (options.mode === 'replace') {
      let absent: string[] = [];
      for await (const page of deps.rows.pages(table)) {
        for (const row of page) if (!collector.has(row.id)) absent.push(row.id);
        if (absent.length >= chunkRows) {
          await send({ type: 'DeleteRows', tableId, rowIds: absent }, []);
          absent = [];
        }
      }
      if (absent.length > 0) await send({ type: 'DeleteRows', tableId, rowIds: absent }, []);
    }
    // After the deletions, as one command decides them: a removed row still referenced (FOREIGN_KEY_IN_USE) refuses
    // the import before its invalid lines are listed.
    if (options.onError === 'fail') refuseIfInvalid(answer());
    const staged = progress.before;
    if (!staging || staged === null || staged.events === 0) {
      if (staging) await discard();
      return { answer: answer(), outcome: null };
    }
    // The commit is authorized like the writes it appends (the operations name them; their rows are not used).
    const operations: DraftOperation[] = [{ type: writeType, tableId, rows: [] }];
    if (counts.removed > 0) operations.push({ type: 'DeleteRows', tableId, rowIds: [] });
    const outcome = await deps.gateway.execute(
      'ApplyDraftChanges',
      { revisionId, operations, expectedStreamRevision: progress.decidedAt ?? 'no_stream', stage: { stagingId, action: 'commit', before: staged } },
      context,
    );
    return { answer: answer(), outcome };
  } catch (err) {
    if (staging) await discard();
    throw err;
  }

  async function discard(): Promise<void> {
    // Best effort: what stays behind is deleted by the event store's cleanup of abandoned stagings.
    await deps.gateway
      .execute(
        'ApplyDraftChanges',
        { revisionId, operations: [{ type: writeType, tableId, rows: [] }], stage: { stagingId, action: 'discard' } },
        context,
      )
      .catch(() => undefined);
  }
}
