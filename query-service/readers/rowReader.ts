import { fillSystemRefs, normalizeRowData, visibleAt } from '../../contracts/index.ts';
import type { Filter, JsonObject, RowView, ViewDoc, ViewStore } from '../../contracts/index.ts';
import { MATCH_ALL, MATCH_NONE, and, eq } from '../paging/filters.ts';
import { keysetPage } from '../paging/keysetPage.ts';
import type { LazyConnection } from '../paging/lazyConnection.ts';
import type { RowQuery } from '../rows/rowQuery.ts';
import type { RevisionScope } from './revisionScope.ts';
import type { TableVersion } from './schemaReader.ts';
import { jsonHash, type CompiledSchema } from './tableModels.ts';

const ROWS = 'rows';

/**
 * Which rows of a table are `readonly` in a revision (domain.md §4): all in committed revisions; in a draft the
 * versions shared with HEAD (fromSeq < draft seq) — except in a table the draft renamed, which has no HEAD table of
 * the same id, so none of its rows are.
 */
export type RowReadonly = { readonly kind: 'all' } | { readonly kind: 'none' } | { readonly kind: 'sharedBelow'; readonly seq: number };

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
      return { kind: 'compare', ref: { field: 'fromSeq' }, op: 'lt', value: rule.seq };
  }
}

function isReadonly(rule: RowReadonly, fromSeq: number): boolean {
  return rule.kind === 'all' || (rule.kind === 'sharedBelow' && fromSeq < rule.seq);
}

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
    readonly: isReadonly(table.readonly, doc.fromSeq as number),
    data,
  };
}

/** Reads of the `rows` projection: the rows of one table visible in a revision. */
export function createRowReader(store: ViewStore) {
  const tableRows = (table: TableContext): Filter =>
    and(visibleAt(table.scope.branchId, table.scope.seq), eq('tableKey', table.version.tableKey));

  return {
    async row(table: TableContext, rowId: string): Promise<RowView | null> {
      const docs = await store.find(ROWS, 'rows', { filter: and(tableRows(table), eq('rowId', rowId)), limit: 1 });
      return docs[0] === undefined ? null : rowView(docs[0], table);
    },

    async rows(table: TableContext, query: RowQuery): Promise<LazyConnection<RowView>> {
      const keysetQuery = {
        projection: ROWS,
        collection: 'rows',
        filter: and(tableRows(table), query.filter),
        keys: query.keys,
        queryKey: query.queryKey,
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
