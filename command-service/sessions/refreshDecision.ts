import type { RefreshFamilyRecord, RefreshTokenRecord, SystemState, UserRecord } from '../../contracts/index.ts';

/** Why a refresh token is refused without a reuse alarm (auth.md §7.2 rows 3 and 4). */
export type RefreshInvalidReason = 'unknown' | 'familyRevoked' | 'familyExpired' | 'tokenExpired' | 'userInactive';

/** The matching row of auth.md §7.2 for a token whose MAC was valid (rows 3 to 7; row 8 is the retry around it). */
export type RefreshDecision =
  | { readonly kind: 'invalid'; readonly reason: RefreshInvalidReason; readonly family: RefreshFamilyRecord | null }
  | { readonly kind: 'rotate'; readonly family: RefreshFamilyRecord; readonly token: RefreshTokenRecord; readonly user: UserRecord }
  | {
      readonly kind: 'duplicate';
      readonly family: RefreshFamilyRecord;
      readonly successor: RefreshTokenRecord;
      readonly user: UserRecord;
    }
  | { readonly kind: 'reuse'; readonly family: RefreshFamilyRecord; readonly token: RefreshTokenRecord };

/**
 * Why a family no longer issues tokens, or null while it is live: revoked (logout, reuse), past its absolute expiry,
 * its user gone or deactivated, or the user's token version moved on since login (password change, admin reset,
 * deactivation, logout-all revoke every family this way, in the same append that bumps the version).
 */
export function familyDeadReason(
  state: SystemState,
  family: RefreshFamilyRecord,
  nowMs: number,
): Exclude<RefreshInvalidReason, 'unknown' | 'tokenExpired'> | null {
  if (family.revokedAt !== null) return 'familyRevoked';
  if (nowMs >= family.absoluteExpiresAt) return 'familyExpired';
  const user = state.users.get(family.userId);
  if (!user || !user.isActive) return 'userInactive';
  if (user.tokenVersion !== family.userTokenVersion) return 'familyRevoked';
  // A family of an OAuth grant dies with the grant (revoked in the Admin UI, or by RFC 7009 revocation).
  if (family.oauth !== null && state.oauthGrants.get(family.oauth.grantId)?.revokedAt !== null) return 'familyRevoked';
  return null;
}

/** Access tokens of family `sid` are TOKEN_REVOKED when the family is unknown (dropped after expiry) or dead. */
export function isFamilyRevokedIn(state: SystemState, sid: string, nowMs: number): boolean {
  const family = state.refreshFamilies.get(sid);
  return !family || familyDeadReason(state, family, nowMs) !== null;
}

/** Rows 3 (unknown id) to 7 of auth.md §7.2, first match wins; the grace boundary is inclusive. */
export function decideRefresh(state: SystemState, tokenId: string, nowMs: number, graceMs: number): RefreshDecision {
  const token = state.refreshTokens.get(tokenId);
  const family = token ? state.refreshFamilies.get(token.familyId) : undefined;
  if (!token || !family) return { kind: 'invalid', reason: 'unknown', family: null };
  const dead = familyDeadReason(state, family, nowMs);
  if (dead !== null) return { kind: 'invalid', reason: dead, family };
  if (nowMs >= token.expiresAt) return { kind: 'invalid', reason: 'tokenExpired', family };
  // familyDeadReason checked the user exists and is active.
  const user = state.users.get(family.userId) as UserRecord;
  if (token.rotatedAt === null) return { kind: 'rotate', family, token, user };
  const successor = token.successorId === null ? undefined : state.refreshTokens.get(token.successorId);
  if (nowMs - token.rotatedAt <= graceMs && successor && successor.rotatedAt === null) {
    return { kind: 'duplicate', family, successor, user };
  }
  return { kind: 'reuse', family, token };
}
