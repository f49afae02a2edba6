import { randomUUID } from 'node:crypto';
import { AppError } from '../../contracts/index.ts';
import type { ApplyDraftChangesInput, CommandContext, CommandGateway, DraftOperation, ErrorDetail, StagedTotals } from '../../contracts/index.ts';
import type { TableContext } from '../readers/rowReader.ts';
import type { ImportOptions } from './importAnswer.ts';
import type { ImportRow, RowCollector } from './importRows.ts';
import type { ImportSpool } from './importSpool.ts';
import type { TableRows } from './tableRows.ts';

/**
 * One pass of a staged import over the file (stagedTableImport.ts): its staging id, the totals after its last
 * staged chunk, the stream revision every chunk was decided at, and its counts. A second pass (unique fields,
 * `onError=skip`, clashes found) stages the rows again under a new id, leaving out the clashing rows of the first.
 */
export type StagedPass = {
  readonly stagingId: string;
  readonly dryRun: boolean;
  /** Tables with unique fields: chunks carry their first row's index and record their values. */
  readonly unique: boolean;
  readonly clashesFrom?: string;
  /** Row errors are listed by the first pass only (the second decides the same rows again). */
  readonly listsErrors: boolean;
  before: StagedTotals | null;
  decidedAt: number | null | undefined;
  chunk: ImportRow[];
  sent: number;
  readonly counts: { created: number; updated: number; unchanged: number; removed: number };
};

export function newPass(revisionId: string, options: ImportOptions, unique: boolean, clashesFrom?: string): StagedPass {
  return {
    stagingId: `${revisionId}:${randomUUID()}`,
    dryRun: options.dryRun,
    unique,
    ...(clashesFrom !== undefined ? { clashesFrom } : {}),
    listsErrors: clashesFrom === undefined,
    before: null,
    decidedAt: undefined,
    chunk: [],
    sent: 0,
    counts: { created: 0, updated: 0, unchanged: 0, removed: 0 },
  };
}

/** A row error's detail naming the row by its index in the chunk, renumbered as in the whole file's rows. */
function shiftIndex(detail: ErrorDetail, offset: number): ErrorDetail {
  const index = (detail as { index?: unknown }).index;
  return offset === 0 || typeof index !== 'number' ? detail : { ...detail, index: index + offset };
}

type ChunkSettings = {
  readonly revisionId: string;
  readonly tableId: string;
  readonly writeType: 'CreateRows' | 'UpsertRows';
  readonly chunkRows: number;
  readonly collector: RowCollector;
  /** Whether chunks are staged (not a dry run, or unique fields to record). */
  readonly staging: boolean;
};

/** Sends a pass's rows in chunks, then its deletions, and checks unique values across the file. */
export function createChunkSender(gateway: CommandGateway, context: CommandContext, settings: ChunkSettings) {
  const { revisionId, tableId, writeType, chunkRows, collector } = settings;

  /**
   * Sends one chunk; `lines` are its rows' file lines and `offset` how many rows of the file were sent before it
   * (row errors name a row by its index in the operation: in the file's row list, as one command would).
   */
  async function send(pass: StagedPass, operation: DraftOperation, lines: readonly number[], offset = 0): Promise<void> {
    const stage = {
      stagingId: pass.stagingId,
      action: 'stage' as const,
      before: pass.before,
      ...(pass.unique ? { firstIndex: offset } : {}),
      ...(pass.dryRun ? { dryRun: true } : {}),
      ...(pass.clashesFrom !== undefined ? { clashesFrom: pass.clashesFrom } : {}),
    };
    const input: ApplyDraftChangesInput = settings.staging
      ? { revisionId, operations: [operation], stage }
      : { revisionId, operations: [operation], dryRun: true };
    const { result } = await gateway.execute('ApplyDraftChanges', input, context);
    if (pass.decidedAt === undefined) pass.decidedAt = result.streamRevision;
    else if (result.streamRevision !== pass.decidedAt) {
      throw new AppError('CONCURRENT_MODIFICATION', 'The draft was modified during the import; nothing was imported, retry the request');
    }
    pass.before = result.staged ?? null;
    const done = result.operations[0];
    if (done === undefined) return;
    pass.counts.created += done.created;
    pass.counts.updated += done.updated;
    pass.counts.unchanged += done.unchanged;
    pass.counts.removed += done.deleted;
    if (!pass.listsErrors) return;
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

  async function flush(pass: StagedPass, spool: ImportSpool | null): Promise<void> {
    if (pass.chunk.length === 0) return;
    const rows = pass.chunk;
    pass.chunk = [];
    const offset = pass.sent;
    pass.sent += rows.length;
    await spool?.write(rows);
    await send(
      pass,
      { type: writeType, tableId, rows: rows.map(({ rowId, data }) => ({ rowId, data })), onInvalidRow: 'skip' },
      rows.map((row) => row.line),
      offset,
    );
  }

  return {
    async add(pass: StagedPass, row: ImportRow, spool: ImportSpool | null): Promise<void> {
      pass.chunk.push(row);
      if (pass.chunk.length >= chunkRows) await flush(pass, spool);
    },

    /** Sends the last chunk, then (`mode=replace`) deletes the table's rows missing from the file the same way. */
    async finish(pass: StagedPass, spool: ImportSpool | null, rows: TableRows, table: TableContext, replace: boolean): Promise<void> {
      await flush(pass, spool);
      if (!replace) return;
      let absent: string[] = [];
      for await (const page of rows.pages(table)) {
        for (const row of page) if (!collector.has(row.id)) absent.push(row.id);
        if (absent.length >= chunkRows) {
          await send(pass, { type: 'DeleteRows', tableId, rowIds: absent }, []);
          absent = [];
        }
      }
      if (absent.length > 0) await send(pass, { type: 'DeleteRows', tableId, rowIds: absent }, []);
    },

    /**
     * Unique values across the whole file (the staging's recorded values): the clashing rows become line errors (the
     * first by line listed, all counted) and leave the pass's counts. Answers how many rows clash.
     */
    async checkUnique(pass: StagedPass): Promise<number> {
      const { result } = await gateway.execute(
        'ApplyDraftChanges',
        { revisionId, operations: [{ type: writeType, tableId, rows: [] }], stage: { stagingId: pass.stagingId, action: 'checkUnique' } },
        context,
      );
      const clashes = result.uniqueClashes ?? { rows: 0, created: 0, updated: 0 };
      const listed = result.operations[0]?.invalid ?? [];
      for (const row of listed) {
        const { rowId, code, message, details } = row;
        collector.errors.add({ line: collector.lineOf(rowId), rowId, code, message, ...(details !== undefined ? { details } : {}) });
      }
      collector.errors.addUnlisted(clashes.rows - listed.length);
      pass.counts.created -= clashes.created;
      pass.counts.updated -= clashes.updated;
      return clashes.rows;
    },
  };
}
