import type { RecordedEvent } from '../events/envelope.ts';
import { apiKeyCreatedFields } from '../events/authEvents.ts';
import type { ApiKeyPermissions, ApiKeyType, AuthEvent, RefreshFamilyRevokeReason } from '../events/authEvents.ts';
import { streamCategory } from '../events/streamIds.ts';
import { createOAuthState, evolveOAuthState, touchOAuthGrant, type OAuthFamilyLink, type OAuthState } from './oauthState.ts';

export type ApiKeyRecord = {
  id: string;
  name: string;
  prefix: string;
  secretHash: string;
  type: ApiKeyType;
  userId: string | null;
  organizationId: string | null;
  projectIds: readonly string[] | null;
  branchNames: readonly string[] | null;
  tableIds: readonly string[] | null;
  readOnly: boolean;
  permissions: ApiKeyPermissions | null;
  expiresAt: string;
  createdAt: string;
  createdBy: string;
  revokedAt: string | null;
  rotatedFromId: string | null;
  replacedById: string | null;
  /** Owner stream the key's events are in (`apikey-user-…` / `apikey-org-…`). */
  streamId: string;
};

/** One refresh token of a family (auth.md §7.1); times in ms since the epoch. */
export type RefreshTokenRecord = {
  id: string;
  familyId: string;
  issuedAt: number;
  expiresAt: number;
  rotatedAt: number | null;
  successorId: string | null;
};

export type RefreshFamilyRecord = {
  id: string;
  userId: string;
  /** The user's token version at login; the family is dead once the user's version differs. */
  userTokenVersion: number;
  createdAt: number;
  absoluteExpiresAt: number;
  revokedAt: number | null;
  revokeReason: RefreshFamilyRevokeReason | null;
  tokenIds: string[];
  /** The OAuth grant of a family started by a code exchange (oauth.md §5); null for browser sessions. */
  oauth: OAuthFamilyLink | null;
};

/**
 * API keys and refresh families, folded from the `apikey` and `session` categories into the system state so that
 * authentication sees revocations, rotations and expiry on the next request on every replica (operations.md §4.4).
 */
export type AuthState = OAuthState & {
  apiKeys: Map<string, ApiKeyRecord>;
  /** SHA-256 hex of a key -> key id. */
  apiKeyIdsByHash: Map<string, string>;
  /** Owner stream -> key ids in creation order. */
  apiKeyIdsByStream: Map<string, string[]>;
  /** Live refresh families in start order; families are dropped an hour after their absolute expiry. */
  refreshFamilies: Map<string, RefreshFamilyRecord>;
  /** Refresh token id -> token, for every token of a kept family. */
  refreshTokens: Map<string, RefreshTokenRecord>;
};

/** Families are dropped this long after their absolute expiry, so replicas with slightly skewed clocks agree. */
const FAMILY_DROP_MARGIN_MS = 3_600_000;

export function createAuthState(): AuthState {
  return {
    apiKeys: new Map(),
    apiKeyIdsByHash: new Map(),
    apiKeyIdsByStream: new Map(),
    refreshFamilies: new Map(),
    refreshTokens: new Map(),
    ...createOAuthState(),
  };
}

export type ApiKeyStatus = 'active' | 'revoked' | 'expired';

/** Derived status (auth.md §8.2): revoked wins over expired; `expiresAt <= now` is expired. */
export function apiKeyStatus(key: Pick<ApiKeyRecord, 'revokedAt' | 'expiresAt'>, nowMs: number): ApiKeyStatus {
  if (key.revokedAt !== null) return 'revoked';
  return Date.parse(key.expiresAt) <= nowMs ? 'expired' : 'active';
}

/**
 * Drops families (and their tokens) whose absolute expiry passed long before `timeMs`. Refresh answers them
 * REFRESH_TOKEN_INVALID and access tokens TOKEN_REVOKED either way, so dropping keeps memory bounded by live
 * sessions without changing any answer. Families are kept in start order, so the sweep stops at the first live one.
 */
function dropExpiredFamilies(auth: AuthState, streamRevisions: Map<string, number>, timeMs: number): void {
  for (const family of auth.refreshFamilies.values()) {
    if (family.absoluteExpiresAt + FAMILY_DROP_MARGIN_MS >= timeMs) return;
    for (const tokenId of family.tokenIds) auth.refreshTokens.delete(tokenId);
    auth.refreshFamilies.delete(family.id);
    streamRevisions.delete(`session-${family.id}`);
  }
}

