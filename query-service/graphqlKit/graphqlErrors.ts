import type { Request, Response } from 'express';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Logger } from 'pino';
import { errorCatalogue, isAppError, isErrorCode, type AppError, type ErrorCode, type ErrorDetail } from '../../contracts/index.ts';
import { sendJson } from '../http/sendJson.ts';
import { startErrorResponse, toAppError } from '../http/sendError.ts';

/** `extensions` of every GraphQL error (errors.md §3). */
export type GraphqlErrorExtensions = { code: ErrorCode; statusCode: number; details?: readonly ErrorDetail[] };

/** Apollo's own codes for failures before execution, by the code of errors.md they are. */
const APOLLO_CODES: Readonly<Record<string, ErrorCode>> = {
  GRAPHQL_PARSE_FAILED: 'GRAPHQL_PARSE_FAILED',
  GRAPHQL_VALIDATION_FAILED: 'GRAPHQL_VALIDATION_FAILED',
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  BAD_REQUEST: 'BAD_REQUEST',
  OPERATION_RESOLUTION_FAILURE: 'BAD_REQUEST',
  PERSISTED_QUERY_NOT_SUPPORTED: 'BAD_REQUEST',
  PERSISTED_QUERY_NOT_FOUND: 'BAD_REQUEST',
  QUERY_TOO_COMPLEX: 'QUERY_TOO_COMPLEX',
};

function appErrorIn(error: unknown): AppError | null {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 10; depth++) {
    if (isAppError(current)) return current;
    current = (current as { originalError?: unknown }).originalError;
  }
  return null;
}

function extensionsOf(error: unknown): Readonly<Record<string, unknown>> {
  return error instanceof GraphQLError ? error.extensions : {};
}

/** The errors.md code of a GraphQL failure (an AppError thrown by a resolver, or a parse/validation failure). */
function codeOf(formatted: GraphQLFormattedError, error: unknown): ErrorCode {
  const original = (error as { originalError?: unknown } | null)?.originalError;
  const ownCode = extensionsOf(original).code;
  if (typeof ownCode === 'string' && isErrorCode(ownCode)) return ownCode;
  // graphql-js stops coercing variables after 50 errors with an untagged error of its own: still the caller's input.
  if (formatted.message.startsWith('Too many errors processing variables')) return 'BAD_USER_INPUT';
  const apolloCode = APOLLO_CODES[String(formatted.extensions?.code)];
  // graphql-js words its `maxTokens` failure "Document contains more that N tokens" (sic).
  if (apolloCode === 'GRAPHQL_PARSE_FAILED' && /Document contains more tha[nt] \d+ tokens/.test(formatted.message)) return 'QUERY_TOO_COMPLEX';
  if (apolloCode === 'BAD_REQUEST') {
    const status = (extensionsOf(error).http as { status?: number } | undefined)?.status;
    if (status === 405) return 'METHOD_NOT_ALLOWED';
    if (status === 415) return 'UNSUPPORTED_MEDIA_TYPE';
  }
  return apolloCode ?? 'INTERNAL_SERVER_ERROR';
}

/**
 * Longest message an error carries. graphql-js quotes a whole invalid variable value in each message, so a wide
 * value repeated in 50 coercion errors made a 14 MB answer; the start of the message says what went wrong.
 */
const MAX_MESSAGE_LENGTH = 1_000;

function capped(message: string): string {
  return message.length <= MAX_MESSAGE_LENGTH ? message : `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…`;
}

function extensions(code: ErrorCode, details?: readonly ErrorDetail[]): GraphqlErrorExtensions {
  return { code, statusCode: errorCatalogue[code].status, ...(details !== undefined ? { details } : {}) };
}

/**
 * Apollo `formatError` of errors.md §3: every error gets `extensions {code, statusCode, details?}`; 5xx messages are
 * generic (and the cause is logged); nothing else leaks from the original error.
 */
export function createGraphqlErrorFormatter(log: Logger): (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError {
  return (formatted, error) => {
    const appError = appErrorIn(error);
    const code = appError?.code ?? codeOf(formatted, error);
    const status = errorCatalogue[code].status;
    if (status >= 500) log.error({ err: (error as { originalError?: unknown } | null)?.originalError ?? error, code }, 'graphql field failed');
    const message = status >= 500 ? errorCatalogue[code].message : capped(appError?.message ?? formatted.message);
    return {
      message,
      ...(formatted.locations ? { locations: formatted.locations } : {}),
      ...(formatted.path ? { path: formatted.path } : {}),
      extensions: extensions(code, appError?.details),
    };
  };
}

/**
 * Answers a failure before execution (credentials, body, batch, size, consistency: errors.md §3.1) as a GraphQL
 * response without `data`, with the failure's HTTP status and headers.
 */
export function sendGraphqlError(res: Response, err: unknown): void {
  const appError = toAppError(err);
  if (appError.status === 500) (res.req as Partial<Request> | undefined)?.log?.error({ err }, 'request failed');
  if (!startErrorResponse(res, appError)) return;
  const message = appError.status >= 500 ? errorCatalogue[appError.code].message : appError.message;
  sendJson(res, appError.status, { errors: [{ message, extensions: extensions(appError.code, appError.details) }] });
}
