import { AppError, invariant } from '../../contracts/index.ts';
import type { JsonObject, RevisionRecord, SystemState, ViewDoc } from '../../contracts/index.ts';
import { decodeCursor, encodeCursor, queryHashOf } from '../paging/keysetCursor.ts';
import type { LazyConnection } from '../paging/lazyConnection.ts';
import type { PageRequest } from '../paging/pageArgs.ts';
import type { CatalogReader } from '../readers/catalogReader.ts';
import type { ChangeReader } from './changeReader.ts';
import { rowView } from '../readers/rowReader.ts';
import { revisionScopeOf, type RevisionScope } from '../readers/revisionScope.ts';
import type { SchemaReader, TableVersion } from '../readers/schemaReader.ts';
import type { TableModels } from '../readers/tableModels.ts';
import { fieldChangesOf, type FieldChange } from './fieldChanges.ts';
import { ancestryOf } from './revisionAncestry.ts';
import { revisionDiff, type TableChangeKind, type TableDiff } from './revisionDiff.ts';
import { initialHistoryState, walkRowHistory, type HistoryState, type RowVersionChange } from './rowHistory.ts';
import type { PairedRow, RowChangeKind } from './rowPairing.ts';

export type RowChangeCounts = { added: number; updated: number; removed: number; renamed: number; total: number };
export type TableChange = {
  readonly tableId: string;
  readonly previousTableId: string | null;
  readonly change: TableChangeKind;
  readonly schemaChanged: boolean;
  readonly rowChanges: RowChangeCounts;
};
export type RevisionChanges = {
  readonly revisionId: string;
  readonly compareWith: string | null;
  readonly tables: readonly TableChange[];
  readonly totalRowChanges: number;
};
export type RowChange = {
  readonly rowId: string;
  readonly previousRowId: string | null;
  readonly change: RowChangeKind;
  readonly before: JsonObject | null;
  readonly after: JsonObject | null;
  readonly fieldChanges: readonly FieldChange[];
};
/** A row change of the generated `changes` feed (changes.md §3): with the table it belongs to. */
export type TableRowChange = RowChange & { readonly tableId: string };
export type RowVersionEntry = {
  readonly revisionId: string;
  readonly branchName: string;
  readonly committedAt: string | null;
  readonly comment: string | null;
  readonly change: RowVersionChange;
  readonly rowId: string;
  readonly tableId: string;
  readonly data: JsonObject | null;
  readonly actorId: string | null;
};

/** Which tables the caller may see (API-key table scope, per-table permissions). */
export type TableVisible = (tableId: string) => boolean;

export type ChangeQueriesDeps = {
  readonly schemas: SchemaReader;
  readonly changes: ChangeReader;
  readonly catalog: CatalogReader;
  readonly models: TableModels;
};

function countsOf(rows: readonly PairedRow[]): RowChangeCounts {
  const counts = { added: 0, updated: 0, removed: 0, renamed: 0, total: rows.length };
  for (const row of rows) counts[row.change.toLowerCase() as 'added' | 'updated' | 'removed' | 'renamed'] += 1;
  return counts;
}

function tableChangeOf(table: TableDiff): TableChange {
  const { tableId, previousTableId, change, schemaChanged } = table;
  return { tableId, previousTableId, change, schemaChanged, rowChanges: countsOf(table.rows) };
}

/** The API form of a row version's data: stored data with system refs filled, under its table's schema. */
function dataOf(deps: ChangeQueriesDeps, doc: ViewDoc | null, table: TableVersion | null, scope: RevisionScope): JsonObject | null {
  if (doc === null || table === null) return null;
  return rowView(doc, { scope, version: table, compiled: deps.models(table.schema), readonly: { kind: 'all' } }).data;
}

function rowChangeOf(deps: ChangeQueriesDeps, table: TableDiff, row: PairedRow, scopes: { base: RevisionScope; target: RevisionScope }): RowChange {
  const paired = row.change === 'UPDATED' || row.change === 'RENAMED';
  return {
    rowId: row.rowId,
    previousRowId: row.previousRowId,
    change: row.change,
    before: dataOf(deps, row.before, table.base, scopes.base),
    after: dataOf(deps, row.after, table.target, scopes.target),
    fieldChanges: paired ? fieldChangesOf(row.before?.data ?? null, row.after?.data ?? null) : [],
  };
}

