import type { Principal } from '../auth/principal.ts';

/** The credentials a request presented (auth.md §2); the edge collects them, the authenticator resolves them. */
export type PresentedCredentials = {
  readonly authorization: string | null;
  readonly apiKeyHeader: string | null;
  /** Every `api_key` query value (more than one, or a non-string, is a BAD_REQUEST the edge reports). */
  readonly apiKeyQuery: string | null;
  /** Every `svc_at` cookie value sent. */
  readonly accessTokenCookies: readonly string[];
  /**
   * Set only by /mcp: the resource identifier `{base}/mcp` whose OAuth access tokens the request may present
   * (oauth.md §5 audience binding). Absent everywhere else, so an OAuth token is TOKEN_INVALID there.
   */
  readonly oauthResource?: string;
};

export type LoginResult = {
  readonly accessToken: string;
  /** Seconds. */
  readonly expiresIn: number;
  readonly userId: string;
  readonly username: string;
  /** Refresh family started by this login. */
  readonly familyId: string;
  /**
   * First refresh token of the family (the `svc_rt` value) and its lifetime in seconds (Max-Age of `svc_rt` and
   * `svc_session`). Always set by the command service; optional so authenticators without sessions still fit.
   */
  readonly refreshToken?: string;
  readonly refreshMaxAgeSeconds?: number;
};

export interface Authenticator {
  /**
   * Resolves the request's principal per auth.md §2 precedence. No credential -> anonymous. A presented credential
   * that fails validation throws AppError 401 (TOKEN_*, API_KEY_*), never downgrading to anonymous; conflicting
   * explicit credentials throw AMBIGUOUS_CREDENTIALS. Reflects revocations and deactivations immediately.
   */
  authenticate(credentials: PresentedCredentials): Promise<Principal>;
  /**
   * Password login (auth.md §3) with throttling per (username, client IP) and per IP: INVALID_CREDENTIALS,
   * RATE_LIMITED (with Retry-After header in the error).
   */
  login(input: { readonly username: string; readonly password: string; readonly clientIp: string }): Promise<LoginResult>;
  /** A fresh access token for a JWT user (same sid). */
  issueAccessToken(principal: Principal): Promise<{ readonly accessToken: string; readonly expiresIn: number }>;
}
