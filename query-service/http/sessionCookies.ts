import type { Request, Response } from 'express';
import { cookieValues } from './authenticate.ts';

/** COOKIE_SECURE and COOKIE_SAMESITE (operations.md §1). */
export type SessionCookieConfig = {
  readonly secure: boolean;
  readonly sameSite: 'lax' | 'strict' | 'none';
};

/** Defaults of a development deployment (operations.md §1). */
export const SESSION_COOKIE_DEFAULTS: SessionCookieConfig = { secure: false, sameSite: 'lax' };

/** What a login or refresh answers with: the three cookies of auth.md §4 are set from it. */
export type SessionCookieValues = {
  readonly accessToken: string;
  /** `svc_at` Max-Age: the access token's lifetime in seconds. */
  readonly expiresIn: number;
  /** `svc_rt`; absent only for authenticators without refresh families (then only `svc_at` is set). */
  readonly refreshToken?: string;
  /** Remaining lifetime of `refreshToken` in seconds: Max-Age of `svc_rt` and `svc_session`. */
  readonly refreshMaxAgeSeconds?: number;
};

export const ACCESS_TOKEN_COOKIE = 'svc_at';
export const REFRESH_TOKEN_COOKIE = 'svc_rt';
export const SESSION_HINT_COOKIE = 'svc_session';

const EPOCH = 'Thu, 01 Jan 1970 00:00:00 GMT';

type CookieSpec = { readonly name: string; readonly path: string; readonly httpOnly: boolean };

/** auth.md §4: `svc_rt` only reaches the refresh and logout routes; `svc_session` is readable by the Admin UI. */
const SPECS: readonly CookieSpec[] = [
  { name: ACCESS_TOKEN_COOKIE, path: '/', httpOnly: true },
  { name: REFRESH_TOKEN_COOKIE, path: '/api/auth/', httpOnly: true },
  { name: SESSION_HINT_COOKIE, path: '/', httpOnly: false },
];

const SAME_SITE: Readonly<Record<SessionCookieConfig['sameSite'], string>> = { lax: 'Lax', strict: 'Strict', none: 'None' };

/** One `Set-Cookie` value; host-only (never a Domain attribute). */
export function serializeCookie(spec: CookieSpec, value: string, maxAgeSeconds: number, config: SessionCookieConfig): string {
  const parts = [`${spec.name}=${value}`, `Path=${spec.path}`, `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`];
  if (maxAgeSeconds <= 0) parts.push(`Expires=${EPOCH}`);
  if (spec.httpOnly) parts.push('HttpOnly');
  parts.push(`SameSite=${SAME_SITE[config.sameSite]}`);
  if (config.secure) parts.push('Secure');
  return parts.join('; ');
}

export type SessionCookies = {
  /** Sets `svc_at`, `svc_rt` and `svc_session` together (login, refresh). */
  set(res: Response, values: SessionCookieValues): void;
  /** Clears the three cookies (refresh failure, logout, logout-all, own password change). */
  clear(res: Response): void;
};

/** The one place the session cookies of auth.md §4 are written. */
export function createSessionCookies(config: SessionCookieConfig = SESSION_COOKIE_DEFAULTS): SessionCookies {
  const [access, refresh, hint] = SPECS as [CookieSpec, CookieSpec, CookieSpec];
  return {
    set(res, values) {
      const cookies = [serializeCookie(access, values.accessToken, values.expiresIn, config)];
      if (values.refreshToken !== undefined && values.refreshMaxAgeSeconds !== undefined) {
        cookies.push(serializeCookie(refresh, values.refreshToken, values.refreshMaxAgeSeconds, config));
        cookies.push(serializeCookie(hint, '1', values.refreshMaxAgeSeconds, config));
      }
      res.append('Set-Cookie', cookies);
    },
    clear(res) {
      res.append(
        'Set-Cookie',
        SPECS.map((spec) => serializeCookie(spec, '', 0, config)),
      );
    },
  };
}

/** The `svc_rt` value of the request (the first one, the most specific path per RFC 6265), or null. */
export function refreshTokenOf(req: Request): string | null {
  return cookieValues(req.headers.cookie, REFRESH_TOKEN_COOKIE)[0] ?? null;
}
