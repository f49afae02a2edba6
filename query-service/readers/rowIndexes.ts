import type { Logger } from 'pino';
import type { SortIndex, SortKey, ViewStore } from '../../contracts/index.ts';

/** Distinct row sorts indexed per process; each index costs every row write a little, so their number is bounded. */
export const MAX_ROW_INDEXES = 100;

/** Row lists filter on (branchId, tableKey) by equality and sort by their keys: the index leads with both. */
const ROW_EQUAL: readonly string[] = ['branchId', 'tableKey'];

/**
 * Indexes for row lists (system REST/GraphQL, MCP and the generated endpoints alike: rowReader.ts), created on first
 * use (PERFORMANCE.md: an unindexed sort over 100k rows costs 100+ ms): the first list with a given order (json path,
 * cast and direction per key, then the id tiebreaker) asks the view store for an index over exactly that order.
 * Filters are evaluated while reading the sort index; they get no index of their own, because the planner would then
 * prefer it and sort the matches in a temporary B-tree. The list does not wait for the build (34 s at a million
 * rows; the view store builds off the event loop where it can): until the index exists lists run without it, under
 * the read budget (QUERY_TIMEOUT_MS). A failure is logged and lists are served without the index.
 */
export function createRowIndexes(store: ViewStore, log: Logger) {
  const ensured = new Map<string, Promise<void>>();
  let warnedFull = false;

  return {
    /** Starts the build of the index of `keys` if needed; resolves once it exists (or failed: logged). */
    async ensure(keys: readonly SortKey[]): Promise<void> {
      const index: SortIndex = { equal: ROW_EQUAL, sort: keys.map((k) => ({ ref: k.ref, direction: k.direction })) };
      // A rebuild activates a new, unindexed version of the rows projection.
      const id = `${await store.activeVersion('rows')}:${JSON.stringify(index.sort)}`;
      let pending = ensured.get(id);
      if (pending === undefined) {
        if (ensured.size >= MAX_ROW_INDEXES) {
          if (!warnedFull) log.warn({ max: MAX_ROW_INDEXES }, 'row index limit reached; further sorts are not indexed');
          warnedFull = true;
          return;
        }
        pending = store.ensureIndex('rows', 'rows', index).catch((err: unknown) => {
          log.warn({ err, index: id }, 'row index could not be created');
        });
        ensured.set(id, pending);
      }
      await pending;
    },
  };
}

export type RowIndexes = ReturnType<typeof createRowIndexes>;
