import { visibleAt } from '../../contracts/index.ts';
import type { Filter, JsonObject, TableView, ViewDoc, ViewStore } from '../../contracts/index.ts';
import { and, eq } from '../paging/filters.ts';
import { fieldKey, keysetPage } from '../paging/keysetPage.ts';
import type { PageRequest } from '../paging/pageArgs.ts';
import type { LazyConnection } from '../paging/lazyConnection.ts';
import type { RevisionScope } from './revisionScope.ts';

const SCHEMAS = 'schemas';

/** A table version of the `schemas` projection (contracts/views/viewSpecs.ts). */
export type TableVersion = {
  readonly branchId: string;
  readonly tableKey: string;
  readonly fromSeq: number;
  readonly tableId: string;
  readonly schema: JsonObject;
  readonly count: number;
  readonly createdAt: string;
  readonly updatedAt: string;
};

export function tableVersion(doc: ViewDoc): TableVersion {
  return {
    branchId: doc.branchId as string,
    tableKey: doc.tableKey as string,
    fromSeq: doc.fromSeq as number,
    tableId: doc.tableId as string,
    schema: doc.schema as JsonObject,
    count: doc.count as number,
    createdAt: doc.createdAt as string,
    updatedAt: doc.updatedAt as string,
  };
}

/** Table `readonly` (domain.md §4): committed revisions always; a draft unless the draft changed the table. */
export function tableView(version: TableVersion, scope: RevisionScope): TableView {
  return {
    id: version.tableId,
    readonly: !scope.isDraft || version.fromSeq < scope.seq,
    schema: version.schema,
    count: version.count,
    createdAt: version.createdAt,
    updatedAt: version.updatedAt,
  };
}

/** Reads of the `schemas` projection: the tables visible in a revision. */
export function createSchemaReader(store: ViewStore) {
  async function first(scope: RevisionScope, filter: Filter): Promise<TableVersion | null> {
    const docs = await store.find(SCHEMAS, 'tables', { filter: and(visibleAt(scope.branchId, scope.seq), filter), limit: 1 });
    return docs[0] === undefined ? null : tableVersion(docs[0]);
  }

  return {
    tableById(scope: RevisionScope, tableId: string): Promise<TableVersion | null> {
      return first(scope, eq('tableId', tableId));
    },

    /** The version of the same table (stable key) in the branch's HEAD. */
    headVersionOf(scope: RevisionScope, tableKey: string): Promise<TableVersion | null> {
      return first(Object.assign({}, scope, { seq: scope.headSeq }), eq('tableKey', tableKey));
    },

    /** Tables of the revision by id; `filter` narrows them (key table scope). */
    tables(scope: RevisionScope, filter: Filter, page: PageRequest): Promise<LazyConnection<TableView>> {
      const query = {
        projection: SCHEMAS,
        collection: 'tables',
        filter: and(visibleAt(scope.branchId, scope.seq), filter),
        keys: [fieldKey('tableId'), fieldKey('tableKey')],
        queryKey: { tables: scope.revisionId },
      };
      return keysetPage(store, query, page, (docs) => docs.map((doc) => tableView(tableVersion(doc), scope)));
    },

    /** Every table of the revision (at most 1000 by the tables-per-revision limit). */
    async allTables(scope: RevisionScope): Promise<TableVersion[]> {
      const docs = await store.find(SCHEMAS, 'tables', {
        filter: visibleAt(scope.branchId, scope.seq),
        orderBy: [{ ref: { field: 'tableId' }, direction: 'asc' }],
      });
      return docs.map(tableVersion);
    },
  };
}

export type SchemaReader = ReturnType<typeof createSchemaReader>;
