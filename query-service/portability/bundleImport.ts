/* eslint-disable max-lines -- over 300 lines of code once formatted; to be split along its seams (left for the next round) */
import { StringDecoder } from 'node:string_decoder';
import {
  AppError,
  MAX_DRAFT_ROW_CHANGES,
  assertCanRead,
  canonicalJson,
  findRevision,
  invariant,
  isAppError,
  parseRequestJson,
  projectTarget,
  resolveBranch,
} from '../../contracts/index.ts';
import type {
  CommandContext,
  CommandGateway,
  CommandOutcome,
  DraftChangesResult,
  DraftOperation,
  JsonObject,
  Principal,
  SystemState,
} from '../../contracts/index.ts';
import { revisionScopeOf, type RevisionScope } from '../readers/revisionScope.ts';
import type { TableVersion } from '../readers/schemaReader.ts';
import { rowReadonlyOf } from '../readers/rowReader.ts';
import { BUNDLE_FORMAT, BUNDLE_VERSION } from './bundleExport.ts';
import { limitedBody } from './importRecords.ts';
import { MAX_REPORTED_LINES, type ImportAnswer, type ImportLineError } from './importAnswer.ts';
import type { TableRows } from './tableRows.ts';

export type BundleImportOptions = { readonly mode: 'replace' | 'merge'; readonly dryRun: boolean };

/** changes.md §1.1 TableChange, counted from what the import does to the draft. */
export type BundleTableChange = {
  readonly tableId: string;
  readonly previousTableId: null;
  readonly change: 'ADDED' | 'REMOVED' | 'MODIFIED';
  readonly schemaChanged: boolean;
  readonly rowChanges: { added: number; updated: number; removed: number; renamed: number; total: number };
};

/** The draft's changes against its state before (changes.md §1.1 shape) plus a table import's counts. */
export type BundleImportAnswer = ImportAnswer & {
  readonly revisionId: string;
  readonly tables: readonly BundleTableChange[];
  readonly totalRowChanges: number;
};

type BundleTable = { readonly id: string; readonly schema: JsonObject };
type TableRowsIn = { readonly rows: { rowId: string; data: JsonObject }[]; readonly lines: number[]; readonly ids: Set<string> };
type ParsedBundle = {
  readonly tables: readonly BundleTable[];
  readonly rows: Map<string, TableRowsIn>;
  readonly lineErrors: ImportLineError[];
  processed: number;
  rowCount: number;
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

function rowLine(bundle: ParsedBundle, line: number, text: string): void {
  bundle.processed += 1;
  const fail = (message: string, rowId: string | null = null): void => void bundle.lineErrors.push({ line, rowId, code: 'BAD_USER_INPUT', message });
  let value: unknown;
  try {
    value = parseRequestJson(text, 'line');
  } catch {
    return void bundle.lineErrors.push({ line, rowId: null, code: 'BAD_REQUEST', message: 'the line is not valid JSON' });
  }
  if (!isObject(value) || typeof value.table !== 'string' || typeof value.id !== 'string') return fail('a row line must be {"table", "id", "data"}');
  const target = bundle.rows.get(value.table);
  if (target === undefined) return fail(`table "${value.table}" is not in the header`, value.id);
  if (!isObject(value.data)) return fail('"data" must be an object', value.id);
  if (target.ids.has(value.id)) return fail(`row "${value.id}" of "${value.table}" appears twice`, value.id);
  if (bundle.rowCount >= MAX_DRAFT_ROW_CHANGES)
    throw new AppError('LIMIT_EXCEEDED', `A bundle can write at most ${MAX_DRAFT_ROW_CHANGES} rows in one atomic append`);
  bundle.rowCount += 1;
  target.ids.add(value.id);
  target.rows.push({ rowId: value.id, data: value.data });
  target.lines.push(line);
}

/** Reads the bundle: the header on line 1, then row lines (blank lines skipped). */
async function parseBundle(body: AsyncIterable<Buffer>): Promise<ParsedBundle> {
  const decoder = new StringDecoder('utf8');
  let bundle: ParsedBundle | null = null;
  let pending = '';
  let line = 0;
  const take = (text: string): void => {
    line += 1;
    const trimmed = text.trim();
    if (bundle === null) {
      if (line === 1) {
        const tables = headerTables(trimmed);
        const rows = new Map(tables.map((table) => [table.id, { rows: [], lines: [], ids: new Set<string>() } as TableRowsIn]));
        bundle = { tables, rows, lineErrors: [], processed: 0, rowCount: 0 };
      }
      return;
    }
    if (trimmed !== '') rowLine(bundle, line, trimmed);
  };
  for await (const chunk of body) {
    pending += decoder.write(chunk);
    let start = 0;
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n', start)) {
      take(pending.slice(start, end));
      start = end + 1;
    }
    pending = pending.slice(start);
  }
  pending += decoder.end();
  if (pending.trim() !== '') take(pending);
  if (bundle === null) throw refuseHeader('the bundle is empty');
  return bundle;
}

