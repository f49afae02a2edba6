import { errorCatalogue, type ErrorCode } from './catalogue.ts';

export type ErrorDetail = Readonly<Record<string, unknown>>;

/** Maximum number of details returned with one error (spec operations §7). */
export const MAX_ERROR_DETAILS = 100;

/**
 * A failure with a stable code from the catalogue. `details` follow errors.md §4; `headers` are extra response
 * headers (e.g. `Retry-After`, `Allow`).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: readonly ErrorDetail[] | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;
  constructor(code: ErrorCode, message?: string, details?: readonly ErrorDetail[], headers?: Readonly<Record<string, string>>) {
    super(message ?? errorCatalogue[code].message);
    this.name = 'AppError';
    this.code = code;
    this.status = errorCatalogue[code].status;
    this.details = details === undefined ? undefined : details.slice(0, MAX_ERROR_DETAILS);
    this.headers = headers;
  }
}

export function isAppError(err: unknown, code?: ErrorCode): err is AppError {
  return err instanceof Error && err.name === 'AppError' && (code === undefined || (err as AppError).code === code);
}

/** A bug in our own code: becomes a logged 500 without leaking the message to clients. */
export function invariant(condition: unknown, why: string): asserts condition {
  if (!condition) throw new Error(`invariant violated: ${why}`);
}

/** The REST error body of errors.md §1. Unknown errors become a generic 500. */
export function toErrorBody(err: unknown): {
  statusCode: number;
  code: ErrorCode;
  message: string;
  details?: readonly ErrorDetail[];
} {
  if (isAppError(err)) {
    return {
      statusCode: err.status,
      code: err.code,
      message: err.message,
      ...(err.details !== undefined ? { details: err.details } : {}),
    };
  }
  return { statusCode: 500, code: 'INTERNAL_SERVER_ERROR', message: errorCatalogue.INTERNAL_SERVER_ERROR.message };
}
