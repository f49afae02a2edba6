import { ApiError, needsSession, type ErrorDetail } from './apiError.ts';

export type GraphqlOptions = {
  /** false for calls that must not trigger a refresh (login): their 401 is the answer. */
  readonly session?: boolean;
};

export type ApiClient = {
  /** POST /graphql with the browser's cookies; resolves with `data` or rejects with the first error as ApiError. */
  graphql<T>(query: string, variables?: Record<string, unknown>, options?: GraphqlOptions): Promise<T>;
  /** POST /api/auth/logout (always 204); the cookies are cleared by the server. */
  logout(): Promise<void>;
};

export type ApiClientDeps = {
  readonly fetch: typeof fetch;
  /** Whether the `svc_session` cookie (auth.md §4) is present: a session may exist and refresh is worth a try. */
  readonly hasSessionFlag: () => boolean;
  /** Called when the session is gone (no flag, or refresh failed): the app shows the login page. */
  readonly onSessionLost: () => void;
};

type GraphqlError = { message?: unknown; extensions?: { code?: unknown; statusCode?: unknown; details?: unknown; retryAfter?: unknown } };

function retryAfterOf(error: GraphqlError, res: Response): number | null {
  const header = Number(res.headers.get('retry-after'));
  if (Number.isFinite(header) && header > 0) return header;
  const fromExtensions = Number(error.extensions?.retryAfter);
  return Number.isFinite(fromExtensions) && fromExtensions > 0 ? fromExtensions : null;
}

function toApiError(error: GraphqlError, res: Response): ApiError {
  const ext = error.extensions ?? {};
  const code = typeof ext.code === 'string' ? ext.code : 'INTERNAL_SERVER_ERROR';
  const status = typeof ext.statusCode === 'number' ? ext.statusCode : res.status;
  const details = Array.isArray(ext.details) ? (ext.details as ErrorDetail[]) : [];
  const message = typeof error.message === 'string' ? error.message : '';
  return new ApiError(code, message, status, details, retryAfterOf(error, res));
}

function statusCode(status: number): string {
  if (status === 401) return 'UNAUTHENTICATED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'ROUTE_NOT_FOUND';
  if (status === 503) return 'SERVICE_UNAVAILABLE';
  return 'INTERNAL_SERVER_ERROR';
}

/**
 * The only door to the server. Credentials are the browser's cookies (never a stored token). A call failing with
 * a 401-class error while `svc_session` is present refreshes the session once and is retried; concurrent calls
 * share one refresh, and a call that started before a refresh finished simply retries with the new cookie.
 */
export function createApiClient(deps: ApiClientDeps): ApiClient {
  let refreshing: Promise<boolean> | null = null;
  let generation = 0;

  async function post(url: string, body?: unknown): Promise<Response> {
    return deps.fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'Content-Type': 'application/json', Accept: 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  async function graphqlOnce<T>(query: string, variables: Record<string, unknown> | undefined): Promise<T> {
    let res: Response;
    try {
      res = await post('/graphql', { query, ...(variables ? { variables } : {}) });
    } catch {
      throw new ApiError('NETWORK_ERROR', 'The server could not be reached', 0);
    }
    type Body = { data?: unknown; errors?: GraphqlError[] } | null;
    let body: Body;
    try {
      body = (await res.json()) as Body;
    } catch {
      throw new ApiError(statusCode(res.status), '', res.status);
    }
    const first = body?.errors?.[0];
    if (first) throw toApiError(first, res);
    if (!res.ok || body?.data === undefined || body.data === null) throw new ApiError(statusCode(res.status), '', res.status);
    return body.data as T;
  }

  async function refreshNow(): Promise<boolean> {
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        const res = await post('/api/auth/refresh');
        await res.text();
        if (res.ok) {
          generation++;
          return true;
        }
        // REFRESH_IN_PROGRESS: another tab is rotating the same token; its successor arrives shortly.
        if (res.status !== 409) return false;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      return false;
    } catch {
      return false;
    }
  }

  function refreshShared(): Promise<boolean> {
    refreshing ??= refreshNow().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  return {
    async graphql<T>(query: string, variables?: Record<string, unknown>, options: GraphqlOptions = {}): Promise<T> {
      const startedAt = generation;
      try {
        return await graphqlOnce<T>(query, variables);
      } catch (err) {
        if (options.session === false || !needsSession(err)) throw err;
        if (!deps.hasSessionFlag()) {
          deps.onSessionLost();
          throw err;
        }
        const renewed = startedAt !== generation || (await refreshShared());
        if (!renewed) {
          deps.onSessionLost();
          throw err;
        }
      }
      try {
        return await graphqlOnce<T>(query, variables);
      } catch (err) {
        if (needsSession(err)) deps.onSessionLost();
        throw err;
      }
    },
    async logout() {
      try {
        const res = await post('/api/auth/logout');
        await res.text();
      } catch {
        // The cookies are cleared by the server when it answers; offline there is nothing more to do here.
      }
    },
  };
}
