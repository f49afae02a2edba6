import type { Principal } from '../auth/principal.ts';
import type { OAuthClientKind } from '../events/oauthEvents.ts';

/** A client as the consent page and the authorization checks see it (registered or metadata document). */
export type OAuthClientView = {
  readonly clientId: string;
  readonly kind: OAuthClientKind;
  readonly name: string | null;
  /** The host of a metadata document's URL (shown prominently), null for registered clients. */
  readonly documentHost: string | null;
  readonly redirectUris: readonly string[];
  readonly scopes: readonly string[];
  readonly grantTypes: readonly string[];
};

/** oauth.md §6 `OAuthGrant`. */
export type OAuthGrantView = {
  readonly id: string;
  readonly clientId: string;
  readonly clientName: string | null;
  readonly clientKind: OAuthClientKind;
  readonly scopes: readonly string[];
  readonly organizationId: string | null;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
};

/** The authorization request after the edge validated it (oauth.md §4) and the user pressed Allow. */
export type OAuthApproval = {
  readonly userId: string;
  readonly client: OAuthClientView;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly scopes: readonly string[];
  /** `{base}/mcp`. */
  readonly resource: string;
  readonly organizationId: string | null;
};

/** Client authentication presented to /oauth/token and /oauth/revoke (oauth.md §5). */
export type OAuthClientCredentials = {
  /** From `Authorization: Basic` (decoded), when sent. */
  readonly basic: { readonly clientId: string; readonly secret: string } | null;
  /** The form's `client_id` and `client_secret`. */
  readonly formClientId: string | null;
  readonly formSecret: string | null;
};

export type OAuthTokenResponse = {
  readonly access_token: string;
  readonly token_type: 'Bearer';
  readonly expires_in: number;
  readonly refresh_token: string;
  readonly scope: string;
};

/** The authorization server's decisions; the HTTP edges parse, render and translate. Refusals throw OAuthError. */
export interface OAuthServer {
  /** RFC 7591 registration (oauth.md §3.1): the 201 body. */
  register(body: unknown, context: { readonly clientIp: string; readonly correlationId: string }): Promise<Record<string, unknown>>;
  /** A registered client or a fetched metadata document (§3.2); null with the reason shown on the error page. */
  findClient(clientId: string): Promise<{ readonly client: OAuthClientView } | { readonly client: null; readonly reason: string }>;
  /**
   * The consent form's anti-forgery token, bound to `binding` (the browser session and the request); valid 30 min.
   * `isFormToken` compares in constant time.
   */
  formToken(binding: string): string;
  isFormToken(token: string, binding: string): boolean;
  /** Allow (§4): creates or extends the grant and returns the single-use authorization code. */
  approve(approval: OAuthApproval, context: { readonly correlationId: string }): Promise<{ readonly code: string }>;
  /** `POST /oauth/token` with its form parameters; `issuer` is `{base}`. */
  token(
    form: Readonly<Record<string, string>>,
    credentials: OAuthClientCredentials,
    context: { readonly issuer: string; readonly correlationId: string },
  ): Promise<OAuthTokenResponse>;
  /** `POST /oauth/revoke` (RFC 7009): never reveals whether the token existed. */
  revoke(form: Readonly<Record<string, string>>, credentials: OAuthClientCredentials, context: { readonly correlationId: string }): Promise<void>;
  /** The caller's active grants (user JWT only). */
  grants(principal: Principal): Promise<OAuthGrantView[]>;
  /** Revokes one of the caller's grants: OAUTH_GRANT_NOT_FOUND for another user's. */
  revokeGrant(principal: Principal, grantId: string, context: { readonly correlationId: string }): Promise<OAuthGrantView>;
}
