import { StringDecoder } from 'node:string_decoder';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { AppError, defaultValueOf, isAppError, parseRequestJson } from '../../contracts/index.ts';
import type { ErrorCode, JsonObject, JsonValue, TableModel } from '../../contracts/index.ts';
import { cellValue, csvColumnsOf, setAtPath, type CsvColumn } from './csvColumns.ts';

/** A line of an import file that could not become a row (before any row check). */
export type LineError = { readonly code: ErrorCode; readonly message: string };

/** One data line of an import file: a row to write, or why the line is not one. */
export type ImportRecord =
  | { readonly line: number; readonly id: string; readonly data: JsonObject; readonly error?: undefined }
  | { readonly line: number; readonly id: string | null; readonly error: LineError };

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The body, chunk by chunk, refused with 413 PAYLOAD_TOO_LARGE past `maxBytes` (IMPORT_MAX_BYTES). An aborted
 * request rejects (the import then writes nothing).
 */
export async function* limitedBody(body: AsyncIterable<Buffer>, maxBytes: number, limitText: string): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) throw new AppError('PAYLOAD_TOO_LARGE', `Import body exceeds ${limitText}`);
    yield chunk;
  }
}

/** `{"id":…,"data":{…}}` (other members, like the `meta=true` timestamps, are ignored). */
function jsonlRecord(line: number, text: string): ImportRecord {
  let value: unknown;
  try {
    value = parseRequestJson(text, 'line');
  } catch {
    return { line, id: null, error: { code: 'BAD_REQUEST', message: 'the line is not valid JSON' } };
  }
  if (!isObject(value)) return { line, id: null, error: { code: 'BAD_USER_INPUT', message: 'a line must be a JSON object {"id", "data"}' } };
  const { id, data } = value;
  if (typeof id !== 'string') return { line, id: null, error: { code: 'BAD_USER_INPUT', message: '"id" must be a string' } };
  if (!isObject(data)) return { line, id, error: { code: 'BAD_USER_INPUT', message: '"data" must be an object' } };
  return { line, id, data };
}

/** JSON Lines records; blank lines are skipped (and counted in line numbers). */
export async function* jsonlRecords(body: AsyncIterable<Buffer>): AsyncGenerator<ImportRecord> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let line = 0;
  for await (const chunk of body) {
    pending += decoder.write(chunk);
    let start = 0;
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n', start)) {
      line += 1;
      const text = pending.slice(start, end).trim();
      start = end + 1;
      if (text !== '') yield jsonlRecord(line, text);
    }
    pending = pending.slice(start);
  }
  pending += decoder.end();
  if (pending.trim() !== '') yield jsonlRecord(line + 1, pending.trim());
}

type CsvHeader = { readonly idIndex: number; readonly byIndex: readonly (CsvColumn | null)[]; readonly missing: readonly CsvColumn[] };

function headerOf(record: readonly string[], columns: readonly CsvColumn[]): CsvHeader {
  const byName = new Map(columns.map((column) => [column.name, column]));
  const seen = new Set<string>();
  const unknown: string[] = [];
  const byIndex = record.map((name) => {
    if (seen.has(name)) throw invalidHeader(`column "${name}" appears twice`);
    seen.add(name);
    if (name === 'id') return null;
    const column = byName.get(name);
    if (column === undefined) unknown.push(name);
    return column ?? null;
  });
  if (unknown.length > 0) throw invalidHeader(`unknown columns: ${unknown.map((name) => `"${name}"`).join(', ')}`);
  const idIndex = record.indexOf('id');
  if (idIndex === -1) throw invalidHeader('the header has no "id" column');
  return { idIndex, byIndex, missing: columns.filter((column) => !seen.has(column.name)) };
}

function invalidHeader(message: string): AppError {
  return new AppError('IMPORT_INVALID', `The CSV header is invalid: ${message}; nothing was imported`, [{ path: '/line/1', message }]);
}

function csvRecord(line: number, record: readonly string[], header: CsvHeader): ImportRecord {
  const id = record[header.idIndex] ?? null;
  if (record.length !== header.byIndex.length) {
    return { line, id, error: { code: 'BAD_USER_INPUT', message: `expected ${header.byIndex.length} cells, got ${record.length}` } };
  }
  if (id === null || id === '') return { line, id: null, error: { code: 'BAD_USER_INPUT', message: '"id" is empty' } };
  const data: JsonObject = {};
  for (const [i, column] of header.byIndex.entries()) {
    if (column === null) continue;
    const value = cellValue(column, record[i] ?? '');
    if (!value.ok) return { line, id, error: { code: 'INVALID_DATA', message: value.message } };
    setAtPath(data, column.path, value.value);
  }
  // A missing column takes the schema default (portability.md §2).
  for (const column of header.missing) setAtPath(data, column.path, defaultOf(column));
  return { line, id, data };
}

function defaultOf(column: CsvColumn): JsonValue {
  return column.kind === 'string' ? defaultValueOf(column.node) : (cellValue(column, '') as { readonly value: JsonValue }).value;
}

/**
 * CSV records (RFC 4180 as csv-parse reads it, BOM tolerated): a header naming `id` and columns of the table's
 * schema (an unknown column refuses the file), then rows. A record's line is the physical line it starts on.
 */
export async function* csvRecords(body: AsyncIterable<Buffer>, model: TableModel): AsyncGenerator<ImportRecord> {
  const columns = csvColumnsOf(model);
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true });
  const feeding = pipeline(Readable.from(body), parser).catch((err: unknown) => {
    parser.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  let header: CsvHeader | null = null;
  let nextLine = 1;
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = nextLine;
      nextLine = item.info.lines + 1;
      if (header === null) header = headerOf(item.record, columns);
      else yield csvRecord(line, item.record, header);
    }
  } catch (err) {
    throw csvError(err);
  } finally {
    await feeding;
  }
  if (header === null) throw invalidHeader('the file is empty');
}

/** A CSV syntax error (an unclosed quote…) stops the file: 400 IMPORT_INVALID at its line. */
function csvError(err: unknown): unknown {
  if (isAppError(err) || !(err instanceof Error) || !('code' in err) || typeof err.code !== 'string' || !err.code.startsWith('CSV_')) return err;
  const line = 'lines' in err && typeof err.lines === 'number' ? err.lines : 0;
  const message = `${err.code}: ${err.message}`;
  return new AppError('IMPORT_INVALID', `The CSV text is invalid at line ${line}; nothing was imported`, [{ path: `/line/${line}`, message }]);
}
