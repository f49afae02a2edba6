import { AppError, assertTableScope, createBoundedCache } from '../../../contracts/index.ts';
import type { CommandGateway, RowView, ViewStore } from '../../../contracts/index.ts';
import type { ChangeQueries } from '../../changes/changeQueries.ts';
import { rowChangesSince, tableChangesSince, type ChangesSinceCaller } from '../../changes/changesSince.ts';
import { resolveConnection } from '../../paging/lazyConnection.ts';
import { and, eq, within } from '../../paging/filters.ts';
import { readonlyRowsFilter, rowReadonlyOf, rowVersions, rowView, type RowReader, type TableContext } from '../../readers/rowReader.ts';
import type { SchemaReader } from '../../readers/schemaReader.ts';
import { parseRowQuery, type RowQueryInput } from '../../rows/rowQuery.ts';
import type { GeneratedDataSource, GeneratedPage, GeneratedRow } from '../graphql/generatedDataSource.ts';
import { readKept, type Finality } from './finality.ts';
import type { GeneratedRequest } from './generatedRequest.ts';
import type { RowCounts } from './rowCounts.ts';
import type { ServedTable } from './servedTables.ts';
import { createGatewayRowWrites } from './gatewayRowWrites.ts';

export type EndpointDataSourceDeps = {
  readonly viewStore: ViewStore;
  readonly rows: RowReader;
  readonly schemas: SchemaReader;
  readonly gateway: CommandGateway;
  readonly counts: RowCounts;
  /** Whether a projection has passed a position: committed content read after that is kept (see below). */
  readonly isFinal: Finality;
  /** Revision diffs for the `changes` reads (changes.md §3). */
  readonly changes: ChangeQueries;
};

/**
 * Rows and pages of committed revisions kept in memory: entries, and bytes as estimated once when a value is kept
 * (a page holds up to `first` rows, so entries alone let 2,000 pages of 1,000 rows grow the heap by gigabytes).
 */
export const COMMITTED_ROWS_CACHE = { maxEntries: 20_000, maxBytes: 32 * 1024 * 1024 };
export const COMMITTED_PAGES_CACHE = { maxEntries: 2_000, maxBytes: 64 * 1024 * 1024 };

type CachedPage = Omit<GeneratedPage, 'totalCount'> & { readonly count: () => Promise<number> };

/** The generated APIs' row JSON: the API row without its table id. */
export function generatedRow(row: RowView): GeneratedRow {
  return { id: row.id, createdAt: row.createdAt, updatedAt: row.updatedAt, readonly: row.readonly, data: row.data };
}

/** The generated data source plus the list read REST calls with raw (not yet typed) query input. */
export type EndpointDataSource = GeneratedDataSource<GeneratedRequest> & {
  list(request: GeneratedRequest, tableId: string, input: RowQueryInput, wantTotalCount: boolean): Promise<GeneratedPage>;
};

/**
 * GeneratedDataSource over the views for the revision a request serves: rows visible at that revision, `readonly`
 * per domain.md §4 (every row of a committed revision), system refs filled; table scope checked per table (auth.md
 * §8.5); foreign keys loaded with one view query per call; writes through the command gateway (gatewayRowWrites.ts).
 */
