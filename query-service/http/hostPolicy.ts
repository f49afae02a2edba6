import { isIP } from 'node:net';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '../../contracts/index.ts';
import { sendError } from './sendError.ts';

/**
 * Which `Host` names the server answers to (auth.md §6.4, DNS rebinding). `localhost`, `*.localhost` and IP-address
 * literals are always allowed: a page cannot rebind a name it does not own to them.
 */
export type HostPolicy = {
  /** ALLOWED_HOSTS=*: every host is allowed (the operator vouches for the proxy in front). */
  readonly anyHost: boolean;
  /** Lower-case names; a leading `.` allows that domain and its subdomains (`.example.com`). */
  readonly allowedHosts: readonly string[];
  /** The host name of PUBLIC_URL, lower case; null when PUBLIC_URL is unset. */
  readonly publicHost: string | null;
};

/** Nothing configured: localhost, `*.localhost` and IP literals only. */
export const LOCAL_HOSTS_ONLY: HostPolicy = { anyHost: false, allowedHosts: [], publicHost: null };

const HOST_NAME = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/;

/**
 * The host name of a `Host` header value (`Example.com:8080` → `example.com`, `[::1]:80` → `::1`), lower case and
 * without a final dot; null for anything that is not a host name or an IP literal with an optional port.
 */
export function hostNameOf(value: string): string | null {
  const lower = value.trim().toLowerCase();
  let name: string;
  let rest: string;
  if (lower.startsWith('[')) {
    const close = lower.indexOf(']');
    if (close === -1) return null;
    name = lower.slice(1, close);
    rest = lower.slice(close + 1);
    if (isIP(name) !== 6) return null;
  } else {
    const colon = lower.indexOf(':');
    name = colon === -1 ? lower : lower.slice(0, colon);
    rest = colon === -1 ? '' : lower.slice(colon);
    if (name.endsWith('.')) name = name.slice(0, -1);
    if (!HOST_NAME.test(name)) return null;
  }
  return rest === '' || /^:\d{1,5}$/.test(rest) ? name : null;
}

/** Whether a host name (as returned by hostNameOf) is allowed. Ports never matter; names compare case-insensitively. */
export function isHostNameAllowed(name: string, policy: HostPolicy): boolean {
  if (policy.anyHost) return true;
  if (name === 'localhost' || name.endsWith('.localhost') || isIP(name) !== 0) return true;
  if (name === policy.publicHost) return true;
  return policy.allowedHosts.some((entry) => (entry.startsWith('.') ? name === entry.slice(1) || name.endsWith(entry) : name === entry));
}

/** The request's host as express sees it (the forwarded host behind a trusted proxy), when it is allowed; else null. */
export function allowedHostOf(req: Request, policy: HostPolicy): string | null {
  const host = req.host;
  if (host === undefined) return null;
  const name = hostNameOf(host);
  return name !== null && isHostNameAllowed(name, policy) ? host : null;
}

/**
 * Host validation before routing (auth.md §6.4): a request whose `Host` (or trusted forwarded host) is not allowed
 * answers `403 HOST_NOT_ALLOWED` and nothing else runs. A request without any host is refused too.
 */
export function hostGuard(policy: HostPolicy): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (policy.anyHost || allowedHostOf(req, policy) !== null) {
      next();
      return;
    }
    // The name is shown as sent (bounded and printable), so the operator can copy it into ALLOWED_HOSTS.
    const shown = (req.host ?? '').replace(/[^\x20-\x7e]/g, '?').slice(0, 255);
    sendError(res, new AppError('HOST_NOT_ALLOWED', `Host "${shown}" is not allowed; add it to ALLOWED_HOSTS or set PUBLIC_URL`));
  };
}