function evolveSession(auth: AuthState, streamRevisions: Map<string, number>, recorded: RecordedEvent, event: AuthEvent): void {
  const timeMs = Date.parse(recorded.metadata.time);
  const familyId = recorded.streamId.slice('session-'.length);
  switch (event.type) {
    case 'RefreshFamilyStarted':
    case 'OAuthFamilyStarted': {
      const d = event.data;
      dropExpiredFamilies(auth, streamRevisions, timeMs);
      const oauth: OAuthFamilyLink | null =
        event.type === 'OAuthFamilyStarted'
          ? {
              grantId: event.data.grantId,
              clientId: event.data.clientId,
              scopes: event.data.scopes,
              organizationId: event.data.organizationId,
              resource: event.data.resource,
            }
          : null;
      if (oauth) touchOAuthGrant(auth, oauth.grantId, recorded.metadata.time);
      const absoluteExpiresAt = Date.parse(d.absoluteExpiresAt);
      auth.refreshFamilies.set(d.familyId, {
        id: d.familyId,
        userId: d.userId,
        userTokenVersion: d.userTokenVersion,
        createdAt: timeMs,
        absoluteExpiresAt,
        revokedAt: null,
        revokeReason: null,
        tokenIds: [d.firstTokenId],
        oauth,
      });
      auth.refreshTokens.set(d.firstTokenId, {
        id: d.firstTokenId,
        familyId: d.familyId,
        issuedAt: timeMs,
        expiresAt: Date.parse(d.tokenExpiresAt),
        rotatedAt: null,
        successorId: null,
      });
      break;
    }
    case 'RefreshTokenRotated': {
      const family = auth.refreshFamilies.get(familyId);
      const token = auth.refreshTokens.get(event.data.tokenId);
      if (!family || !token || token.familyId !== familyId) break;
      token.rotatedAt = timeMs;
      token.successorId = event.data.successorId;
      if (family.oauth) touchOAuthGrant(auth, family.oauth.grantId, recorded.metadata.time);
      family.tokenIds.push(event.data.successorId);
      auth.refreshTokens.set(event.data.successorId, {
        id: event.data.successorId,
        familyId,
        issuedAt: timeMs,
        expiresAt: Date.parse(event.data.successorExpiresAt),
        rotatedAt: null,
        successorId: null,
      });
      break;
    }
    case 'RefreshFamilyRevoked': {
      const family = auth.refreshFamilies.get(familyId);
      if (family && family.revokedAt === null) {
        family.revokedAt = timeMs;
        family.revokeReason = event.data.reason;
      }
      break;
    }
    default:
      break;
  }
}

function evolveApiKey(auth: AuthState, recorded: RecordedEvent, event: AuthEvent): void {
  const time = recorded.metadata.time;
  switch (event.type) {
    case 'ApiKeyCreated': {
      const d = event.data;
      auth.apiKeys.set(d.keyId, {
        ...apiKeyCreatedFields(d, time),
        secretHash: d.secretHash,
        revokedAt: null,
        replacedById: null,
        streamId: recorded.streamId,
      });
      auth.apiKeyIdsByHash.set(d.secretHash, d.keyId);
      const ids = auth.apiKeyIdsByStream.get(recorded.streamId);
      if (ids) ids.push(d.keyId);
      else auth.apiKeyIdsByStream.set(recorded.streamId, [d.keyId]);
      break;
    }
    case 'ApiKeyRevoked': {
      const key = auth.apiKeys.get(event.data.keyId);
      if (key && key.revokedAt === null) {
        key.revokedAt = time;
        key.replacedById = event.data.replacedById;
      }
      break;
    }
    default:
      break;
  }
}

/** Folds one event of the `session`, `apikey` or `oauth` category (others are ignored). */
export function evolveAuthState(auth: AuthState, streamRevisions: Map<string, number>, recorded: RecordedEvent): void {
  const event = { type: recorded.type, data: recorded.data } as AuthEvent;
  const category = streamCategory(recorded.streamId);
  if (category === 'session') evolveSession(auth, streamRevisions, recorded, event);
  else if (category === 'apikey') evolveApiKey(auth, recorded, event);
  else if (category === 'oauth') evolveOAuthState(auth, recorded);
}
