import { AppError, assertCanRead, assertTableScope, projectTarget, resolveRevision, tableInScope } from '../../../contracts/index.ts';
import type { Principal, SystemState } from '../../../contracts/index.ts';
import { parsePageArgs } from '../../paging/pageArgs.ts';
import { readonlyRowsFilter, rowReadonlyOf, type TableContext } from '../../readers/rowReader.ts';
import { revisionScopeOf, type RevisionScope } from '../../readers/revisionScope.ts';
import { tableView, type TableVersion } from '../../readers/schemaReader.ts';
import { parseRowQuery } from '../../rows/rowQuery.ts';
import { type OperationDeps } from './operationDeps.ts';
import { tableScopeFilter } from './scopeFilters.ts';
import type { SystemOperations, TableRef } from './operationTypes.ts';

type ContentOperations = Pick<SystemOperations, 'tables' | 'table' | 'tableSchema' | 'foreignKeysTo' | 'foreignKeysBy' | 'rows' | 'row'>;

/** Tables and rows of a revision (system-api.md §3.2, domain.md §4). */
export function createContentOperations(deps: OperationDeps): ContentOperations {
  const { schemas, rows, models } = deps;
  const current = () => deps.systemState.current();

  /** Steps 4-6 of auth.md §10 for something inside a table: revision, branch/table scope, read access. */
  function authorizeTable(state: SystemState, principal: Principal, ref: TableRef, subject: 'Table' | 'Row'): RevisionScope {
    const { project, revision } = resolveRevision(state, principal, ref.revisionId);
    assertTableScope(principal, ref.tableId);
    assertCanRead(state, principal, subject, projectTarget(project));
    return revisionScopeOf(state, revision);
  }

  async function tableVersion(scope: RevisionScope, tableId: string): Promise<TableVersion> {
    const version = await schemas.tableById(scope, tableId);
    if (version === null) throw new AppError('TABLE_NOT_FOUND', `Table "${tableId}" not found in the revision`);
    return version;
  }

  async function tableContext(scope: RevisionScope, tableId: string): Promise<TableContext> {
    const version = await tableVersion(scope, tableId);
    return { scope, version, compiled: models(version.schema), readonly: await rowReadonlyOf(schemas, scope, version) };
  }

  async function authorizedVersion(ctx: { principal: Principal }, ref: TableRef): Promise<TableVersion> {
    const state = await current();
    const scope = authorizeTable(state, ctx.principal, ref, 'Table');
    return tableVersion(scope, ref.tableId);
  }

  return {
    async tables(ctx, args) {
      const state = await current();
      const { project, revision } = resolveRevision(state, ctx.principal, args.revisionId);
      assertCanRead(state, ctx.principal, 'Table', projectTarget(project));
      const page = parsePageArgs(args);
      return schemas.tables(revisionScopeOf(state, revision), tableScopeFilter(ctx.principal), page);
    },

    async table(ctx, ref) {
      const state = await current();
      const scope = authorizeTable(state, ctx.principal, ref, 'Table');
      return tableView(await tableVersion(scope, ref.tableId), scope);
    },

    async tableSchema(ctx, ref) {
      return (await authorizedVersion(ctx, ref)).schema;
    },

    async foreignKeysTo(ctx, ref) {
      const version = await authorizedVersion(ctx, ref);
      const targets = new Set(models(version.schema).model.foreignKeys.map((fk) => fk.tableId));
      return [...targets].filter((id) => tableInScope(ctx.principal, id)).sort();
    },

    async foreignKeysBy(ctx, ref) {
      const state = await current();
      const scope = authorizeTable(state, ctx.principal, ref, 'Table');
      await tableVersion(scope, ref.tableId);
      const referencing = (await schemas.allTables(scope)).filter(
        (table) => tableInScope(ctx.principal, table.tableId) && models(table.schema).model.foreignKeys.some((fk) => fk.tableId === ref.tableId),
      );
      return referencing.map((table) => table.tableId).sort();
    },

    async rows(ctx, args) {
      const state = await current();
      const scope = authorizeTable(state, ctx.principal, args, 'Row');
      parsePageArgs(args);
      const table = await tableContext(scope, args.tableId);
      const query = parseRowQuery(args, {
        model: table.compiled.model,
        readonlyRows: readonlyRowsFilter(table.readonly),
        parentIds: [args.revisionId, args.tableId],
      });
      return rows.rows(table, query);
    },

    async row(ctx, args) {
      const state = await current();
      const scope = authorizeTable(state, ctx.principal, args, 'Row');
      const table = await tableContext(scope, args.tableId);
      const row = await rows.row(table, args.rowId);
      if (row === null) throw new AppError('ROW_NOT_FOUND', `Row "${args.rowId}" not found in table "${args.tableId}"`);
      return row;
    },
  };
}
