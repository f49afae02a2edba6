import { AppError, MAX_DRAFT_ROW_CHANGES, isAppError } from '../../contracts/index.ts';
import type { CommandContext, CommandGateway, CommandOutcome, DraftChangesResult } from '../../contracts/index.ts';
import type { DraftOperation } from '../../contracts/index.ts';
import type { TableContext } from '../readers/rowReader.ts';
import { flagParam, formatParam, type TransferFormat } from './tableExport.ts';
import { refuseIfInvalid, type ImportAnswer, type ImportOptions } from './importAnswer.ts';
import { csvRecords, jsonlRecords, limitedBody } from './importRecords.ts';
import { createRowCollector, type ImportRow } from './importRows.ts';
import { runStagedImport } from './stagedTableImport.ts';
import type { TableRows } from './tableRows.ts';

export type { ImportAnswer, ImportLineError, ImportMode, ImportOptions } from './importAnswer.ts';
export { MAX_REPORTED_LINES } from './importAnswer.ts';

const MEDIA_TYPES: Readonly<Record<string, TransferFormat>> = { 'application/x-ndjson': 'jsonl', 'text/csv': 'csv' };

function oneOf<T extends string>(params: URLSearchParams, name: string, values: readonly T[]): T {
  const value = params.get(name) ?? values[0];
  if (values.includes(value as T)) return value as T;
  const message = `must be one of ${values.join(', ')}`;
  throw new AppError('BAD_USER_INPUT', `${name} ${message}`, [{ path: `/${name}`, message }]);
}

/**
 * The import's options from the query string and Content-Type (`application/x-ndjson` or `text/csv`, else 415);
 * `format`, when given, must agree with the Content-Type.
 */
export function importOptionsOf(params: URLSearchParams, contentType: string | undefined): ImportOptions {
  const media = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const implied = MEDIA_TYPES[media];
  if (implied === undefined) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/x-ndjson or text/csv');
  const format = formatParam(params, implied);
  if (format !== implied) {
    const message = `format=${format} does not match Content-Type ${media}`;
    throw new AppError('BAD_USER_INPUT', message, [{ path: '/format', message }]);
  }
  return {
    format,
    mode: oneOf(params, 'mode', ['insert', 'upsert', 'replace'] as const),
    onError: oneOf(params, 'onError', ['fail', 'skip'] as const),
    dryRun: flagParam(params, 'dryRun'),
  };
}

export type TableImportDeps = {
  readonly gateway: CommandGateway;
  readonly rows: TableRows;
  /** IMPORT_MAX_BYTES and its configured text (for the 413 message). */
  readonly maxBytes: number;
  readonly maxBytesText: string;
  /**
   * Files above one command (MAX_DRAFT_ROW_CHANGES rows) are staged and committed in one append (default true;
   * false keeps the old 409 LIMIT_EXCEEDED).
   */
  readonly staged?: boolean;
  /** Rows above which an import is staged (default and maximum MAX_DRAFT_ROW_CHANGES; tests lower it). */
  readonly stagedAboveRows?: number;
  /** Rows per staged chunk (default STAGED_CHUNK_ROWS; tests lower it). */
  readonly chunkRows?: number;
  /** Rows one import may hold (default and maximum MAX_IMPORT_ROWS; tests lower it). */
  readonly maxRows?: number;
};

export type TableImportResult = {
  readonly answer: ImportAnswer;
  /** The append (null in a dry run). */
  readonly outcome: CommandOutcome<DraftChangesResult> | null;
};

/** The ids of the table's rows that are not in the file (`mode=replace` removes them). */
async function absentRowIds(rows: TableRows, table: TableContext, kept: { has(rowId: string): boolean }): Promise<string[]> {
  const absent: string[] = [];
  for await (const page of rows.pages(table)) for (const row of page) if (!kept.has(row.id)) absent.push(row.id);
  return absent;
}

/**
 * Table import (portability.md §2): the body is read line by line and validated, then written by one
 * ApplyDraftChanges (one atomic append: an aborted body, a refusal or a crash before the append leaves nothing).
 * `onError=fail` first tries the append refusing any invalid row; only when it is refused (or lines were already
 * invalid) is a dry run with `skip` made to list every invalid line for the 400 IMPORT_INVALID.
 */