const escapePointer = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');

/** JSON Patch turning `current` into `target` one top-level property node at a time (whole nodes replaced). */
export function schemaPatches(current: JsonObject, target: JsonObject): unknown[] {
  const props = (schema: JsonObject): Record<string, unknown> => (isObject(schema.properties) ? schema.properties : {});
  const before = props(current);
  const after = props(target);
  const patches: unknown[] = [];
  for (const name of Object.keys(before)) if (!Object.hasOwn(after, name)) patches.push({ op: 'remove', path: `/properties/${escapePointer(name)}` });
  for (const [name, node] of Object.entries(after)) {
    if (!Object.hasOwn(before, name)) patches.push({ op: 'add', path: `/properties/${escapePointer(name)}`, value: node });
    else if (canonicalJson(before[name]) !== canonicalJson(node))
      patches.push({ op: 'replace', path: `/properties/${escapePointer(name)}`, value: node });
  }
  return patches;
}

export type BundleImportDeps = {
  readonly gateway: CommandGateway;
  readonly rows: TableRows;
  readonly maxBytes: number;
  readonly maxBytesText: string;
};

type Plan = {
  readonly operations: (onInvalidRow: 'fail' | 'skip') => DraftOperation[];
  /** For each operation: the table version it removes (DeleteTable), or the lines of its rows. */
  readonly removedTables: Map<number, TableVersion>;
  readonly rowLines: Map<number, readonly number[]>;
};

async function planOf(deps: BundleImportDeps, scope: RevisionScope, bundle: ParsedBundle, mode: BundleImportOptions['mode']): Promise<Plan> {
  const current = new Map((await deps.rows.schemas.allTables(scope)).map((version) => [version.tableId, version]));
  const fixed: DraftOperation[] = [];
  const rowOps: { table: string; rows: TableRowsIn }[] = [];
  const deletions: DraftOperation[] = [];
  const removedTables: TableVersion[] = [];
  for (const table of bundle.tables) {
    const existing = current.get(table.id);
    if (existing === undefined) fixed.push({ type: 'CreateTable', tableId: table.id, schema: table.schema });
    else {
      const patches = schemaPatches(existing.schema, table.schema);
      if (patches.length > 0) fixed.push({ type: 'UpdateTable', tableId: table.id, patches });
      if (mode === 'replace') {
        const kept = bundle.rows.get(table.id)?.ids ?? new Set<string>();
        const context = {
          scope,
          version: existing,
          compiled: deps.rows.models(existing.schema),
          readonly: await rowReadonlyOf(deps.rows.schemas, scope, existing),
        };
        const absent: string[] = [];
        for await (const page of deps.rows.pages(context)) for (const row of page) if (!kept.has(row.id)) absent.push(row.id);
        // Removed before the schema changes, so rows the bundle drops are not migrated first.
        if (absent.length > 0) deletions.push({ type: 'DeleteRows', tableId: table.id, rowIds: absent });
      }
    }
    const rows = bundle.rows.get(table.id);
    if (rows !== undefined && rows.rows.length > 0) rowOps.push({ table: table.id, rows });
  }
  const tableRemovals: DraftOperation[] = [];
  if (mode === 'replace') {
    const kept = new Set(bundle.tables.map((table) => table.id));
    for (const [tableId, version] of current) {
      if (kept.has(tableId)) continue;
      tableRemovals.push({ type: 'DeleteTable', tableId });
      removedTables.push(version);
    }
  }
  const head = [...deletions, ...fixed];
  const removedAt = new Map<number, TableVersion>();
  const rowLines = new Map<number, readonly number[]>();
  rowOps.forEach((op, i) => rowLines.set(head.length + i, op.rows.lines));
  removedTables.forEach((version, i) => removedAt.set(head.length + rowOps.length + i, version));
  return {
    operations: (onInvalidRow) => [
      ...head,
      ...rowOps.map((op): DraftOperation => ({ type: 'UpsertRows', tableId: op.table, rows: op.rows.rows, onInvalidRow })),
      ...tableRemovals,
    ],
    removedTables: removedAt,
    rowLines,
  };
}

