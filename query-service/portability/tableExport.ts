import type { ServerResponse } from 'node:http';
import { stringify } from 'csv-stringify/sync';
import { AppError } from '../../contracts/index.ts';
import type { RowView } from '../../contracts/index.ts';
import type { TableContext } from '../readers/rowReader.ts';
import { csvCellsOf, csvColumnsOf } from './csvColumns.ts';
import type { TableRows } from './tableRows.ts';

export type TransferFormat = 'jsonl' | 'csv';

export const CONTENT_TYPES: Readonly<Record<TransferFormat, string>> = {
  jsonl: 'application/x-ndjson',
  csv: 'text/csv; charset=utf-8',
};

/** `format` of a portability route: `jsonl` (default) or `csv`; anything else is 400 BAD_USER_INPUT. */
export function formatParam(params: URLSearchParams, fallback: TransferFormat = 'jsonl'): TransferFormat {
  const value = params.get('format');
  if (value === null) return fallback;
  if (value === 'jsonl' || value === 'csv') return value;
  throw new AppError('BAD_USER_INPUT', 'format must be jsonl or csv', [{ path: '/format', message: 'must be jsonl or csv' }]);
}

/** A `true`/`false` query flag (absent: false). */
export function flagParam(params: URLSearchParams, name: string): boolean {
  const value = params.get(name);
  if (value === null || value === 'false') return false;
  if (value === 'true') return true;
  throw new AppError('BAD_USER_INPUT', `${name} must be true or false`, [{ path: `/${name}`, message: 'must be true or false' }]);
}

/** Writes `text`, waiting for `drain` when the socket's buffer is full (backpressure keeps memory flat). */
export function writeChunk(res: ServerResponse, text: string): Promise<void> {
  if (res.destroyed) return Promise.reject(new Error('the client went away'));
  if (res.write(text)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const settle = (err?: Error): void => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      if (err === undefined) resolve();
      else reject(err);
    };
    const onDrain = (): void => settle();
    const onClose = (): void => settle(new Error('the client went away'));
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

function jsonlLine(row: RowView, meta: boolean): string {
  const body = meta ? { id: row.id, data: row.data, createdAt: row.createdAt, updatedAt: row.updatedAt } : { id: row.id, data: row.data };
  return `${JSON.stringify(body)}\n`;
}

/**
 * Streams a table (portability.md §1): headers first, then one page of rows at a time, each page written before the
 * next is read. A failure after the first byte cannot change the status any more: the response is cut short
 * (the client sees an incomplete body, never a complete-looking one).
 */
export async function streamTableExport(
  res: ServerResponse,
  rows: TableRows,
  table: TableContext,
  options: { readonly format: TransferFormat; readonly meta: boolean },
): Promise<void> {
  const { format, meta } = options;
  const tableId = table.version.tableId;
  res.statusCode = 200;
  res.setHeader('Content-Type', CONTENT_TYPES[format]);
  res.setHeader('Content-Disposition', `attachment; filename="${tableId}.${format}"`);
  res.setHeader('Cache-Control', 'no-store');
  const columns = csvColumnsOf(table.compiled.model);
  try {
    if (format === 'csv') await writeChunk(res, csvLines([['id', ...columns.map((column) => column.name)]]));
    for await (const page of rows.pages(table)) {
      const text =
        format === 'csv' ? csvLines(page.map((row) => csvCellsOf(columns, row.id, row.data))) : page.map((row) => jsonlLine(row, meta)).join('');
      await writeChunk(res, text);
    }
  } catch (err) {
    res.destroy(err instanceof Error ? err : undefined);
    return;
  }
  res.end();
}

/** RFC 4180 lines (CRLF, quotes only where needed). */
export function csvLines(records: readonly (readonly string[])[]): string {
  return stringify(records as string[][], { record_delimiter: '\r\n' });
}