/** A forward page over an in-memory sorted list, with cursors bound to `queryKey` (system-api.md §2). */
export function pageOf<T>(items: readonly T[], keyOf: (item: T) => string, page: PageRequest, queryKey: unknown): LazyConnection<T> {
  const hash = queryHashOf(queryKey);
  let start = 0;
  if (page.after !== null) {
    const [after] = decodeCursor(page.after, hash, ANY_VALUES.slice(0, 1));
    start = items.findIndex((item) => keyOf(item) > String(after));
    if (start === -1) start = items.length;
  }
  const slice = items.slice(start, start + page.first);
  const edges = slice.map((node) => ({ cursor: encodeCursor(hash, [keyOf(node)]), node }));
  return {
    edges,
    pageInfo: {
      hasNextPage: start + page.first < items.length,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: () => Promise.resolve(items.length),
  };
}

/**
 * Revision diffs and row history (changes.md §1-§3) for already authorized callers: the system operations, the
 * generated endpoints' `changes` routes and MCP tools all answer through these.
 */
export function createChangeQueries(deps: ChangeQueriesDeps) {
  async function tableChanges(
    state: SystemState,
    target: RevisionRecord,
    base: RevisionRecord | null,
    visible: TableVisible,
  ): Promise<TableChange[]> {
    if (base === null) return [];
    const diff = await revisionDiff(deps, state, target, base, (pair) => visible((pair.target ?? pair.base)?.tableId as string));
    return diff.tables.filter((table) => visible(table.tableId)).map(tableChangeOf);
  }

  return {
    tableChanges,

    async revisionChanges(state: SystemState, target: RevisionRecord, base: RevisionRecord | null, visible: TableVisible): Promise<RevisionChanges> {
      const tables = await tableChanges(state, target, base, visible);
      const totalRowChanges = tables.reduce((sum, table) => sum + table.rowChanges.total, 0);
      return { revisionId: target.id, compareWith: base?.id ?? null, tables, totalRowChanges };
    },

    /**
     * Changed rows of one table (`tableId` in the target, or in the base for a removed table), or of every visible
     * table when `tableId` is null; sorted by (tableId, rowId). TABLE_NOT_FOUND when the table is in neither.
     */
    async rowChanges(
      state: SystemState,
      target: RevisionRecord,
      base: RevisionRecord | null,
      args: { readonly tableId: string | null; readonly kinds: readonly RowChangeKind[] | null; readonly visible: TableVisible },
    ): Promise<TableRowChange[]> {
      const { tableId, kinds, visible } = args;
      if (base === null) {
        if (tableId !== null) throw new AppError('TABLE_NOT_FOUND', `Table "${tableId}" not found in the revision`);
        return [];
      }
      const named = (id: string | undefined) => (tableId === null ? id !== undefined && visible(id) : id === tableId);
      const diff = await revisionDiff(deps, state, target, base, (pair) => named(pair.target?.tableId ?? pair.base?.tableId));
      if (tableId !== null) {
        const listed = diff.tables.some((table) => table.tableId === tableId);
        if (!listed && (await deps.schemas.tableById(diff.targetScope, tableId)) === null) {
          throw new AppError('TABLE_NOT_FOUND', `Table "${tableId}" not found in the revision`);
        }
      }
      const scopes = { base: diff.baseScope, target: diff.targetScope };
      const out: TableRowChange[] = [];
      for (const table of diff.tables) {
        if (!named(table.tableId)) continue;
        for (const row of table.rows) {
          if (kinds !== null && !kinds.includes(row.change)) continue;
          out.push({ ...rowChangeOf(deps, table, row, scopes), tableId: table.tableId });
        }
      }
      return out;
    },

    /** One page of a row's history (changes.md §2), newest first; ROW_NOT_FOUND when the row never existed. */
    async rowHistory(
      state: SystemState,
      revision: RevisionRecord,
      table: TableVersion,
      rowId: string,
      page: PageRequest,
    ): Promise<LazyConnection<RowVersionEntry>> {
      const chain = ancestryOf(state, revision);
      const hash = queryHashOf({ rowHistory: revision.id, tableKey: table.tableKey, rowId });
      const start = page.after === null ? initialHistoryState(chain, rowId) : historyStateOf(decodeCursor(page.after, hash, ANY_VALUES));
      const { steps, after } = await walkRowHistory(deps.changes, chain, table.tableKey, start, page.first + 1);
      if (page.after === null && steps.length === 0) {
        throw new AppError('ROW_NOT_FOUND', `Row "${rowId}" not found in table "${table.tableId}"`);
      }
      const shown = steps.slice(0, page.first);
      const entries = await Promise.all(shown.map((step) => entryOf(state, step)));
      const edges = entries.map((node, i) => ({ cursor: encodeCursor(hash, cursorValues(after[i] as HistoryState)), node }));
      const totalCount = async (): Promise<number> =>
        (await walkRowHistory(deps.changes, chain, table.tableKey, initialHistoryState(chain, rowId), Number.MAX_SAFE_INTEGER)).steps.length;
      return {
        edges,
        pageInfo: {
          hasNextPage: steps.length > page.first,
          hasPreviousPage: page.after !== null,
          startCursor: edges[0]?.cursor ?? null,
          endCursor: edges.at(-1)?.cursor ?? null,
        },
        totalCount,
      };
    },
  };

  async function entryOf(state: SystemState, step: Awaited<ReturnType<typeof walkRowHistory>>['steps'][number]): Promise<RowVersionEntry> {
    const branch = state.branches.get(step.branchId);
    invariant(branch, `branch ${step.branchId} is known`);
    const revisionId = branch.revisionIds[step.seq];
    invariant(revisionId !== undefined, `revision ${step.seq} of branch ${branch.id} is known`);
    const view = await deps.catalog.revision(revisionId, branch);
    const isDraft = revisionId === branch.draftRevisionId;
    const revision = state.revisions.get(revisionId);
    invariant(revision !== undefined, `revision ${revisionId} is known`);
    const scope = revisionScopeOf(state, revision);
    return {
      revisionId,
      branchName: branch.name,
      committedAt: isDraft ? null : (view?.committedAt ?? null),
      comment: isDraft ? null : (view?.comment ?? null),
      change: step.change,
      rowId: step.rowId,
      tableId: step.table.tableId,
      data: dataOf(deps, step.doc, step.table, scope),
      actorId: actorIdOf(state, step.actor),
    };
  }
}

export type ChangeQueries = ReturnType<typeof createChangeQueries>;

/** The user (or service key) behind an event principal: a personal key stands for its user. */
export function actorIdOf(state: SystemState, actor: string | null): string | null {
  if (actor === null) return null;
  if (actor.startsWith('user:')) return actor.slice(5);
  if (!actor.startsWith('key:')) return null;
  const keyId = actor.slice(4);
  return state.apiKeys.get(keyId)?.userId ?? keyId;
}

function cursorValues(state: HistoryState): (string | number | boolean | null)[] {
  return [state.k, state.rowId, state.maxFromSeq, state.newerFromSeq, state.deletionDone];
}

/** Cursor keys whose values are checked after decoding (historyStateOf, the page key's comparison). */
const ANY_VALUES = Array.from({ length: 5 }, () => ({ accepts: (): boolean => true }));

function historyStateOf(values: readonly unknown[]): HistoryState {
  const [k, rowId, maxFromSeq, newerFromSeq, deletionDone] = values;
  const valid =
    typeof k === 'number' &&
    typeof rowId === 'string' &&
    typeof maxFromSeq === 'number' &&
    (newerFromSeq === null || typeof newerFromSeq === 'number') &&
    typeof deletionDone === 'boolean';
  if (!valid) {
    const message = 'after is not a cursor of this query';
    throw new AppError('BAD_USER_INPUT', message, [{ path: '/after', message }]);
  }
  return { k, rowId, maxFromSeq, newerFromSeq, deletionDone };
}
