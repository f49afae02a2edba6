import type { Request } from 'express';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isOwnOrAllowedOrigin, type OriginPolicy } from '../http/csrfGate.ts';
import { JSON_RPC, McpHttpError, badRequest, forbidden } from './mcpHttpError.ts';
import { MAX_JSON_DEPTH, isJsonTextTooDeep } from '../../contracts/index.ts';

/** Protocol versions of mcp.md §1, preferred first. */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26'];
export const PREFERRED_PROTOCOL_VERSION = '2025-11-25';

/** The version `initialize` answers: the client's when supported, else the preferred one. */
export function negotiateProtocolVersion(requested: unknown): string {
  return typeof requested === 'string' && MCP_PROTOCOL_VERSIONS.includes(requested) ? requested : PREFERRED_PROTOCOL_VERSION;
}

/** Later requests: an `MCP-Protocol-Version` header we do not support → 400 (absent: the transport's default). */
export function assertProtocolVersion(req: Request): void {
  const value = req.headers['mcp-protocol-version'];
  if (value === undefined) return;
  if (typeof value !== 'string' || !MCP_PROTOCOL_VERSIONS.includes(value)) {
    throw badRequest(`Bad Request: Unsupported protocol version (supported versions: ${MCP_PROTOCOL_VERSIONS.join(', ')})`);
  }
}

/**
 * `Origin`, when present, must be exactly the server's own origin (derived only from an allowed host) or listed in
 * CORS_ORIGIN (mcp.md §1, auth.md §6.2, §6.4: DNS-rebinding protection).
 */
export function assertOriginAllowed(req: Request, policy: OriginPolicy): void {
  const origin = req.headers.origin;
  if (origin === undefined || isOwnOrAllowedOrigin(req, origin, policy)) return;
  throw forbidden('FORBIDDEN');
}

const CREDENTIAL_PARAMS: ReadonlySet<string> = new Set([
  'api_key',
  'apikey',
  'api-key',
  'x-api-key',
  'key',
  'access_token',
  'accesstoken',
  'token',
  'jwt',
  'bearer',
  'authorization',
  'password',
  'secret',
]);

/** Credentials are accepted only in headers on /mcp (mcp.md §3): any in the query string → 400 (-32000). */
export function assertNoQueryCredentials(req: Request): void {
  const url = req.originalUrl ?? req.url;
  const question = url.indexOf('?');
  if (question === -1) return;
  for (const [name, value] of new URLSearchParams(url.slice(question + 1))) {
    const lower = name.toLowerCase().replace(/\[.*$/, '');
    if (CREDENTIAL_PARAMS.has(lower) || value.startsWith('svc_')) {
      throw badRequest('Bad Request: credentials are not accepted in the query string; send them in a header');
    }
  }
}

function isJsonContent(req: Request): boolean {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  return type === 'application/json';
}

/** Reads the raw body up to `limitBytes` (BODY_LIMIT). */
function readRaw(req: Request, limitBytes: number, limitText: string): Promise<Buffer> {
  const tooLarge = (): McpHttpError =>
    new McpHttpError(413, JSON_RPC.serverError, `Payload Too Large: request body exceeds ${limitText}`, { code: 'PAYLOAD_TOO_LARGE' });
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limitBytes) {
        req.off('data', onData);
        req.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}

/**
 * The one JSON-RPC message of a POST (mcp.md §1). A body already parsed upstream is used as is. Not JSON → 400
 * (-32700, id null); a batch or anything that is not a JSON-RPC message → 400 (-32600).
 */
export async function readJsonRpcMessage(req: Request, limitBytes: number, limitText: string): Promise<JSONRPCMessage> {
  let body: unknown = req.body;
  if (body === undefined) {
    if (!isJsonContent(req)) {
      throw new McpHttpError(415, JSON_RPC.serverError, 'Unsupported Media Type: Content-Type must be application/json');
    }
    const raw = await readRaw(req, limitBytes, limitText);
    const text = raw.toString('utf8');
    if (isJsonTextTooDeep(text)) {
      throw new McpHttpError(400, JSON_RPC.invalidRequest, `Invalid Request: JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
    }
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      throw new McpHttpError(400, JSON_RPC.parseError, 'Parse error');
    }
  }
  if (Array.isArray(body)) throw new McpHttpError(400, JSON_RPC.invalidRequest, 'Invalid Request: JSON-RPC batches are not supported');
  const parsed = JSONRPCMessageSchema.safeParse(body);
  if (!parsed.success) throw new McpHttpError(400, JSON_RPC.invalidRequest, 'Invalid Request');
  return parsed.data;
}
