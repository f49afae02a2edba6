import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Kind, parse } from 'graphql';
import type { Logger } from 'pino';
import { AppError, isPlainObject } from '../../contracts/index.ts';
import { SURFACES, destinationOf, sendError, sendJson, setRouteTemplate, surfaceOf } from '../../query-service/index.ts';
import { createHttpProxy } from './httpProxy.ts';

export type ForwardWritesOptions = {
  /** COMMAND_URL; null: writes answer 503 SERVICE_UNAVAILABLE. */
  readonly commandUrl: string | null;
  /** BODY_LIMIT: GraphQL bodies up to this size are inspected; larger ones are left to the local 413. */
  readonly bodyLimitBytes: number;
  readonly log: Logger;
};

export type WriteForwarding = {
  /** Mount before the role routers. */
  readonly router: RequestHandler;
  /** Closes the kept-alive connections to the command process. */
  close(): void;
};

/** GraphQL documents have at most 10,000 tokens (operations.md §7); longer ones are refused locally. */
const MAX_TOKENS = 10_000;

/** Where a request goes (operations.md §2), from the query service's route table (query-service/http/routeTable.ts). */
export { destinationOf };
export type { Destination } from '../../query-service/index.ts';

/** Whether a GraphQL POST body selects a mutation (anything unparseable is left to the local handler's errors). */
export function selectsMutation(raw: Buffer): boolean {
  const text = raw.toString('utf8');
  if (!text.includes('mutation')) return false;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return false;
  }
  if (!isPlainObject(body) || typeof body.query !== 'string') return false;
  let operations;
  try {
    operations = parse(body.query, { maxTokens: MAX_TOKENS }).definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  } catch {
    return false;
  }
  const name = body.operationName;
  const selected = typeof name === 'string' ? operations.find((o) => o.name?.value === name) : operations.length === 1 ? operations[0] : undefined;
  return selected?.operation === 'mutation';
}

/**
 * Reads a request body without consuming it: the bytes go back into the stream (`unshift`) before its end is
 * signalled, so whoever handles the request locally reads it as if untouched. Resolves null (bytes put back too)
 * when the body exceeds `limitBytes`.
 */
export function peekBody(req: IncomingMessage, limitBytes: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (complete: boolean): void => {
      req.off('readable', onReadable);
      req.off('error', onError);
      const body = Buffer.concat(chunks, size);
      if (size > 0) req.unshift(body);
      // An empty body may have signalled its end already: declare it empty so nobody waits for that end again.
      else delete req.headers['transfer-encoding'];
      resolve(complete ? body : null);
    };
    function onReadable(): void {
      // read() only while data is buffered: reading an empty, ended stream would signal its end.
      while (req.readableLength > 0) {
        const chunk = req.read() as Buffer | null;
        if (chunk === null) break;
        chunks.push(chunk);
        size += chunk.length;
        if (size > limitBytes) return finish(false);
      }
      if (req.complete) finish(true);
    }
    function onError(err: Error): void {
      req.off('readable', onReadable);
      reject(err);
    }
    req.on('readable', onReadable);
    req.on('error', onError);
  });
}

function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

/** 503 in the shape of the surface the request addressed. */
function sendUnavailable(req: Request, res: Response): void {
  const message = 'Service unavailable';
  res.setHeader('Retry-After', '1');
  if (surfaceOf(req.path) === SURFACES.mcp) {
    sendJson(res, 503, { jsonrpc: '2.0', id: null, error: { code: -32000, message } });
  } else if (destinationOf(req.method, req.path) === 'graphql') {
    sendJson(res, 503, { errors: [{ message, extensions: { code: 'SERVICE_UNAVAILABLE', statusCode: 503 } }] });
  } else {
    sendError(res, new AppError('SERVICE_UNAVAILABLE'));
  }
}

/**
 * The write side of a process without the `command` role (operations.md §2): every write is forwarded unchanged
 * (method, headers, body; hop-by-hop headers aside, plus X-Forwarded-For) to COMMAND_URL and its answer streamed
 * back; without COMMAND_URL writes answer 503. Reads fall through to the local routers.
 */
export function createWriteForwarding(options: ForwardWritesOptions): WriteForwarding {
  const proxy = options.commandUrl === null ? null : createHttpProxy(options.commandUrl, options.log);

  function forward(req: Request, res: Response, body: Buffer | null): void {
    setRouteTemplate(res, '(forwarded)');
    if (proxy === null) return sendUnavailable(req, res);
    proxy.forward(req, res, body, () => sendUnavailable(req, res));
  }

  async function route(req: Request, res: Response, next: NextFunction): Promise<void> {
    const destination = destinationOf(req.method, req.path);
    if (destination === 'local') return next();
    if (destination === 'command') return forward(req, res, null);
    const declared = Number(req.headers['content-length']);
    if (!hasBody(req) || (Number.isFinite(declared) && declared > options.bodyLimitBytes)) return next();
    const body = await peekBody(req, options.bodyLimitBytes);
    if (body !== null && selectsMutation(body)) return forward(req, res, body);
    next();
  }

  return {
    router: (req, res, next) => {
      route(req, res, next).catch(next);
    },
    close: () => proxy?.close(),
  };
}
