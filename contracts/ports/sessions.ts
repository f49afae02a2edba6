import type { Principal } from '../auth/principal.ts';
import { isAppError } from '../errors/appError.ts';
import type { Position } from '../events/position.ts';
import type { PresentedCredentials } from './authenticator.ts';

/** A successful refresh (auth.md §7.2 rows 5 and 6): set `svc_at`, `svc_rt` and `svc_session` from it. */
export type RefreshResult = {
  /** `rotated`: a new refresh token; `duplicate`: the same successor again, byte-identical (row 6). */
  readonly kind: 'rotated' | 'duplicate';
  readonly accessToken: string;
  /** Seconds (the `expiresIn` of the response body and the `svc_at` Max-Age). */
  readonly expiresIn: number;
  /** The new `svc_rt` value. */
  readonly refreshToken: string;
  /** Remaining lifetime of `refreshToken` in seconds: Max-Age of `svc_rt` and `svc_session`. */
  readonly refreshMaxAgeSeconds: number;
};

/** Refresh rotation and logout (auth.md §7); the edge owns CSRF (row 1) and the cookies. */
export interface Sessions {
  /**
   * Rows 2–9 of auth.md §7.2 for the `svc_rt` value (null when absent). Throws AppError REFRESH_TOKEN_MISSING,
   * REFRESH_TOKEN_INVALID, REFRESH_TOKEN_REUSED (the edge clears the three cookies: see `clearsSessionCookies`),
   * REFRESH_IN_PROGRESS or SERVICE_UNAVAILABLE (no Set-Cookie at all).
   */
  refresh(refreshToken: string | null, options?: { readonly correlationId?: string }): Promise<RefreshResult>;
  /**
   * auth.md §7.3: revokes the family named by `svc_rt` (valid MAC), else by the `sid` of a valid JWT among the
   * credentials. Never fails: the edge always clears the cookies and answers 204.
   */
  logout(
    input: { readonly refreshToken: string | null; readonly credentials: PresentedCredentials },
    options?: { readonly correlationId?: string },
  ): Promise<void>;
  /**
   * Revokes every family of the user and every access token (token version + 1). Needs a user JWT: anonymous ->
   * UNAUTHENTICATED, an API key -> FORBIDDEN.
   */
  logoutAll(principal: Principal, options?: { readonly correlationId?: string }): Promise<{ readonly position: Position }>;
}

/** Whether a refresh failure clears the session cookies (auth.md §7.2 rows 2, 3, 4, 7; not 8 and 9). */
export function clearsSessionCookies(err: unknown): boolean {
  return isAppError(err, 'REFRESH_TOKEN_MISSING') || isAppError(err, 'REFRESH_TOKEN_INVALID') || isAppError(err, 'REFRESH_TOKEN_REUSED');
}
