import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, isAppError, parseRequestJson } from '../../contracts/index.ts';
import { isStreamedUpload } from './streamedUploads.ts';

export type JsonBodyOptions = {
  /** BODY_LIMIT in bytes. */
  readonly limitBytes: number;
  /** BODY_LIMIT as configured (`10mb`), for the 413 message. */
  readonly limitText: string;
};

const READ = Symbol('strata.jsonBody.read');

/** RFC 9110: a request has content when it is chunked or declares a non-zero length. */
function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

/** `application/json` with optional parameters; only UTF-8 (or no charset) and no content coding. */
function isJsonContent(req: Request): boolean {
  const [type = '', ...params] = (req.headers['content-type'] ?? '').split(';').map((p) => p.trim().toLowerCase());
  if (type !== 'application/json') return false;
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return false;
  const coding = req.headers['content-encoding']?.toLowerCase();
  return coding === undefined || coding === 'identity';
}

function readBody(req: Request, options: JsonBodyOptions): Promise<Buffer> {
  const tooLarge = (): AppError => new AppError('PAYLOAD_TOO_LARGE', `Request body exceeds ${options.limitText}`);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > options.limitBytes) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > options.limitBytes) {
        cleanup();
        // Discard the rest so the connection can carry the 413.
        req.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/**
 * Reads and parses a JSON request body once into `req.body` (undefined when the request has none). A body with
 * another Content-Type → 415; over the limit → 413; not JSON or nested deeper than 64 levels → 400 BAD_REQUEST (auth.md §6.1, errors.md §2).
 */
export function jsonBody(options: JsonBodyOptions): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction): void | Promise<void> => {
    const marked = req as Request & { [READ]?: true };
    if (marked[READ]) return next();
    marked[READ] = true;
    // Most reads have no body: they go on without a promise. Imports stream their body to their handler.
    if (!hasBody(req) || isStreamedUpload(req)) return next();
    return readJsonBody(req, options, next);
  };
}

/** Failures reject (never throw): each surface's wrapper answers them in its own envelope. */
async function readJsonBody(req: Request, options: JsonBodyOptions, next: NextFunction): Promise<void> {
  if (!isJsonContent(req)) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
  const raw = await readBody(req, options);
  if (raw.length === 0) return next();
  try {
    req.body = parseRequestJson(raw.toString('utf8'));
  } catch (err) {
    if (isAppError(err)) throw err;
    throw new AppError('BAD_REQUEST', 'Request body is not valid JSON');
  }
  next();
}

/**
 * `parse` (a jsonBody) with its failures, and those of the handlers it calls on, answered by `onError` (each
 * surface's error envelope) instead of express's error handler.
 */
export function answeringBodyErrors(parse: RequestHandler, onError: (res: Response, err: unknown) => void): RequestHandler {
  return (req, res, next) => {
    let parsing: unknown;
    try {
      parsing = parse(req, res, next);
    } catch (err) {
      onError(res, err);
      return;
    }
    if (parsing instanceof Promise) parsing.catch((err: unknown) => onError(res, err));
  };
}
