import { AppError, assertCanRead, assertTableScope, findRevision, projectTarget, resolveRevision, tableInScope } from '../../../contracts/index.ts';
import type { Principal, RevisionRecord, SystemState } from '../../../contracts/index.ts';
import { defaultBaseOf } from '../../changes/revisionAncestry.ts';
import type { ChangeQueries } from '../../changes/changeQueries.ts';
import { pageOf } from '../../changes/changeQueries.ts';
import { parsePageArgs } from '../../paging/pageArgs.ts';
import { revisionScopeOf } from '../../readers/revisionScope.ts';
import type { OperationDeps } from './operationDeps.ts';
import type { SystemOperations } from './operationTypes.ts';

type ChangeOperations = Pick<SystemOperations, 'revisionChanges' | 'rowChanges' | 'rowHistory'>;

/**
 * The base of a diff (changes.md §1): `compareWith` (a revision of the same project, any branch) or the default.
 * Unknown -> 404 REVISION_NOT_FOUND; another project -> 400 BAD_USER_INPUT.
 */
export function resolveBase(
  state: SystemState,
  principal: Principal,
  target: RevisionRecord,
  compareWith: string | null | undefined,
): RevisionRecord | null {
  if (compareWith === undefined || compareWith === null) return defaultBaseOf(state, target);
  const base = findRevision(state, compareWith);
  if (base === null) throw new AppError('REVISION_NOT_FOUND', `Revision "${compareWith}" not found`);
  if (base.projectId !== target.projectId) {
    const message = 'compareWith must be a revision of the same project';
    throw new AppError('BAD_USER_INPUT', message, [{ path: '/compareWith', message }]);
  }
  return resolveRevision(state, principal, compareWith).revision;
}

/** Revision changes and row history of the system API (changes.md §1-§2): `read Revision` + `read Row`. */
export function createChangeOperations(deps: OperationDeps & { readonly changeQueries: ChangeQueries }): ChangeOperations {
  const { changeQueries, schemas } = deps;
  const current = () => deps.systemState.current();

  function authorize(state: SystemState, principal: Principal, revisionId: string): RevisionRecord {
    const { project, revision } = resolveRevision(state, principal, revisionId);
    assertCanRead(state, principal, 'Revision', projectTarget(project));
    assertCanRead(state, principal, 'Row', projectTarget(project));
    return revision;
  }

  return {
    async revisionChanges(ctx, args) {
      const state = await current();
      const target = authorize(state, ctx.principal, args.revisionId);
      const base = resolveBase(state, ctx.principal, target, args.compareWith);
      return changeQueries.revisionChanges(state, target, base, (tableId) => tableInScope(ctx.principal, tableId));
    },

    async rowChanges(ctx, args) {
      const state = await current();
      const target = authorize(state, ctx.principal, args.revisionId);
      assertTableScope(ctx.principal, args.tableId);
      const page = parsePageArgs(args);
      const base = resolveBase(state, ctx.principal, target, args.compareWith);
      const kinds = args.changes ?? null;
      const rows = await changeQueries.rowChanges(state, target, base, { tableId: args.tableId, kinds, visible: () => true });
      const queryKey = { rowChanges: target.id, base: base?.id ?? null, tableId: args.tableId, kinds };
      return pageOf(rows, (row) => row.rowId, page, queryKey);
    },

    async rowHistory(ctx, args) {
      const state = await current();
      const revision = authorize(state, ctx.principal, args.revisionId);
      assertTableScope(ctx.principal, args.tableId);
      const page = parsePageArgs(args);
      const table = await schemas.tableById(revisionScopeOf(state, revision), args.tableId);
      if (table === null) throw new AppError('TABLE_NOT_FOUND', `Table "${args.tableId}" not found in the revision`);
      return changeQueries.rowHistory(state, revision, table, args.rowId, page);
    },
  };
}
