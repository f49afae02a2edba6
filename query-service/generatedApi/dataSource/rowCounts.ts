import { createBoundedCache } from '../../../contracts/index.ts';
import { readKept, type Finality } from './finality.ts';
import type { GeneratedRequest } from './generatedRequest.ts';

/** Kept counts: entries, and bytes (the keys hold `where` texts). */
export const ROW_COUNTS_CACHE = { maxEntries: 10_000, maxBytes: 8 * 1024 * 1024 };

/**
 * `totalCount` of filtered lists of committed revisions, kept for good (docs/reference/performance.md: the count is the most
 * expensive part of a list). A committed revision's rows never change once the `rows` projection has caught up with
 * its commit; the system state already knows the commit, so a checkpoint at or after the state's position — read
 * before counting — proves the count final. Drafts, and lists without `where` (their count is the table's, kept in
 * the views), are counted as they come.
 */
export function createRowCounts(isFinal: Finality) {
  const counts = createBoundedCache<string, number>(ROW_COUNTS_CACHE);

  return async function totalCount(request: GeneratedRequest, tableId: string, where: unknown, count: () => Promise<number>): Promise<number> {
    const { scope, revisionId } = request.served;
    if (scope.isDraft || where === undefined || where === null) return count();
    // JSON text of the input as given: equal texts are equal filters.
    const key = `${revisionId}\0${tableId}\0${JSON.stringify(where)}`;
    return readKept(isFinal, counts, key, { projection: 'rows', position: request.state.position }, count);
  };
}

export type RowCounts = ReturnType<typeof createRowCounts>;
