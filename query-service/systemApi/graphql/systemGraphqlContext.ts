import type { Position, TableView } from '../../../contracts/index.ts';
import type { SessionCookieValues } from '../../http/sessionCookies.ts';
import type { LazyConnection, RequestContext } from '../operations/systemOperations.ts';
import { toPlainJson } from '../../graphqlKit/scalars.ts';

/** The HTTP side of a session-changing field (`login`, `updatePassword`): CSRF gate and the cookies of auth.md §4. */
export type SessionEdge = {
  /** The CSRF gate of auth.md §6.1 for operations that are always gated (login). */
  assertCsrf(): void;
  setCookies(values: SessionCookieValues): void;
  clearCookies(): void;
  /** Sets `Retry-After` on the HTTP response (a throttled `login` field: the response itself is a 200). */
  setRetryAfter(seconds: string): void;
};

/** Per-request context of the system GraphQL resolvers. */
export type SystemGraphqlContext = {
  readonly request: RequestContext;
  /** Client IP (login throttling). */
  readonly clientIp: string;
  readonly session: SessionEdge;
  /** Position of the last successful mutation of this request, reported as `extensions.position`. */
  position: Position | null;
};

/** Field arguments: the one `data` argument of system fields, or plain arguments (`apiKeyById(id:)`). */
export type DataArgs = { readonly data?: unknown; readonly [name: string]: unknown };

/**
 * The `data` argument merged over the plain arguments (`updateWebhook(id:, data:)`), as plain JSON (an omitted
 * optional `data` is `{}`).
 */
export function dataOf(args: DataArgs): Record<string, unknown> {
  const { data, ...plain } = args;
  const merged = data === undefined || data === null ? plain : { ...plain, ...(data as Record<string, unknown>) };
  return (toPlainJson(merged) ?? {}) as Record<string, unknown>;
}

/**
 * Table views do not carry their revision; nested Table fields (rows, foreign keys) need it. Tables leaving a
 * resolver are tagged with the revision they were read from.
 */
const REVISION_ID = Symbol('strata.table.revisionId');

export type TaggedTable = TableView & { readonly [REVISION_ID]?: string };

export function tagTable(table: TableView, revisionId: string): TaggedTable {
  return { ...table, [REVISION_ID]: revisionId };
}

export function tagTables(page: LazyConnection<TableView>, revisionId: string): LazyConnection<TaggedTable> {
  return { ...page, edges: page.edges.map((edge) => ({ ...edge, node: tagTable(edge.node, revisionId) })) };
}

export function revisionIdOfTable(table: TaggedTable): string {
  const revisionId = table[REVISION_ID];
  if (revisionId === undefined) throw new Error('invariant violated: table without its revision');
  return revisionId;
}
