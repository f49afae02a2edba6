import type { RecordedEvent } from '../events/envelope.ts';
import type { OAuthClientKind, OAuthEventMap, OAuthGrantRevokeReason, OAuthTokenEndpointAuthMethod } from '../events/oauthEvents.ts';

/** A registered client (oauth.md §3.1); metadata-document clients are fetched and cached, not kept here. */
export type OAuthClientRecord = {
  id: string;
  name: string | null;
  clientUri: string | null;
  redirectUris: readonly string[];
  scopes: readonly string[];
  grantTypes: readonly string[];
  tokenEndpointAuthMethod: OAuthTokenEndpointAuthMethod;
  secretHash: string | null;
  createdAt: string;
};

/** A grant (user × client, oauth.md §6): the latest approval's scopes and narrowing. */
export type OAuthGrantRecord = {
  id: string;
  userId: string;
  clientId: string;
  clientKind: OAuthClientKind;
  clientName: string | null;
  scopes: readonly string[];
  organizationId: string | null;
  /** The user's token version at the latest approval: the grant has ended once the user's version differs. */
  userTokenVersion: number;
  createdAt: string;
  /** Last approval, code exchange or refresh. */
  lastUsedAt: string;
  revokedAt: string | null;
  revokeReason: OAuthGrantRevokeReason | null;
};

/** An authorization code by its hash: single use, bound to everything the token request must repeat (oauth.md §4). */
export type OAuthCodeRecord = {
  codeHash: string;
  grantId: string;
  userId: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: readonly string[];
  organizationId: string | null;
  resource: string;
  userTokenVersion: number;
  issuedAt: number;
  expiresAt: number;
};

/** The grant a refresh family belongs to (families started by a code exchange). */
export type OAuthFamilyLink = {
  readonly grantId: string;
  readonly clientId: string;
  readonly scopes: readonly string[];
  readonly organizationId: string | null;
  readonly resource: string;
};

export type OAuthState = {
  oauthClients: Map<string, OAuthClientRecord>;
  oauthGrants: Map<string, OAuthGrantRecord>;
  /** `userId clientId` -> the grant a new approval extends (the latest one, revoked or not). */
  oauthGrantIdsByPair: Map<string, string>;
  /** Code hash -> code, in issue order; kept a while after expiry so a late second use is still recognised. */
  oauthCodes: Map<string, OAuthCodeRecord>;
};

/** Codes are forgotten this long after they were issued (a use after that is simply an unknown code). */
const CODE_MEMORY_MS = 600_000;

export function createOAuthState(): OAuthState {
  return { oauthClients: new Map(), oauthGrants: new Map(), oauthGrantIdsByPair: new Map(), oauthCodes: new Map() };
}

export const oauthGrantPairKey = (userId: string, clientId: string): string => `${userId} ${clientId}`;

/** Whether a grant still authorizes anything: not revoked and approved under the user's current token version. */
export function isOAuthGrantActive(grant: OAuthGrantRecord, userTokenVersion: number | undefined): boolean {
  return grant.revokedAt === null && grant.userTokenVersion === userTokenVersion;
}

function forgetOldCodes(oauth: OAuthState, nowMs: number): void {
  for (const code of oauth.oauthCodes.values()) {
    if (code.issuedAt + CODE_MEMORY_MS >= nowMs) return;
    oauth.oauthCodes.delete(code.codeHash);
  }
}

type OAuthStreamEvent = {
  [K in 'OAuthClientRegistered' | 'OAuthGrantApproved' | 'OAuthGrantRevoked']: { readonly type: K; readonly data: OAuthEventMap[K] };
}['OAuthClientRegistered' | 'OAuthGrantApproved' | 'OAuthGrantRevoked'];

/** Folds one event of the `oauth` category. */
export function evolveOAuthState(oauth: OAuthState, recorded: RecordedEvent): void {
  const time = recorded.metadata.time;
  const event = { type: recorded.type, data: recorded.data } as OAuthStreamEvent;
  switch (event.type) {
    case 'OAuthClientRegistered': {
      const d = event.data;
      oauth.oauthClients.set(d.clientId, {
        id: d.clientId,
        name: d.clientName,
        clientUri: d.clientUri,
        redirectUris: d.redirectUris,
        scopes: d.scopes,
        grantTypes: d.grantTypes,
        tokenEndpointAuthMethod: d.tokenEndpointAuthMethod,
        secretHash: d.secretHash,
        createdAt: time,
      });
      break;
    }
    case 'OAuthGrantApproved': {
      const d = event.data;
      const timeMs = Date.parse(time);
      forgetOldCodes(oauth, timeMs);
      const existing = oauth.oauthGrants.get(d.grantId);
      oauth.oauthGrants.set(d.grantId, {
        id: d.grantId,
        userId: d.userId,
        clientId: d.clientId,
        clientKind: d.clientKind,
        clientName: d.clientName,
        scopes: d.scopes,
        organizationId: d.organizationId,
        userTokenVersion: d.userTokenVersion,
        createdAt: existing?.createdAt ?? time,
        lastUsedAt: time,
        revokedAt: existing?.revokedAt ?? null,
        revokeReason: existing?.revokeReason ?? null,
      });
      oauth.oauthGrantIdsByPair.set(oauthGrantPairKey(d.userId, d.clientId), d.grantId);
      oauth.oauthCodes.set(d.codeHash, {
        codeHash: d.codeHash,
        grantId: d.grantId,
        userId: d.userId,
        clientId: d.clientId,
        redirectUri: d.redirectUri,
        codeChallenge: d.codeChallenge,
        scopes: d.scopes,
        organizationId: d.organizationId,
        resource: d.resource,
        userTokenVersion: d.userTokenVersion,
        issuedAt: timeMs,
        expiresAt: Date.parse(d.codeExpiresAt),
      });
      break;
    }
    case 'OAuthGrantRevoked': {
      const grant = oauth.oauthGrants.get(event.data.grantId);
      if (grant && grant.revokedAt === null) {
        grant.revokedAt = time;
        grant.revokeReason = event.data.reason;
      }
      break;
    }
    default:
      break;
  }
}

/** A family's rotation is a use of its grant (the `lastUsedAt` of connected apps). */
export function touchOAuthGrant(oauth: OAuthState, grantId: string, time: string): void {
  const grant = oauth.oauthGrants.get(grantId);
  if (grant) grant.lastUsedAt = time;
}