function answerOf(bundle: ParsedBundle, plan: Plan, result: DraftChangesResult, dryRun: boolean): BundleImportAnswer {
  const changes = new Map<string, BundleTableChange>();
  const changeOf = (tableId: string): BundleTableChange => {
    let change = changes.get(tableId);
    if (change === undefined) {
      change = {
        tableId,
        previousTableId: null,
        change: 'MODIFIED',
        schemaChanged: false,
        rowChanges: { added: 0, updated: 0, removed: 0, renamed: 0, total: 0 },
      };
      changes.set(tableId, change);
    }
    return change;
  };
  const rowErrors: ImportLineError[] = [];
  const counts = { created: 0, updated: 0, unchanged: 0, removed: 0 };
  result.operations.forEach((op, index) => {
    const change = changeOf(op.tableId);
    const rows = change.rowChanges;
    if (op.type === 'CreateTable') changes.set(op.tableId, { ...change, change: 'ADDED', schemaChanged: true });
    if (op.type === 'UpdateTable') changes.set(op.tableId, { ...change, schemaChanged: true });
    if (op.type === 'DeleteTable') {
      const removedRows = plan.removedTables.get(index)?.count ?? 0;
      rows.removed += removedRows;
      counts.removed += removedRows;
      changes.set(op.tableId, { ...change, change: 'REMOVED' });
    }
    rows.added += op.created;
    rows.updated += op.updated;
    rows.removed += op.deleted;
    counts.created += op.created;
    counts.updated += op.updated;
    counts.unchanged += op.unchanged;
    counts.removed += op.deleted;
    const lines = plan.rowLines.get(index) ?? [];
    for (const row of op.invalid) {
      rowErrors.push({
        line: lines[row.index] ?? 0,
        rowId: row.rowId,
        code: row.code,
        message: row.message,
        ...(row.details ? { details: row.details } : {}),
      });
    }
  });
  const tables = [...changes.values()]
    .map((change) => ({
      ...change,
      rowChanges: { ...change.rowChanges, total: change.rowChanges.added + change.rowChanges.updated + change.rowChanges.removed },
    }))
    .filter((change) => change.change !== 'MODIFIED' || change.schemaChanged || change.rowChanges.total > 0)
    .sort((a, b) => (a.tableId < b.tableId ? -1 : a.tableId > b.tableId ? 1 : 0));
  const errors = [...bundle.lineErrors, ...rowErrors].sort((a, b) => a.line - b.line);
  return {
    revisionId: result.draftRevisionId,
    tables,
    totalRowChanges: tables.reduce((sum, change) => sum + change.rowChanges.total, 0),
    processed: bundle.processed,
    ...counts,
    invalid: errors.length,
    errors: errors.slice(0, MAX_REPORTED_LINES),
    dryRun,
  };
}

function refuseIfInvalid(answer: BundleImportAnswer): void {
  if (answer.invalid === 0) return;
  const details = answer.errors.map((error) => ({ path: `/line/${error.line}`, message: `${error.code}: ${error.message}` }));
  throw new AppError('IMPORT_INVALID', `${answer.invalid} of ${answer.processed} lines are invalid; nothing was imported`, details);
}

/**
 * Bundle import into a branch's draft (portability.md §3): one ApplyDraftChanges with the table operations, each
 * table's rows upserted (and, in `replace`, the rows and tables not in the bundle removed). Any invalid line refuses
 * the whole bundle (400 IMPORT_INVALID listing the lines).
 */
export async function runBundleImport(
  deps: BundleImportDeps,
  context: CommandContext & { readonly principal: Principal },
  state: SystemState,
  ref: { readonly organizationId: string; readonly projectName: string; readonly branchName: string },
  body: AsyncIterable<Buffer>,
  options: BundleImportOptions,
): Promise<{ readonly answer: BundleImportAnswer; readonly outcome: CommandOutcome<DraftChangesResult> | null }> {
  const { project, branch } = resolveBranch(state, context.principal, ref);
  assertCanRead(state, context.principal, 'Table', projectTarget(project));
  const revision = findRevision(state, branch.draftRevisionId);
  invariant(revision, 'a live branch has a draft revision');
  const scope = revisionScopeOf(state, revision);
  const bundle = await parseBundle(limitedBody(body, deps.maxBytes, deps.maxBytesText));
  const plan = await planOf(deps, scope, bundle, options.mode);
  const run = (dryRun: boolean, onInvalidRow: 'fail' | 'skip') =>
    deps.gateway.execute('ApplyDraftChanges', { revisionId: revision.id, operations: plan.operations(onInvalidRow), dryRun }, context);

  if (options.dryRun || bundle.lineErrors.length > 0) {
    const answer = answerOf(bundle, plan, (await run(true, 'skip')).result, true);
    refuseIfInvalid(answer);
    return { answer, outcome: null };
  }
  try {
    const outcome = await run(false, 'fail');
    return { answer: answerOf(bundle, plan, outcome.result, false), outcome };
  } catch (err) {
    if (!isAppError(err)) throw err;
    refuseIfInvalid(answerOf(bundle, plan, (await run(true, 'skip')).result, true));
    throw err;
  }
}
