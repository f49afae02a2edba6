import { ApiError, needsSession, type ErrorDetail } from './apiError.ts';
import { batchPart, batchRequest, type Operation } from './operation.ts';

export type GraphqlOptions = {
  /** false for calls that must not trigger a refresh (login): their 401 is the answer. */
  readonly session?: boolean;
};

export type ApiClient = {
  /**
   * Runs one generated operation (src/api/generated/operations.ts) with POST /graphql and the browser's cookies;
   * resolves with its typed `data` or rejects with the first error as ApiError.
   */
  request<R, V>(operation: Operation<R, V>, variables: V, options?: GraphqlOptions): Promise<R>;
  /** Runs an operation marked `# @batch` once per entry of `variables`, all in one request; answers in order. */
  batch<R, V>(operation: Operation<R, V>, variables: readonly V[]): Promise<R[]>;
  /** POST /api/auth/logout (always 204); the cookies are cleared by the server. */
  logout(): Promise<void>;
  /** POST /api/auth/logout-all: ends every session of the user (auth.md §7.3); the cookies are cleared. */
  logoutAll(): Promise<void>;
  /**
   * POSTs a file as the body of a REST route (table import, bundle import: portability.md §2-§3) with the browser's
   * cookies and resolves with the JSON answer; a refusal rejects as ApiError with the body's code and `details`.
   */
  upload<T>(url: string, body: Blob, contentType: string): Promise<T>;
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

  /** Runs `once`; a session error while `svc_session` is present refreshes once (shared) and runs it again. */
  async function withSession<T>(once: () => Promise<T>, options: GraphqlOptions = {}): Promise<T> {
    const startedAt = generation;
    try {
      return await once();
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
      return await once();
    } catch (err) {
      if (needsSession(err)) deps.onSessionLost();
      throw err;
    }
  }

  async function restOnce(url: string, upload?: { readonly body: Blob; readonly contentType: string }): Promise<unknown> {
    let res: Response;
    try {
      res = upload
        ? await deps.fetch(url, {
            method: 'POST',
            credentials: 'same-origin',
            headers: { 'Content-Type': upload.contentType, Accept: 'application/json' },
            body: upload.body,
          })
        : await post(url);
    } catch {
      throw new ApiError('NETWORK_ERROR', 'The server could not be reached', 0);
    }
    const text = await res.text();
    let body: { code?: unknown; message?: unknown; details?: unknown } | null = null;
    try {
      body = JSON.parse(text) as { code?: unknown; message?: unknown; details?: unknown };
    } catch {
      // Not a Strata error body (a proxy's page): the status decides the code.
    }
    if (res.ok) return body;
    const code = typeof body?.code === 'string' ? body.code : statusCode(res.status);
    const details = Array.isArray(body?.details) ? (body.details as ErrorDetail[]) : [];
    throw new ApiError(code, typeof body?.message === 'string' ? body.message : '', res.status, details);
  }

  return {
    request(operation, variables, options) {
      return withSession(() => graphqlOnce(operation.source, variables as Record<string, unknown>), options);
    },
    async batch<R, V>(operation: Operation<R, V>, variables: readonly V[]): Promise<R[]> {
      const template = operation.batch;
      if (template === undefined) throw new Error(`${operation.name} is not marked # @batch`);
      if (variables.length === 0) return [];
      const sent = batchRequest(operation.name, template, variables);
      const data = await withSession(() => graphqlOnce<Record<string, unknown>>(sent.source, sent.variables));
      return variables.map((_, index) => batchPart(data, index) as R);
    },
    async logoutAll() {
      await withSession(() => restOnce('/api/auth/logout-all'));
    },
    async upload<T>(url: string, body: Blob, contentType: string): Promise<T> {
      return (await withSession(() => restOnce(url, { body, contentType }))) as T;
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
