import { keepPreviousData, QueryClient, useQuery, useQueryClient, type QueryKey, type UseQueryResult } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { Operation } from '../api/operation.ts';
import { queryKeys } from './queryKeys.ts';
import { useApi } from './session.tsx';

/**
 * The app's one query cache (TanStack Query), made per App instance. Failed reads are not retried (the API client
 * already renews the session once; other errors are shown with a Retry button), and window focus does not refetch:
 * data is refreshed when a screen mounts and when a write invalidates it.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } } });
}

/** What a screen shows of a query: loading, an error (with a retry), or the data. */
export type Loadable<T> = {
  readonly status: 'pending' | 'error' | 'success';
  readonly data: T | undefined;
  readonly error: unknown;
  refetch?(): unknown;
};

type OperationOptions<R, T> = {
  /** What the screen keeps of the result (e.g. the connection inside `data`). */
  readonly select?: (result: R) => T;
  /** False while the variables are not known yet (a dependent query). */
  readonly enabled?: boolean;
  /** Milliseconds between background refreshes (live screens). */
  readonly refetchInterval?: number;
  /** Keep showing the previous variables' answer while the new one loads (search as you type). */
  readonly keepPrevious?: boolean;
};

/** One generated operation as a cached query under `key` (which must start with a key of queryKeys.ts). */
export function useOperation<R, V, T = R>(
  key: QueryKey,
  operation: Operation<R, V>,
  variables: V,
  options: OperationOptions<R, T> = {},
): UseQueryResult<T> {
  const api = useApi();
  return useQuery({
    queryKey: [...key, operation.name, variables],
    queryFn: () => api.request(operation, variables),
    ...(options.select ? { select: options.select } : {}),
    ...(options.enabled === undefined ? {} : { enabled: options.enabled }),
    ...(options.refetchInterval === undefined ? {} : { refetchInterval: options.refetchInterval }),
    ...(options.keepPrevious ? { placeholderData: keepPreviousData } : {}),
  }) as UseQueryResult<T>;
}

/** A read made of several calls (or a best-effort composite) as a cached query under `key`. */
export function useLoaded<T>(
  key: QueryKey,
  load: () => Promise<T>,
  options: { readonly enabled?: boolean; readonly gcTime?: number } = {},
): UseQueryResult<T> {
  return useQuery({
    queryKey: key,
    queryFn: load,
    ...(options.enabled === undefined ? {} : { enabled: options.enabled }),
    ...(options.gcTime === undefined ? {} : { gcTime: options.gcTime }),
  });
}

/**
 * Marks cached data stale by key prefix and waits until what is on screen has been read again, so a write's
 * success message appears with the data it changed. Queries not on screen load again when they are next shown.
 */
export function useInvalidate(): (...keys: readonly QueryKey[]) => Promise<void> {
  const client = useQueryClient();
  return useCallback(
    async (...keys: readonly QueryKey[]) => {
      await Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
    },
    [client],
  );
}

/** A write inside a project (branch, revision, table, row, endpoint, visibility): its screens and revision contents. */
export function projectContentKeys(org: string, project: string): readonly QueryKey[] {
  return [queryKeys.project(org, project), queryKeys.revisions()];
}
