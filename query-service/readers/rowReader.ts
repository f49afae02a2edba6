import { fillSystemRefs, normalizeRowData } from '../../contracts/index.ts';
import type { Filter, JsonObject, RowView, VersionedRead, ViewDoc, ViewStore } from '../../contracts/index.ts';
import { MATCH_ALL, MATCH_NONE, and, eq, not } from '../paging/filters.ts';
import { keysetPage } from '../paging/keysetPage.ts';
import type { LazyConnection } from '../paging/lazyConnection.ts';
import type { RowQuery } from '../rows/rowQuery.ts';
import type { RowIndexes } from './rowIndexes.ts';
import { isDraftVersion, type RevisionScope } from './revisionScope.ts';
import type { SchemaReader, TableVersion } from './schemaReader.ts';
import { jsonHash, type CompiledSchema } from './tableModels.ts';

const ROWS = 'rows';

/**
 * Which rows of a table are `readonly` in a revision (domain.md §4): all in committed revisions; in a draft the
 * versions shared with HEAD (all but the draft's own: `branchId` the draft's branch and `fromSeq` its sequence) —
 * except in a table the draft renamed, which has no HEAD table of the same id, so none of its rows are.
 */
export type RowReadonly =
  { readonly kind: 'all' } | { readonly kind: 'none' } | { readonly kind: 'sharedBelow'; readonly branchId: string; readonly seq: number };

/** The readonly rule of a table's rows in a revision (see RowReadonly). */
export async function rowReadonlyOf(schemas: SchemaReader, scope: RevisionScope, version: TableVersion): Promise<RowReadonly> {
  if (!scope.isDraft) return { kind: 'all' };
  if (isDraftVersion(scope, version)) {
    // A table renamed in the draft has no HEAD table with its id, so none of its rows equals a HEAD row.
    const head = await schemas.headVersionOf(scope, version.tableKey);
    if (head !== null && head.tableId !== version.tableId) return { kind: 'none' };
  }
  return { kind: 'sharedBelow', branchId: scope.branchId, seq: scope.seq };
}

/** The table a row read is about: its version in the revision, compiled schema and readonly rule. */
export type TableContext = {
  readonly scope: RevisionScope;
  readonly version: TableVersion;
  readonly compiled: CompiledSchema;
  readonly readonly: RowReadonly;
};

/** Rows whose `readonly` is true, as a filter over row versions (for `where: {readonly: ...}`). */
export function readonlyRowsFilter(rule: RowReadonly): Filter {
  switch (rule.kind) {
    case 'all':
      return MATCH_ALL;
    case 'none':
      return MATCH_NONE;
    case 'sharedBelow':
      return not(and(eq('branchId', rule.branchId), { kind: 'compare', ref: { field: 'fromSeq' }, op: 'gte', value: rule.seq }));
  }
}

function isReadonly(rule: RowReadonly, doc: ViewDoc): boolean {
  return rule.kind === 'all' || (rule.kind === 'sharedBelow' && !(doc.branchId === rule.branchId && (doc.fromSeq as number) >= rule.seq));
}

/** The rows of a table as a revision sees them: layered over the revision's branch and the branches below it. */
export function rowVersions(scope: Pick<RevisionScope, 'layers'>): VersionedRead {
  return { layers: scope.layers, identity: ROW_IDENTITY };
}

const ROW_IDENTITY = ['tableKey', 'rowId'];

/** The API row: stored data in schema key order with every system-ref field filled (domain.md §5.3). */
export function rowView(doc: ViewDoc, table: TableContext): RowView {
  const stored = doc.data;
  const rowId = doc.rowId as string;
  const createdAt = doc.createdAt as string;
  const updatedAt = doc.updatedAt as string;
  const { model, schemaHash } = table.compiled;
  const data = fillSystemRefs(model, normalizeRowData(model, stored), {
    id: rowId,
    createdAt,
    updatedAt,
    hash: () => jsonHash(stored),
    schemaHash,
  }) as JsonObject;
  return {
    id: rowId,
    tableId: table.version.tableId,
    createdAt,
    updatedAt,
    readonly: isReadonly(table.readonly, doc),
    data,
  };
}

/**
 * Reads of the `rows` projection: the rows of one table visible in a revision. Every list (system REST/GraphQL,
 * MCP, generated endpoints) first starts the index of its order (rowIndexes.ts), without waiting for it.
 */
export function createRowReader(store: ViewStore, indexes: RowIndexes) {
  const tableRows = (table: TableContext): Filter => eq('tableKey', table.version.tableKey);

  return {
    async row(table: TableContext, rowId: string): Promise<RowView | null> {
      const filter = and(tableRows(table), eq('rowId', rowId));
      const docs = await store.find(ROWS, 'rows', { filter, limit: 1, versions: rowVersions(table.scope) });
      return docs[0] === undefined ? null : rowView(docs[0], table);
    },

    async rows(table: TableContext, query: RowQuery): Promise<LazyConnection<RowView>> {
      // Not awaited; a store that cannot be reached fails the list itself below (ensure logs its own failures).
      indexes.ensure(query.keys).catch(() => undefined);
      indexes.ensureFields(table.compiled.model).catch(() => undefined);
      const keysetQuery = {
        projection: ROWS,
        collection: 'rows',
        filter: and(tableRows(table), query.filter),
        keys: query.keys,
        queryKey: query.queryKey,
        versions: rowVersions(table.scope),
      };
      const page = await keysetPage(store, keysetQuery, query.page, (docs) => docs.map((doc) => rowView(doc, table)));
      // Without `where` the count is the table's row count, which the schemas projection keeps per revision.
      if (query.filter.kind !== 'all') return page;
      const count = table.version.count;
      return Object.assign({}, page, { totalCount: () => Promise.resolve(count) });
    },
  };
}

export type RowReader = ReturnType<typeof createRowReader>;