export function createEndpointDataSource(deps: EndpointDataSourceDeps): EndpointDataSource {
  const { rows, schemas } = deps;
  // A committed revision's rows never change once the `rows` projection passed its commit (the system state the
  // request was authorized against knows the commit, so its position is a safe bound): rows and pages read from
  // such a revision are kept per (branch, sequence), drafts are always read from the views.
  const committedRows = createBoundedCache<string, GeneratedRow | null>(COMMITTED_ROWS_CACHE);
  const committedPages = createBoundedCache<string, CachedPage>(COMMITTED_PAGES_CACHE);
  // Keys hold query inputs as JSON text: equal texts are equal queries (an input written with its keys in another
  // order is kept once more, never confused with another).
  const committedKey = (request: GeneratedRequest): string | null => {
    const { scope } = request.served;
    return scope.isDraft ? null : `${scope.branchId}\0${scope.seq}`;
  };
  const rowsAt = (request: GeneratedRequest) => ({ projection: 'rows', position: request.state.position });

  /** Step 5: table scope (by id, before existence), then the table. */
  function servedTable(request: GeneratedRequest, tableId: string): ServedTable {
    assertTableScope(request.principal, tableId);
    const table = request.tables.byId.get(tableId);
    if (table === undefined) throw new AppError('TABLE_NOT_FOUND', `Table "${tableId}" not found in the revision`);
    return table;
  }

  /** Step 5 and the table's read context. */
  async function tableContext(request: GeneratedRequest, tableId: string): Promise<TableContext> {
    const table = servedTable(request, tableId);
    let rule = request.readonlyRules.get(tableId);
    if (rule === undefined) {
      rule = rowReadonlyOf(schemas, request.served.scope, table.version);
      request.readonlyRules.set(tableId, rule);
    }
    return { scope: request.served.scope, version: table.version, compiled: table.compiled, readonly: await rule };
  }

  async function list(request: GeneratedRequest, tableId: string, input: RowQueryInput, wantTotalCount: boolean): Promise<GeneratedPage> {
    const table = await tableContext(request, tableId);
    const { branch, address } = request.served;
    const query = parseRowQuery(input, {
      model: table.compiled.model,
      readonlyRows: readonlyRowsFilter(table.readonly),
      // The URL (not the revision) binds cursors, so they stay valid on head and draft URLs across commits.
      parentIds: ['endpoint', branch.id, address.segment, tableId],
    });
    const committed = committedKey(request);
    const key = committed === null ? null : `${committed}\0${JSON.stringify(query.queryKey)}\0${query.page.first}\0${query.page.after ?? ''}`;
    const page = await readKept(deps.isFinal, committedPages, key, rowsAt(request), async (): Promise<CachedPage> => {
      const read = await rows.rows(table, query);
      const edges = read.edges.map((edge) => ({ cursor: edge.cursor, node: generatedRow(edge.node) }));
      return { edges, pageInfo: read.pageInfo, count: read.totalCount };
    });
    if (!wantTotalCount) return { edges: page.edges, pageInfo: page.pageInfo };
    return { edges: page.edges, pageInfo: page.pageInfo, totalCount: await deps.counts(request, tableId, input.where, page.count) };
  }

  return {
    list,
    listRows: (request, tableId, args, wantTotalCount) => list(request, tableId, args, wantTotalCount),

    async getRow(request, tableId, rowId) {
      servedTable(request, tableId);
      const committed = committedKey(request);
      const key = committed === null ? null : `${committed}\0${tableId}\0${rowId}`;
      // A kept row needs no read context (its `readonly` was settled when it was read).
      const kept = key === null ? undefined : committedRows.get(key);
      if (kept !== undefined) return kept;
      const table = await tableContext(request, tableId);
      return readKept(deps.isFinal, committedRows, key, rowsAt(request), async () => {
        const row = await rows.row(table, rowId);
        return row === null ? null : generatedRow(row);
      });
    },

    async loadRowsByIds(request, tableId, ids) {
      const table = await tableContext(request, tableId);
      const { scope } = request.served;
      const docs = await deps.viewStore.find('rows', 'rows', {
        filter: and(eq('tableKey', table.version.tableKey), within('rowId', [...new Set(ids)])),
        versions: rowVersions(scope),
      });
      const byId = new Map(docs.map((doc) => [doc.rowId as string, generatedRow(rowView(doc, table))]));
      return ids.map((id) => byId.get(id) ?? null);
    },

    async changesSince(request, args) {
      return resolveConnection(await rowChangesSince(deps.changes, changesCaller(request), args));
    },

    tableChangesSince: (request, since) => tableChangesSince(deps.changes, changesCaller(request), since),

    ...createGatewayRowWrites(deps.gateway),
  };
}

function changesCaller(request: GeneratedRequest): ChangesSinceCaller {
  return { state: request.state, principal: request.principal, servedRevisionId: request.served.revisionId };
}