export async function runTableImport(
  deps: TableImportDeps,
  context: CommandContext,
  table: TableContext,
  body: AsyncIterable<Buffer>,
  options: ImportOptions,
): Promise<TableImportResult> {
  const limited = limitedBody(body, deps.maxBytes, deps.maxBytesText);
  const records = options.format === 'csv' ? csvRecords(limited, table.compiled.model) : jsonlRecords(limited);
  const collector = createRowCollector();
  const rest = records[Symbol.asyncIterator]();
  const rows: ImportRow[] = [];
  const staged = deps.staged !== false;
  const stagedAbove = Math.min(deps.stagedAboveRows ?? MAX_DRAFT_ROW_CHANGES, MAX_DRAFT_ROW_CHANGES);
  for (let next = await rest.next(); next.done !== true; next = await rest.next()) {
    const row = collector.add(next.value);
    if (row === null) continue;
    rows.push(row);
    if (rows.length <= (staged ? stagedAbove : MAX_DRAFT_ROW_CHANGES)) continue;
    // Larger than one command: staged (versioned-storage.md §6), else refused as soon as the row is read.
    if (staged) return runStagedImport(deps, context, table, options, { collector, rows, rest });
    await rest.return?.(undefined);
    throw new AppError('LIMIT_EXCEEDED', `An import can write at most ${MAX_DRAFT_ROW_CHANGES} rows in one atomic append; split the file`);
  }
  const tableId = table.version.tableId;
  const removed = options.mode === 'replace' ? await absentRowIds(deps.rows, table, collector) : [];
  if (staged && rows.length + removed.length > stagedAbove) {
    return runStagedImport(deps, context, table, options, { collector, rows, rest });
  }
  const written = rows.map(({ rowId, data }) => ({ rowId, data }));

  const run = (dryRun: boolean, onInvalidRow: 'fail' | 'skip') => {
    const type = options.mode === 'insert' ? 'CreateRows' : 'UpsertRows';
    // Removals first: a unique value of a removed row is free for the file's rows (the table becomes the file).
    const operations: DraftOperation[] = removed.length > 0 ? [{ type: 'DeleteRows', tableId, rowIds: removed }] : [];
    operations.push({ type, tableId, rows: written, onInvalidRow });
    return deps.gateway.execute('ApplyDraftChanges', { revisionId: table.scope.revisionId, operations, dryRun }, context);
  };
  const answerOf = (result: DraftChangesResult, dryRun: boolean): ImportAnswer => {
    const write = result.operations[removed.length > 0 ? 1 : 0];
    const rowErrors = (write?.invalid ?? []).map((row) => ({
      line: rows[row.index]?.line ?? 0,
      rowId: row.rowId,
      code: row.code,
      message: row.message,
      ...(row.details !== undefined ? { details: row.details } : {}),
    }));
    return {
      processed: collector.processed(),
      created: write?.created ?? 0,
      updated: write?.updated ?? 0,
      unchanged: write?.unchanged ?? 0,
      removed: removed.length > 0 ? (result.operations[0]?.deleted ?? 0) : 0,
      invalid: collector.errors.count() + rowErrors.length,
      errors: collector.errors.first(rowErrors),
      dryRun,
    };
  };

  if (options.onError === 'skip' || options.dryRun) {
    const outcome = await run(options.dryRun, 'skip');
    const answer = answerOf(outcome.result, options.dryRun);
    if (options.onError === 'fail') refuseIfInvalid(answer);
    return { answer, outcome: options.dryRun ? null : outcome };
  }
  if (collector.errors.count() > 0) {
    refuseIfInvalid(answerOf((await run(true, 'skip')).result, true));
  }
  try {
    const outcome = await run(false, 'fail');
    return { answer: answerOf(outcome.result, false), outcome };
  } catch (err) {
    if (!isAppError(err)) throw err;
    // Refused: when rows are invalid, list them (first 100) instead of the command's first error.
    refuseIfInvalid(answerOf((await run(true, 'skip')).result, true));
    throw err;
  }
}
