import { AppError, MAX_DRAFT_ROW_CHANGES, isAppError } from '../../contracts/index.ts';
import type {
  CommandContext,
  CommandGateway,
  CommandOutcome,
  DraftChangesResult,
  ErrorCode,
  ErrorDetail,
  JsonObject,
} from '../../contracts/index.ts';
import type { DraftOperation } from '../../contracts/index.ts';
import type { TableContext } from '../readers/rowReader.ts';
import { flagParam, formatParam, type TransferFormat } from './tableExport.ts';
import { csvRecords, jsonlRecords, limitedBody, type ImportRecord } from './importRecords.ts';
import type { TableRows } from './tableRows.ts';

export type ImportMode = 'insert' | 'upsert' | 'replace';

export type ImportOptions = {
  readonly format: TransferFormat;
  readonly mode: ImportMode;
  readonly onError: 'fail' | 'skip';
  readonly dryRun: boolean;
};

/** One invalid line of the answer (portability.md §2). */
export type ImportLineError = {
  readonly line: number;
  readonly rowId: string | null;
  readonly code: ErrorCode;
  readonly message: string;
  readonly details?: readonly ErrorDetail[];
};

export type ImportAnswer = {
  readonly processed: number;
  readonly created: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly removed: number;
  readonly invalid: number;
  readonly errors: readonly ImportLineError[];
  readonly dryRun: boolean;
};

/** Invalid lines an answer or an IMPORT_INVALID error lists. */
export const MAX_REPORTED_LINES = 100;

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

type CollectedRows = {
  readonly rows: { readonly rowId: string; readonly data: JsonObject }[];
  /** The file line of each row in `rows`. */
  readonly lines: number[];
  readonly lineErrors: ImportLineError[];
  processed: number;
};

/** Reads every line; rows are held until the one append (at most MAX_DRAFT_ROW_CHANGES of them). */
export async function collectRows(records: AsyncIterable<ImportRecord>): Promise<CollectedRows> {
  const collected: CollectedRows = { rows: [], lines: [], lineErrors: [], processed: 0 };
  const firstLineOf = new Map<string, number>();
  for await (const record of records) {
    collected.processed += 1;
    if (record.error !== undefined) {
      collected.lineErrors.push({ line: record.line, rowId: record.id, ...record.error });
      continue;
    }
    const earlier = firstLineOf.get(record.id);
    if (earlier !== undefined) {
      collected.lineErrors.push({
        line: record.line,
        rowId: record.id,
        code: 'BAD_USER_INPUT',
        message: `row "${record.id}" already appears on line ${earlier}`,
      });
      continue;
    }
    if (collected.rows.length >= MAX_DRAFT_ROW_CHANGES) {
      throw new AppError('LIMIT_EXCEEDED', `An import can write at most ${MAX_DRAFT_ROW_CHANGES} rows in one atomic append; split the file`);
    }
    firstLineOf.set(record.id, record.line);
    collected.rows.push({ rowId: record.id, data: record.data });
    collected.lines.push(record.line);
  }
  return collected;
}

export type TableImportDeps = {
  readonly gateway: CommandGateway;
  readonly rows: TableRows;
  /** IMPORT_MAX_BYTES and its configured text (for the 413 message). */
  readonly maxBytes: number;
  readonly maxBytesText: string;
};

export type TableImportResult = {
  readonly answer: ImportAnswer;
  /** The append (null in a dry run). */
  readonly outcome: CommandOutcome<DraftChangesResult> | null;
};

/** The ids of the table's rows that are not in the file (`mode=replace` removes them). */
async function absentRowIds(rows: TableRows, table: TableContext, kept: ReadonlySet<string>): Promise<string[]> {
  const absent: string[] = [];
  for await (const page of rows.pages(table)) for (const row of page) if (!kept.has(row.id)) absent.push(row.id);
  return absent;
}

function describe(code: ErrorCode, message: string, details?: readonly ErrorDetail[]): string {
  const where = details === undefined || details.length === 0 ? '' : ` (${details.map((d) => `${d.path}: ${d.message}`).join('; ')})`;
  return `${code}: ${message}${where}`;
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
  const collected = await collectRows(records);
  const tableId = table.version.tableId;
  const removed = options.mode === 'replace' ? await absentRowIds(deps.rows, table, new Set(collected.rows.map((row) => row.rowId))) : [];

  const run = (dryRun: boolean, onInvalidRow: 'fail' | 'skip') => {
    const type = options.mode === 'insert' ? 'CreateRows' : 'UpsertRows';
    const operations: DraftOperation[] = [{ type, tableId, rows: collected.rows, onInvalidRow }];
    if (removed.length > 0) operations.push({ type: 'DeleteRows', tableId, rowIds: removed });
    return deps.gateway.execute('ApplyDraftChanges', { revisionId: table.scope.revisionId, operations, dryRun }, context);
  };
  const answerOf = (result: DraftChangesResult, dryRun: boolean): ImportAnswer => {
    const write = result.operations[0];
    const rowErrors = (write?.invalid ?? []).map((row) => ({
      line: collected.lines[row.index] ?? 0,
      rowId: row.rowId,
      code: row.code,
      message: row.message,
      ...(row.details !== undefined ? { details: row.details } : {}),
    }));
    const errors = [...collected.lineErrors, ...rowErrors].sort((a, b) => a.line - b.line);
    return {
      processed: collected.processed,
      created: write?.created ?? 0,
      updated: write?.updated ?? 0,
      unchanged: write?.unchanged ?? 0,
      removed: result.operations[1]?.deleted ?? 0,
      invalid: errors.length,
      errors: errors.slice(0, MAX_REPORTED_LINES),
      dryRun,
    };
  };
  const refuseIfInvalid = (answer: ImportAnswer): void => {
    if (answer.invalid === 0) return;
    const details = answer.errors.map((error) => ({ path: `/line/${error.line}`, message: describe(error.code, error.message, error.details) }));
    throw new AppError('IMPORT_INVALID', `${answer.invalid} of ${answer.processed} lines are invalid; nothing was imported`, details);
  };

  if (options.onError === 'skip' || options.dryRun) {
    const outcome = await run(options.dryRun, 'skip');
    const answer = answerOf(outcome.result, options.dryRun);
    if (options.onError === 'fail') refuseIfInvalid(answer);
    return { answer, outcome: options.dryRun ? null : outcome };
  }
  if (collected.lineErrors.length > 0) {
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
