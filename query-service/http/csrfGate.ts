import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '../../contracts/index.ts';
import { LOCAL_HOSTS_ONLY, allowedHostOf, type HostPolicy } from './hostPolicy.ts';
import './expressTypes.ts';

/** Which browser origins the server trusts (auth.md §6.1, §6.2). */
export type OriginPolicy = {
  /** PUBLIC_URL as an origin (`https://data.example.com`); null derives the own origin per request (§6.3). */
  readonly publicUrl: string | null;
  /** CORS_ORIGIN: exact origins. */
  readonly corsOrigins: readonly string[];
  /** The hosts the own origin may be derived from (auth.md §6.4); default localhost and IP literals. */
  readonly hosts?: HostPolicy;
};

declare module 'express-serve-static-core' {
  interface Locals {
    /** The deployment's origin policy (set by `originPolicy`); absent = own origin only. */
    originPolicy?: OriginPolicy;
  }
}

const SAME_ORIGIN_ONLY: OriginPolicy = { publicUrl: null, corsOrigins: [] };
const UNSAFE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function isUnsafeMethod(method: string): boolean {
  return UNSAFE_METHODS.has(method.toUpperCase());
}

/** `scheme://host[:port]` in canonical form (default ports dropped, lower case), or null for anything else. */
export function normaliseOrigin(value: string): string | null {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * The server's own origin: PUBLIC_URL, else scheme and host of the request as seen through trusted proxies, in the
 * canonical form a browser sends. Derived only from an allowed host (auth.md §6.4): otherwise null (no own origin).
 */
export function ownOriginOf(req: Request, publicUrl: string | null, hosts: HostPolicy = LOCAL_HOSTS_ONLY): string | null {
  if (publicUrl !== null) return normaliseOrigin(publicUrl);
  const host = allowedHostOf(req, hosts);
  return host === null ? null : normaliseOrigin(`${req.protocol}://${host}`);
}

function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Whether an `Origin` header value is an allowlisted CORS origin: byte-for-byte equal to an entry, with no case
 * folding, trailing-slash or default-port normalisation (auth.md §6.2). `null` never is.
 */
export function isAllowedOrigin(origin: string | undefined, policy: OriginPolicy): boolean {
  return origin !== undefined && origin !== 'null' && policy.corsOrigins.includes(origin);
}

/** Whether `Origin` is exactly the server's own origin (§6.1) or allowlisted; the CSRF gate and MCP share this. */
export function isOwnOrAllowedOrigin(req: Request, origin: string, policy: OriginPolicy): boolean {
  if (origin === 'null') return false;
  return origin === ownOriginOf(req, policy.publicUrl, policy.hosts) || isAllowedOrigin(origin, policy);
}

/**
 * The CSRF gate of auth.md §6.1: `Sec-Fetch-Site` same-origin/none pass (other values only with an allowlisted
 * `Origin`); else an `Origin` must be the own origin or allowlisted (`Origin: null` never passes); a request without
 * either browser signal passes.
 */
export function csrfAllows(req: Request, policy: OriginPolicy): boolean {
  const site = header(req, 'sec-fetch-site')?.trim().toLowerCase();
  const origin = header(req, 'origin');
  if (site !== undefined) return site === 'same-origin' || site === 'none' || isAllowedOrigin(origin, policy);
  if (origin === undefined) return true;
  return isOwnOrAllowedOrigin(req, origin, policy);
}

/** Throws 403 CSRF_REJECTED when the gate fails, under the policy `originPolicy` put on the response. */
export function assertCsrf(req: Request, res: Response): void {
  if (!csrfAllows(req, res.locals.originPolicy ?? SAME_ORIGIN_ONLY)) throw new AppError('CSRF_REJECTED');
}

/**
 * Puts the deployment's origin policy on every request, for the gate that authentication runs once it knows the
 * credential is the `svc_at` cookie (auth.md §10 step 2) and for the auth routes that are always gated.
 */
export function originPolicy(policy: OriginPolicy): RequestHandler {
  return (_req: Request, res: Response, next: NextFunction): void => {
    res.locals.originPolicy = policy;
    next();
  };
}
