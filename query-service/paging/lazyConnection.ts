import type { Connection } from '../../contracts/index.ts';

/**
 * A connection page whose `totalCount` is computed only when called (it is the most expensive field): GraphQL's
 * default resolver calls it only when selected; REST turns the page into a `Connection` with `resolveConnection`.
 * The count is memoized, so calling it twice costs one count.
 */
export type LazyConnection<T> = Omit<Connection<T>, 'totalCount'> & { readonly totalCount: () => Promise<number> };

/** Awaits the lazy count: the REST shape of a page. */
export async function resolveConnection<T>(page: LazyConnection<T>): Promise<Connection<T>> {
  return { edges: page.edges, pageInfo: page.pageInfo, totalCount: await page.totalCount() };
}
