import type { PermissionRule } from '../auth/principal.ts';
import type { OAuthEventMap } from './oauthEvents.ts';

/**
 * Events of authentication state (auth.md §7, §8). Times inside event data are RFC 3339 strings; the time an
 * event happened (a family's `createdAt`, a token's `rotatedAt`, a key's `createdAt`/`revokedAt`) is the event's
 * `metadata.time`. Streams:
 *
 * - `session-{familyId}`: one refresh family (RefreshFamilyStarted, RefreshTokenRotated, RefreshFamilyRevoked). A
 *   rotation appends with the family stream's expected revision, so of two concurrent rotations of one token
 *   exactly one lands and the other re-reads the family (auth.md §7.2 row 8).
 * - `apikey-user-{userId}`: every personal key of one user; `apikey-org-{organizationId}`: every service key of
 *   one organization. One stream per key *owner* (not `apikey-{keyId}`) because the active-key limit (auth.md
 *   §8.9) and rotation (§8.8) are decisions about the owner's keys: a create appends with the owner stream's
 *   expected revision, so parallel creates cannot exceed the limit, and a rotation is ONE atomic append to that
 *   stream (ApiKeyRevoked of the old key with `replacedById`, then ApiKeyCreated of the new one with
 *   `rotatedFromId`); of two concurrent rotations of one key exactly one lands, the other finds the key revoked.
 *
 * Revocation of every family of a user (deactivation, password change, logout-all) is not appended per family: a
 * family records the user's token version at login (`userTokenVersion`) and is dead once the user's version moved
 * on (UserDeactivated, UserPasswordChanged and UserTokenVersionIncremented all increment it in the `directory`
 * stream). That makes those revocations part of the one directory append that causes them. The reasons
 * `logoutAll`, `passwordChange` and `deactivation` are reserved for an explicit per-family revocation.
 *
 * `lastUsedAt` of a key is ephemeral state (operations.md §3), not an event.
 */

/** `codeReuse`: an authorization code was exchanged twice (oauth.md §5); `oauthRevoke`: RFC 7009 revocation. */
export type RefreshFamilyRevokeReason = 'logout' | 'reuse' | 'logoutAll' | 'passwordChange' | 'deactivation' | 'codeReuse' | 'oauthRevoke';
export type ApiKeyType = 'personal' | 'service';

/** Service-key permissions (auth.md §8.7). */
export type ApiKeyPermissions = { readonly rules: readonly PermissionRule[] };

/** A login started a family; its first refresh token is `firstTokenId` (auth.md §7.1). */
export type RefreshFamilyStarted = {
  readonly familyId: string;
  readonly userId: string;
  /** The user's token version at login: the family dies when it changes. */
  readonly userTokenVersion: number;
  readonly absoluteExpiresAt: string;
  readonly firstTokenId: string;
  readonly tokenExpiresAt: string;
};

/** The current token `tokenId` was rotated (at the event's time) into `successorId`. */
export type RefreshTokenRotated = {
  readonly tokenId: string;
  readonly successorId: string;
  readonly successorExpiresAt: string;
};

/** The family is revoked (at the event's time); a second revocation of the same family changes nothing. */
export type RefreshFamilyRevoked = { readonly reason: RefreshFamilyRevokeReason };

export type ApiKeyCreated = {
  readonly keyId: string;
  readonly name: string;
  /** `svc_` + the first 6 random characters. */
  readonly prefix: string;
  /** SHA-256 hex digest of the full key; the key itself is never stored. */
  readonly secretHash: string;
  readonly type: ApiKeyType;
  /** Owner of a personal key; null for service keys. */
  readonly userId: string | null;
  readonly organizationId: string | null;
  readonly projectIds: readonly string[] | null;
  readonly branchNames: readonly string[] | null;
  readonly tableIds: readonly string[] | null;
  readonly readOnly: boolean;
  readonly permissions: ApiKeyPermissions | null;
  readonly expiresAt: string;
  /** User who created the key (for a rotated key: who rotated it). */
  readonly createdBy: string;
  readonly rotatedFromId: string | null;
};

/** What every read model of a key (system state, `api-keys` view) copies from its creation; never the secret hash. */
export type ApiKeyCreatedFields = Omit<ApiKeyCreated, 'keyId' | 'secretHash'> & { readonly id: string; readonly createdAt: string };

/** The one mapping of an `ApiKeyCreated` event (recorded at `createdAt`) to a key's read-model fields. */
export function apiKeyCreatedFields(d: ApiKeyCreated, createdAt: string): ApiKeyCreatedFields {
  return {
    id: d.keyId,
    name: d.name,
    prefix: d.prefix,
    type: d.type,
    userId: d.userId,
    organizationId: d.organizationId,
    projectIds: d.projectIds,
    branchNames: d.branchNames,
    tableIds: d.tableIds,
    readOnly: d.readOnly,
    permissions: d.permissions,
    expiresAt: d.expiresAt,
    createdAt,
    createdBy: d.createdBy,
    rotatedFromId: d.rotatedFromId,
  };
}

export type ApiKeyRevoked = {
  readonly keyId: string;
  readonly revokedBy: string;
  /** The replacement when the key was revoked by a rotation. */
  readonly replacedById: string | null;
};

/** Event type -> data for the `session`, `apikey` and `oauth` categories. */
export type AuthEventMap = OAuthEventMap & {
  RefreshFamilyStarted: RefreshFamilyStarted;
  RefreshTokenRotated: RefreshTokenRotated;
  RefreshFamilyRevoked: RefreshFamilyRevoked;
  ApiKeyCreated: ApiKeyCreated;
  ApiKeyRevoked: ApiKeyRevoked;
};

export type AuthEventType = keyof AuthEventMap;

/** An auth event as plain tagged data (the envelope adds schemaVersion and metadata). */
export type AuthEvent = { [K in AuthEventType]: { readonly type: K; readonly data: AuthEventMap[K] } }[AuthEventType];

/** Stream of a user's personal keys. */
export const userApiKeysStreamId = (userId: string): string => `apikey-user-${userId}`;
/** Stream of an organization's service keys. */
export const organizationApiKeysStreamId = (organizationId: string): string => `apikey-org-${organizationId}`;

/** Owner stream of a key, from its creation data. */
export function apiKeyOwnerStreamId(key: Pick<ApiKeyCreated, 'type' | 'userId' | 'organizationId'>): string {
  return key.type === 'personal' ? userApiKeysStreamId(key.userId ?? '') : organizationApiKeysStreamId(key.organizationId ?? '');
}
