import { AppError, assertCanRead, assertTableScope, projectTarget, resolveRevision } from '../../contracts/index.ts';
import type { Principal, RowView, Scalar, SystemState, ViewStore } from '../../contracts/index.ts';
import { MATCH_ALL } from '../paging/filters.ts';
import type { KeysetKey } from '../paging/keysetPage.ts';
import type { RowIndexes } from '../readers/rowIndexes.ts';
import { createRowReader, rowReadonlyOf, type TableContext } from '../readers/rowReader.ts';
import { revisionScopeOf } from '../readers/revisionScope.ts';
import { createSchemaReader } from '../readers/schemaReader.ts';
import { createTableModels } from '../readers/tableModels.ts';

/** Rows read per page while streaming a table: bounded memory whatever the table's size. */
export const EXPORT_PAGE_SIZE = 1000;

const BY_ID: readonly KeysetKey[] = [
  { ref: { field: 'rowId' }, direction: 'asc', valueOf: (doc) => doc.rowId, accepts: (value: Scalar) => typeof value === 'string' },
];

/** The tables and rows of a revision as the portability routes read them: access-checked, by row id, page by page. */
export function createTableRows(viewStore: ViewStore, indexes: RowIndexes) {
  const schemas = createSchemaReader(viewStore);
  const rows = createRowReader(viewStore, indexes);
  const models = createTableModels();

  /**
   * auth.md §10 steps 4-6 for a table of a revision (read access on `Row`), then its version, model and readonly
   * rule. `draft: true` also requires the revision to be its branch's draft (400 REVISION_NOT_DRAFT).
   */
  async function table(state: SystemState, principal: Principal, revisionId: string, tableId: string, draft = false): Promise<TableContext> {
    const { project, revision } = resolveRevision(state, principal, revisionId);
    assertTableScope(principal, tableId);
    assertCanRead(state, principal, 'Row', projectTarget(project));
    const scope = revisionScopeOf(state, revision);
    if (draft && !scope.isDraft) throw new AppError('REVISION_NOT_DRAFT', `Revision "${revisionId}" is not a draft`);
    const version = await schemas.tableById(scope, tableId);
    if (version === null) throw new AppError('TABLE_NOT_FOUND', `Table "${tableId}" not found in the revision`);
    return { scope, version, compiled: models(version.schema), readonly: await rowReadonlyOf(schemas, scope, version) };
  }

  /** Every row of the table ordered by id, one keyset page at a time. */
  async function* pages(context: TableContext, pageSize = EXPORT_PAGE_SIZE): AsyncGenerator<readonly RowView[]> {
    let after: string | null = null;
    for (;;) {
      const query = { filter: MATCH_ALL, keys: BY_ID, page: { first: pageSize, after }, queryKey: { export: context.version.tableKey } };
      const page = await rows.rows(context, query);
      if (page.edges.length > 0) yield page.edges.map((edge) => edge.node);
      if (!page.pageInfo.hasNextPage || page.pageInfo.endCursor === null) return;
      after = page.pageInfo.endCursor;
    }
  }

  return { table, pages, schemas, models };
}

export type TableRows = ReturnType<typeof createTableRows>;
