import type { NextFunction, Request, RequestHandler, Response } from 'express';
import {
  AppError,
  anonymousPrincipal,
  isAppError,
  principalRef,
  type Authenticator,
  type PresentedCredentials,
  type Principal,
} from '../../contracts/index.ts';
import type { RequestContext } from '../systemApi/operations/systemOperations.ts';
import { assertCsrf, isUnsafeMethod } from './csrfGate.ts';
import './expressTypes.ts';

declare module 'express-serve-static-core' {
  interface Locals {
    /** The request's principal (set by authenticate). */
    principal?: Principal;
  }
}

const ACCESS_TOKEN_COOKIE = 'svc_at';

function singleHeader(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Every value of cookie `name` in the Cookie header(s), in order (values are not decoded: tokens are URL-safe). */
export function cookieValues(header: string | string[] | undefined, name: string): string[] {
  const values: string[] = [];
  const headers = header === undefined ? [] : Array.isArray(header) ? header : [header];
  for (const line of headers) {
    for (const part of line.split(';')) {
      const eq = part.indexOf('=');
      if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
      let value = part.slice(eq + 1).trim();
      if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
      values.push(value);
    }
  }
  return values;
}

/** A query-string key that could decode to `api_key` (or `api_key[...]`), each letter literal or percent-encoded. */
const MAY_NAME_API_KEY = /[?&;](?:a|%61)(?:p|%70)(?:i|%69)(?:_|%5f)(?:k|%6b)(?:e|%65)(?:y|%79)(?:[=&[;#]|%5b|$)/i;

/** `api_key` from the raw query string: at most once and a plain string (auth.md §2), else 400 BAD_REQUEST. */
function apiKeyQueryOf(req: Request): string | null {
  const url = req.originalUrl ?? req.url;
  const question = url.indexOf('?');
  // Most query strings name no api_key (in no spelling that decodes to it): those are not parsed.
  if (question === -1 || !MAY_NAME_API_KEY.test(url)) return null;
  const params = new URLSearchParams(url.slice(question + 1));
  for (const key of params.keys()) {
    // `api_key[]=…` / `api_key[a]=…` would be an array or object to extended query parsers.
    if (key.startsWith('api_key[')) throw new AppError('BAD_REQUEST', 'api_key must be given once, as a plain string');
  }
  const values = params.getAll('api_key');
  if (values.length > 1) throw new AppError('BAD_REQUEST', 'api_key must be given once, as a plain string');
  return values[0] ?? null;
}

/** The credentials a request presents (auth.md §2); the authenticator applies the precedence. */
export function presentedCredentials(req: Request): PresentedCredentials {
  return {
    authorization: singleHeader(req.headers.authorization),
    apiKeyHeader: singleHeader(req.headers['x-api-key']),
    apiKeyQuery: apiKeyQueryOf(req),
    accessTokenCookies: cookieValues(req.headers.cookie, ACCESS_TOKEN_COOKIE),
  };
}

function presentsCredential(credentials: PresentedCredentials): boolean {
  return (
    credentials.authorization !== null ||
    credentials.apiKeyHeader !== null ||
    credentials.apiKeyQuery !== null ||
    credentials.accessTokenCookies.length > 0
  );
}

/** The 401 of a presented credential carries `error="invalid_token"` (errors.md §1). */
function withInvalidTokenChallenge(err: unknown, credentials: PresentedCredentials): unknown {
  if (!isAppError(err) || err.status !== 401 || !presentsCredential(credentials)) return err;
  return new AppError(
    err.code,
    err.message,
    err.details,
    Object.assign({}, err.headers, {
      'WWW-Authenticate': 'Bearer realm="strata", error="invalid_token"',
    }),
  );
}

/**
 * Resolves the request's principal (auth.md §2, §10 step 1) into `res.locals.principal` (and `principalRef` for
 * logs). A presented credential that fails is a 401 (400 for AMBIGUOUS_CREDENTIALS or a bad `api_key`), never
 * anonymous; 401s carry `WWW-Authenticate: Bearer realm="strata", error="invalid_token"`. Then step 2: an unsafe
 * request authenticated by the `svc_at` cookie must pass the CSRF gate (403 CSRF_REJECTED), on every surface.
 */
export async function authenticateRequest(authenticator: Authenticator, req: Request, res: Response): Promise<Principal> {
  const credentials = presentedCredentials(req);
  let principal: Principal;
  try {
    principal = await authenticator.authenticate(credentials);
  } catch (err) {
    throw withInvalidTokenChallenge(err, credentials);
  }
  res.locals.principal = principal;
  res.locals.principalRef = principalRef(principal);
  if (principal.kind === 'user' && principal.via === 'cookie' && isUnsafeMethod(req.method)) assertCsrf(req, res);
  return principal;
}

/** Express middleware form of authenticateRequest: failures go to `next(err)` (the REST error body). */
export function authenticate(authenticator: Authenticator): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    await authenticateRequest(authenticator, req, res);
    next();
  };
}

/** The RequestContext of an authenticated request (anonymous when authenticate did not run). */
export function requestContextOf(res: Response): RequestContext {
  return { principal: res.locals.principal ?? anonymousPrincipal, requestId: res.locals.requestId ?? 'unknown' };
}
