import type { Response } from 'express';
import type { ErrorCode } from '../../contracts/index.ts';
import { JSON_CONTENT_TYPE } from '../http/sendJson.ts';

/** JSON-RPC error codes used on /mcp (errors.md §5). */
export const JSON_RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** Transport-level refusal (missing session id, bad protocol version, credentials in the query, capacity). */
  serverError: -32000,
  sessionNotFound: -32001,
  unauthorized: -32002,
  forbidden: -32003,
} as const;

/** An error of the /mcp transport: an HTTP status with a JSON-RPC error object (errors.md §5). */
export class McpHttpError extends Error {
  readonly status: number;
  readonly rpcCode: number;
  readonly data: { readonly code: ErrorCode } | undefined;
  readonly headers: Readonly<Record<string, string>>;
  constructor(status: number, rpcCode: number, message: string, data?: { readonly code: ErrorCode }, headers: Readonly<Record<string, string>> = {}) {
    super(message);
    this.name = 'McpHttpError';
    this.status = status;
    this.rpcCode = rpcCode;
    this.data = data;
    this.headers = headers;
  }
}

export const sessionNotFound = (): McpHttpError => new McpHttpError(404, JSON_RPC.sessionNotFound, 'Session not found');

/** A store is unreachable (errors.md §3 SERVICE_UNAVAILABLE); the client retries after a second. */
export const serviceUnavailable = (): McpHttpError =>
  new McpHttpError(503, JSON_RPC.serverError, 'Service unavailable', { code: 'SERVICE_UNAVAILABLE' }, { 'Retry-After': '1' });

export const unauthorized = (code: ErrorCode): McpHttpError =>
  new McpHttpError(401, JSON_RPC.unauthorized, 'Unauthorized', { code }, { 'WWW-Authenticate': 'Bearer realm="strata"' });

export const forbidden = (code: ErrorCode): McpHttpError => new McpHttpError(403, JSON_RPC.forbidden, 'Forbidden', { code });

export const badRequest = (message: string, code?: ErrorCode): McpHttpError =>
  new McpHttpError(400, JSON_RPC.serverError, message, code === undefined ? undefined : { code });

/** Writes a JSON-RPC error response (`id` null unless the request's id is known). */
export function sendMcpError(res: Response, err: McpHttpError, id: string | number | null = null): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const error = { code: err.rpcCode, message: err.message, ...(err.data !== undefined ? { data: err.data } : {}) };
  const payload = JSON.stringify({ jsonrpc: '2.0', error, id });
  for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
  res.status(err.status);
  res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.end(payload);
}
