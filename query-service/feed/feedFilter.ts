import { AppError, branchInScope, changeEventTypes, isPosition, tableInScope } from '../../contracts/index.ts';
import type { ChangeEventPayload, Position, Principal, RoutedChangeEvent, SystemState } from '../../contracts/index.ts';

/** What one stream asked for (changes.md §5): its project, optional types and branch names, where to start. */
export type FeedRequest = {
  readonly projectId: string;
  readonly types: ReadonlySet<string> | null;
  readonly branchNames: readonly string[] | null;
  /** Replay after this position; null = start at the log head. */
  readonly after: Position | null;
};

/** `types=a,b`, `branch=x` (repeatable), `after=` or `Last-Event-ID`; unknown types or positions -> 400. */
export function parseFeedQuery(query: URLSearchParams, lastEventId: string | null): Omit<FeedRequest, 'projectId'> {
  const typeList = query
    .getAll('types')
    .flatMap((value) => value.split(','))
    .filter((type) => type !== '');
  for (const type of typeList) {
    if (!(changeEventTypes as readonly string[]).includes(type)) {
      const message = `types must list event types among ${changeEventTypes.join(', ')}`;
      throw new AppError('BAD_USER_INPUT', message, [{ path: '/types', message }]);
    }
  }
  const branches = query.getAll('branch').filter((name) => name !== '');
  const after = lastEventId ?? query.get('after');
  if (after !== null && after !== '' && !isPosition(after)) throw new AppError('BAD_REQUEST', `"${after}" is not a log position`);
  return {
    types: typeList.length > 0 ? new Set(typeList) : null,
    branchNames: branches.length > 0 ? branches : null,
    after: after === null || after === '' ? null : after,
  };
}

/**
 * The payload a principal may see of an event of its stream, or null: other projects, types and branches are left
 * out, and for API keys events of out-of-scope branches and tables; a commit lists only in-scope tables.
 */
export function visiblePayload(event: RoutedChangeEvent, request: FeedRequest, principal: Principal, state: SystemState): ChangeEventPayload | null {
  if (event.projectId !== request.projectId) return null;
  if (request.types !== null && !request.types.has(event.payload.type)) return null;
  if (request.branchNames !== null && !request.branchNames.some((n) => n === event.branchName || (n === '$default' && event.branchIsRoot)))
    return null;
  const branch = [...(state.projects.get(event.projectId)?.branchIds ?? [])]
    .map((id) => state.branches.get(id))
    .find((b) => b?.name === event.branchName);
  if (branch && !branchInScope(principal, branch)) return null;
  if (event.payload.type === 'revision.committed') {
    const changes = event.payload.data.changes as { tables: { tableId: string; rowChanges: { total: number } }[] };
    const tables = changes.tables.filter((t) => tableInScope(principal, t.tableId));
    if (tables.length === changes.tables.length) return event.payload;
    const totalRowChanges = tables.reduce((sum, t) => sum + t.rowChanges.total, 0);
    return { ...event.payload, data: { ...event.payload.data, changes: { ...changes, tables, totalRowChanges } } };
  }
  if (event.tableIds !== null && !event.tableIds.some((id) => tableInScope(principal, id))) return null;
  return event.payload;
}
