import { StringDecoder } from 'node:string_decoder';
import { AppError, MAX_DRAFT_ROW_CHANGES, parseRequestJson } from '../../contracts/index.ts';
import type { JsonObject } from '../../contracts/index.ts';
import { BUNDLE_FORMAT, BUNDLE_VERSION } from './bundleExport.ts';
import { createLineErrors, type ImportRow, type LineErrors } from './importRows.ts';
import { createImportSpool, type ImportSpool } from './importSpool.ts';

export type BundleTable = { readonly id: string; readonly schema: JsonObject };

/** Rows a table's buffer holds before they are written to its spool (once the bundle is spooled). */
const SPOOL_BATCH = 1000;

/** One table's rows in the bundle: each id's line, and the rows in memory or, past `holdRows`, in a temporary file. */
export type BundleTableRows = {
  readonly ids: Map<string, number>;
  rows: ImportRow[];
  spool: ImportSpool | null;
  count: number;
};

export type ParsedBundle = {
  readonly tables: readonly BundleTable[];
  readonly rows: Map<string, BundleTableRows>;
  /** Invalid lines of the whole import: the bundle's own, then its rows' (first 100 by line kept, all counted). */
  readonly errors: LineErrors;
  processed: number;
  rowCount: number;
  spooled: boolean;
};

export type BundleParseLimits = {
  /** Whether a bundle above one command is staged (else refused with 409 LIMIT_EXCEEDED past MAX_DRAFT_ROW_CHANGES rows). */
  readonly staged: boolean;
  /** Rows held in memory; past them every table's rows go to temporary files. */
  readonly holdRows: number;
  /** Rows one import may hold (operations.md §7): past them 400 IMPORT_INVALID at the first row too many. */
  readonly maxRows: number;
};

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);

function refuseHeader(message: string): AppError {
  return new AppError('IMPORT_INVALID', `The bundle header is invalid: ${message}; nothing was imported`, [{ path: '/line/1', message }]);
}

function headerTables(text: string): BundleTable[] {
  let header: unknown;
  try {
    header = parseRequestJson(text, 'header');
  } catch {
    throw refuseHeader('line 1 is not valid JSON');
  }
  if (!isObject(header) || header.format !== BUNDLE_FORMAT) throw refuseHeader(`"format" must be "${BUNDLE_FORMAT}"`);
  if (header.version !== BUNDLE_VERSION)
    throw refuseHeader(`"version" ${JSON.stringify(header.version)} is not supported (expected ${BUNDLE_VERSION})`);
  if (!Array.isArray(header.tables)) throw refuseHeader('"tables" must be a list');
  const seen = new Set<string>();
  return header.tables.map((table: unknown, i) => {
    if (!isObject(table) || typeof table.id !== 'string' || !isObject(table.schema)) throw refuseHeader(`tables[${i}] must be {"id", "schema"}`);
    if (seen.has(table.id)) throw refuseHeader(`table "${table.id}" appears twice`);
    seen.add(table.id);
    return { id: table.id, schema: table.schema };
  });
}

/** Moves a table's buffered rows to its spool (created on first use). */
async function spoolRows(table: BundleTableRows): Promise<void> {
  table.spool ??= await createImportSpool();
  await table.spool.write(table.rows);
  table.rows = [];
}

async function rowLine(bundle: ParsedBundle, limits: BundleParseLimits, line: number, text: string): Promise<void> {
  bundle.processed += 1;
  const fail = (message: string, rowId: string | null = null): void => bundle.errors.add({ line, rowId, code: 'BAD_USER_INPUT', message });
  let value: unknown;
  try {
    value = parseRequestJson(text, 'line');
  } catch {
    return bundle.errors.add({ line, rowId: null, code: 'BAD_REQUEST', message: 'the line is not valid JSON' });
  }
  if (!isObject(value) || typeof value.table !== 'string' || typeof value.id !== 'string') return fail('a row line must be {"table", "id", "data"}');
  const target = bundle.rows.get(value.table);
  if (target === undefined) return fail(`table "${value.table}" is not in the header`, value.id);
  if (!isObject(value.data)) return fail('"data" must be an object', value.id);
  if (target.ids.has(value.id)) return fail(`row "${value.id}" of "${value.table}" appears twice`, value.id);
  if (!limits.staged && bundle.rowCount >= MAX_DRAFT_ROW_CHANGES) {
    throw new AppError('LIMIT_EXCEEDED', `A bundle can write at most ${MAX_DRAFT_ROW_CHANGES} rows in one atomic append`);
  }
  if (bundle.rowCount >= limits.maxRows) {
    const message = `IMPORT_INVALID: an import holds at most ${limits.maxRows} rows; split the bundle`;
    throw new AppError('IMPORT_INVALID', `Line ${line} is past ${limits.maxRows} rows; nothing was imported`, [{ path: `/line/${line}`, message }]);
  }
  bundle.rowCount += 1;
  target.count += 1;
  target.ids.set(value.id, line);
  target.rows.push({ rowId: value.id, data: value.data, line });
  if (!bundle.spooled && bundle.rowCount > limits.holdRows) {
    // Above one command: the rows wait in temporary files, memory keeps their ids.
    bundle.spooled = true;
    for (const table of bundle.rows.values()) if (table.rows.length > 0) await spoolRows(table);
  } else if (bundle.spooled && target.rows.length >= SPOOL_BATCH) await spoolRows(target);
}

/**
 * Reads the bundle: the header on line 1, then row lines (blank lines skipped). Any refusal closes the spools;
 * otherwise the caller closes them (`closeBundle`).
 */
export async function parseBundle(body: AsyncIterable<Buffer>, limits: BundleParseLimits): Promise<ParsedBundle> {
  const decoder = new StringDecoder('utf8');
  let bundle: ParsedBundle | null = null;
  let pending = '';
  let line = 0;
  const take = async (text: string): Promise<void> => {
    line += 1;
    const trimmed = text.trim();
    if (bundle === null) {
      if (line === 1) {
        const tables = headerTables(trimmed);
        const rows = new Map(tables.map((table): [string, BundleTableRows] => [table.id, { ids: new Map(), rows: [], spool: null, count: 0 }]));
        bundle = { tables, rows, errors: createLineErrors(), processed: 0, rowCount: 0, spooled: false };
      }
      return;
    }
    if (trimmed !== '') await rowLine(bundle, limits, line, trimmed);
  };
  try {
    for await (const chunk of body) {
      pending += decoder.write(chunk);
      let start = 0;
      for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n', start)) {
        await take(pending.slice(start, end));
        start = end + 1;
      }
      pending = pending.slice(start);
    }
    pending += decoder.end();
    if (pending.trim() !== '') await take(pending);
    if (bundle === null) throw refuseHeader('the bundle is empty');
    const parsed: ParsedBundle = bundle;
    if (parsed.spooled) for (const table of parsed.rows.values()) if (table.rows.length > 0) await spoolRows(table);
    return parsed;
  } catch (err) {
    if (bundle !== null) await closeBundle(bundle);
    throw err;
  }
}

/** A table's rows in bundle order, from memory or its spool. */
export async function* bundleRowsOf(table: BundleTableRows): AsyncGenerator<ImportRow> {
  yield* table.rows;
  if (table.spool !== null) yield* table.spool.rows();
}

/** Deletes the bundle's temporary files. */
export async function closeBundle(bundle: ParsedBundle): Promise<void> {
  for (const table of bundle.rows.values()) await table.spool?.close();
}
