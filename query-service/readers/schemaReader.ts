import { resolveTableLayers, visibleAt } from '../../contracts/index.ts';
import type { Filter, JsonObject, TableView, ViewDoc, ViewStore } from '../../contracts/index.ts';
import { and, eq, not } from '../paging/filters.ts';
import { fieldKey, keysetPage, keysetPageOf } from '../paging/keysetPage.ts';
import type { PageRequest } from '../paging/pageArgs.ts';
import type { LazyConnection } from '../paging/lazyConnection.ts';
import { headScopeOf, isDraftVersion, type RevisionScope } from './revisionScope.ts';

const SCHEMAS = 'schemas';

/**
 * A table version of the `schemas` projection (contracts/views/viewSpecs.ts) as a revision sees it: the topmost
 * version of the table in the revision's layers (`branchId`, `fromSeq`), its partial fields filled from below.
 */
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
    readonly: !isDraftVersion(scope, version),
    schema: version.schema,
    count: version.count,
    createdAt: version.createdAt,
    updatedAt: version.updatedAt,
  };
}

const NOT_TOMBSTONE: Filter = not(eq('tombstone', true));

/**
 * The few filters table reads use (table scope: `tableId` in a list), evaluated on resolved table versions. A
 * revision of a branch created from another resolves its tables from every layer (partial versions take fields from
 * below), so filters on those fields cannot run in the store.
 */
function matches(filter: Filter, doc: ViewDoc): boolean {
  switch (filter.kind) {
    case 'all':
      return true;
    case 'and':
      return filter.filters.every((part) => matches(part, doc));
    case 'or':
      return filter.filters.some((part) => matches(part, doc));
    case 'not':
      return !matches(filter.filter, doc);
    case 'compare':
      if (filter.op === 'eq' && filter.ref.path === undefined && filter.ref.cast === undefined) return doc[filter.ref.field] === filter.value;
      break;
    case 'in':
      if (filter.ref.path === undefined && filter.ref.cast === undefined) return filter.values.includes(doc[filter.ref.field] as never);
      break;
    default:
      break;
  }
  throw new Error(`table filter ${JSON.stringify(filter)} cannot be evaluated on resolved tables`);
}

/**
 * Reads of the `schemas` projection: the tables visible in a revision. A revision of a root branch reads its one
 * layer with store filters; a branch created from another reads each layer (tables are few) and resolves them with
 * contracts' `resolveTableLayers` (docs/reference/versioned-storage.md §1).
 */
export function createSchemaReader(store: ViewStore) {
  /** Every table document of each layer, resolved: the revision's tables. */
  async function resolved(scope: RevisionScope): Promise<ViewDoc[]> {
    const perLayer = await Promise.all(scope.layers.map((layer) => store.find(SCHEMAS, 'tables', { filter: visibleAt(layer.branchId, layer.seq) })));
    return resolveTableLayers(perLayer);
  }

  async function first(scope: RevisionScope, filter: Filter): Promise<TableVersion | null> {
    if (scope.layers.length > 1) {
      const found = (await resolved(scope)).find((doc) => matches(filter, doc));
      return found === undefined ? null : tableVersion(found);
    }
    const docs = await store.find(SCHEMAS, 'tables', { filter: and(visibleAt(scope.branchId, scope.seq), NOT_TOMBSTONE, filter), limit: 1 });
    return docs[0] === undefined ? null : tableVersion(docs[0]);
  }

  return {
    tableById(scope: RevisionScope, tableId: string): Promise<TableVersion | null> {
      return first(scope, eq('tableId', tableId));
    },

    /** The version of the same table (stable key) in the branch's HEAD. */
    headVersionOf(scope: RevisionScope, tableKey: string): Promise<TableVersion | null> {
      return first(headScopeOf(scope), eq('tableKey', tableKey));
    },

    /** Tables of the revision by id; `filter` narrows them (key table scope). */
    async tables(scope: RevisionScope, filter: Filter, page: PageRequest): Promise<LazyConnection<TableView>> {
      const query = {
        projection: SCHEMAS,
        collection: 'tables',
        filter: and(visibleAt(scope.branchId, scope.seq), NOT_TOMBSTONE, filter),
        keys: [fieldKey('tableId'), fieldKey('tableKey')],
        queryKey: { tables: scope.revisionId },
      };
      const toNodes = (docs: readonly ViewDoc[]) => docs.map((doc) => tableView(tableVersion(doc), scope));
      if (scope.layers.length === 1) return keysetPage(store, query, page, toNodes);
      const docs = (await resolved(scope)).filter((doc) => matches(filter, doc));
      return keysetPageOf(docs, query, page, toNodes);
    },

    /** Every table of the revision (at most 1000 by the tables-per-revision limit), by id. */
    async allTables(scope: RevisionScope): Promise<TableVersion[]> {
      if (scope.layers.length > 1) {
        const docs = (await resolved(scope)).map(tableVersion);
        return docs.sort((a, b) => (a.tableId < b.tableId ? -1 : a.tableId > b.tableId ? 1 : 0));
      }
      const docs = await store.find(SCHEMAS, 'tables', {
        filter: and(visibleAt(scope.branchId, scope.seq), NOT_TOMBSTONE),
        orderBy: [{ ref: { field: 'tableId' }, direction: 'asc' }],
      });
      return docs.map(tableVersion);
    },
  };
}

export type SchemaReader = ReturnType<typeof createSchemaReader>;
