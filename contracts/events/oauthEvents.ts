/**
 * Events of the OAuth authorization server (oauth.md). Streams:
 *
 * - `oauth-client-{clientId}`: one registered client (OAuthClientRegistered). Metadata-document clients (CIMD) are
 *   fetched, never registered, so they have no stream.
 * - `oauth-grant-{grantId}`: one grant (user × client): every Allow appends OAuthGrantApproved (creating or
 *   extending it, and carrying the authorization code's hash and bindings), a revocation OAuthGrantRevoked.
 * - `session-{familyId}`: the code exchange starts a refresh family with OAuthFamilyStarted; rotations and
 *   revocations of it are the browser families' events (auth.md §7, one machinery). The family id is derived from
 *   the code's hash, so a second exchange of a code meets an existing stream: that is how code reuse is detected on
 *   every replica.
 *
 * Codes, tokens and client secrets are never in the log: only SHA-256 hashes.
 */

export type OAuthTokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

export type OAuthClientRegistered = {
  readonly clientId: string;
  readonly clientName: string | null;
  readonly clientUri: string | null;
  readonly redirectUris: readonly string[];
  /** Registered scopes (space-separated list split). */
  readonly scopes: readonly string[];
  readonly grantTypes: readonly string[];
  readonly tokenEndpointAuthMethod: OAuthTokenEndpointAuthMethod;
  /** SHA-256 hex of the client secret of a confidential client; null for public clients. */
  readonly secretHash: string | null;
  /** Client IP of the registration request (audit). */
  readonly registeredFromIp: string;
};

export type OAuthClientKind = 'registered' | 'metadataDocument';

/** An Allow: the grant (created or extended) and the authorization code it issued. */
export type OAuthGrantApproved = {
  readonly grantId: string;
  readonly userId: string;
  readonly clientId: string;
  readonly clientKind: OAuthClientKind;
  /** The client's display name at approval time (CIMD clients have no stream). */
  readonly clientName: string | null;
  readonly scopes: readonly string[];
  /** Organization narrowing; null = all the user's organizations. */
  readonly organizationId: string | null;
  /** The user's token version at approval: the grant ends when it moves on (password change, logout-all…). */
  readonly userTokenVersion: number;
  readonly redirectUri: string;
  /** SHA-256 hex of the authorization code. */
  readonly codeHash: string;
  readonly codeChallenge: string;
  /** The `resource` of the request (`{base}/mcp`): the audience of the tokens. */
  readonly resource: string;
  readonly codeExpiresAt: string;
};

export type OAuthGrantRevokeReason = 'user' | 'tokenRevocation';

export type OAuthGrantRevoked = { readonly grantId: string; readonly reason: OAuthGrantRevokeReason };

/** A code exchange started a refresh family bound to a grant (fields of RefreshFamilyStarted plus the link). */
export type OAuthFamilyStarted = {
  readonly familyId: string;
  readonly userId: string;
  readonly userTokenVersion: number;
  readonly absoluteExpiresAt: string;
  readonly firstTokenId: string;
  readonly tokenExpiresAt: string;
  readonly grantId: string;
  readonly clientId: string;
  readonly scopes: readonly string[];
  readonly organizationId: string | null;
  readonly resource: string;
};

export type OAuthEventMap = {
  OAuthClientRegistered: OAuthClientRegistered;
  OAuthGrantApproved: OAuthGrantApproved;
  OAuthGrantRevoked: OAuthGrantRevoked;
  OAuthFamilyStarted: OAuthFamilyStarted;
};

export const oauthClientStreamId = (clientId: string): string => `oauth-client-${clientId}`;
export const oauthGrantStreamId = (grantId: string): string => `oauth-grant-${grantId}`;
