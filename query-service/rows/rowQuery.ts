import type { Filter, TableModel } from '../../contracts/index.ts';
import type { KeysetKey } from '../paging/keysetPage.ts';
import { parsePageArgs, type PageRequest } from '../paging/pageArgs.ts';
import { parseOrderBy } from './rowOrderBy.ts';
import { parseWhere } from './rowWhere.ts';

export type RowQueryInput = {
  readonly first?: unknown;
  readonly after?: unknown;
  readonly where?: unknown;
  readonly orderBy?: unknown;
};

export type RowQueryContext = {
  readonly model: TableModel;
  /** Rows whose `readonly` is true in the revision read (see rowReader). */
  readonly readonlyRows: Filter;
  /** Ids of what the rows belong to (revision, table): part of the cursor binding. */
  readonly parentIds: readonly string[];
};

/** A validated row list request: filter and keyset order over row versions, the page, and the cursor binding. */
export type RowQuery = {
  readonly filter: Filter;
  readonly keys: readonly KeysetKey[];
  readonly page: PageRequest;
  readonly queryKey: unknown;
};

/**
 * Parses and validates a row list request (generated-api.md §3) against the table's model. Every failure is
 * BAD_USER_INPUT with `{path, message}` details; a cursor is checked against `queryKey` when the page is read.
 */
export function parseRowQuery(input: RowQueryInput, ctx: RowQueryContext): RowQuery {
  const page = parsePageArgs(input);
  const filter = parseWhere(input.where, ctx);
  const keys = parseOrderBy(input.orderBy, ctx.model);
  // Raw inputs (not the built filter) bind cursors, so a cursor survives a commit that changes draft sequences.
  const queryKey = { rows: ctx.parentIds, where: input.where ?? null, orderBy: input.orderBy ?? null };
  return { filter, keys, page, queryKey };
}
