import { AppError, findRevision, invariant, tableInScope } from '../../contracts/index.ts';
import type { Principal, RevisionRecord, SystemState } from '../../contracts/index.ts';
import type { LazyConnection } from '../paging/lazyConnection.ts';
import { parsePageArgs } from '../paging/pageArgs.ts';
import { pageOf, type ChangeQueries, type TableChange, type TableRowChange } from './changeQueries.ts';
import { isAncestorOrSelf } from './revisionAncestry.ts';
import type { RowChangeKind } from './rowPairing.ts';

/** Arguments of the generated `changes` reads (changes.md §3), as the client sent them. */
export type ChangesSinceArgs = {
  readonly since?: unknown;
  readonly first?: unknown;
  readonly after?: unknown;
  readonly changes?: readonly RowChangeKind[] | null;
};

/** Who asks and which revision the endpoint serves. */
export type ChangesSinceCaller = { readonly state: SystemState; readonly principal: Principal; readonly servedRevisionId: string };

function badInput(path: string, message: string): AppError {
  return new AppError('BAD_USER_INPUT', message, [{ path, message }]);
}

/**
 * `since` for an endpoint serving `served`: required; an unknown id -> 404 REVISION_NOT_FOUND; anything but the
 * served revision or one of its ancestors -> 400 BAD_USER_INPUT.
 */
function sinceRevision(state: SystemState, served: RevisionRecord, since: unknown): RevisionRecord {
  if (typeof since !== 'string' || since === '') throw badInput('/since', 'since must be a revision id');
  const base = findRevision(state, since);
  if (base === null) throw new AppError('REVISION_NOT_FOUND', `Revision "${since}" not found`);
  if (!isAncestorOrSelf(state, base, served)) throw badInput('/since', 'since must be the served revision or one of its ancestors');
  return base;
}

function servedRevision(state: SystemState, servedRevisionId: string): RevisionRecord {
  const served = state.revisions.get(servedRevisionId);
  invariant(served, `served revision ${servedRevisionId} is known`);
  return served;
}

/** Row changes of every in-scope table between `since` and the served revision, by (tableId, rowId), paged. */
export async function rowChangesSince(
  queries: ChangeQueries,
  caller: ChangesSinceCaller,
  args: ChangesSinceArgs,
): Promise<LazyConnection<TableRowChange>> {
  const page = parsePageArgs(args);
  const served = servedRevision(caller.state, caller.servedRevisionId);
  const base = sinceRevision(caller.state, served, args.since);
  const kinds = args.changes ?? null;
  const visible = (tableId: string) => tableInScope(caller.principal, tableId);
  const rows = await queries.rowChanges(caller.state, served, base, { tableId: null, kinds, visible });
  // (tableId, rowId) as one key: `\0` sorts before every character, so the text order is the pair order.
  return pageOf(rows, (row) => `${row.tableId}\0${row.rowId}`, page, { changesSince: base.id, served: served.id, kinds });
}

/** Table changes of every in-scope table between `since` and the served revision. */
export function tableChangesSince(queries: ChangeQueries, caller: ChangesSinceCaller, since: unknown): Promise<TableChange[]> {
  const served = servedRevision(caller.state, caller.servedRevisionId);
  const base = sinceRevision(caller.state, served, since);
  return queries.tableChanges(caller.state, served, base, (tableId) => tableInScope(caller.principal, tableId));
}
