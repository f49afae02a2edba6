/** One item of an error's `details` (errors.md §4); which keys are present depends on the code. */
export type ErrorDetail = {
  readonly path?: string;
  readonly message?: string;
  readonly keyword?: string;
  readonly index?: number;
  readonly rowId?: string;
  readonly tableId?: string;
  readonly missingRowIds?: readonly string[];
  readonly rowIds?: readonly string[];
};

/** A failed call of the system API: the stable error code, the server's message and its details. */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: readonly ErrorDetail[];
  /** Seconds until a RATE_LIMITED login may be retried, when the server said so. */
  readonly retryAfterSeconds: number | null;

  constructor(code: string, message: string, status: number, details: readonly ErrorDetail[] = [], retryAfterSeconds: number | null = null) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.details = details;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export function isApiError(err: unknown, code?: string): err is ApiError {
  return err instanceof ApiError && (code === undefined || err.code === code);
}

/** Codes after which the call may succeed with a refreshed access token (auth.md §4: refresh on a 401). */
const SESSION_CODES = new Set(['UNAUTHENTICATED', 'TOKEN_EXPIRED', 'TOKEN_INVALID', 'TOKEN_REVOKED']);

export function needsSession(err: unknown): boolean {
  return err instanceof ApiError && (SESSION_CODES.has(err.code) || (err.status === 401 && err.code !== 'INVALID_CREDENTIALS'));
}
