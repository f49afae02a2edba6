import { AppError, apiKeyStatus, isJwtUser, isoTime, organizationRoleOf } from '../../contracts/index.ts';
import type { ApiKeyRecord, ApiKeyView, Principal, SystemState } from '../../contracts/index.ts';

export type JwtUserPrincipal = Extract<Principal, { kind: 'user' }>;

/** Key management needs a user signed in with a JWT (auth.md §8.3 rule 1, §8.4): else 401 / 403. */
export function assertKeyManager(principal: Principal): asserts principal is JwtUserPrincipal {
  if (principal.kind === 'anonymous') throw new AppError('UNAUTHENTICATED');
  if (principal.kind !== 'user' || !isJwtUser(principal)) {
    throw new AppError('FORBIDDEN', 'API keys can only be managed by a user signed in with a session or access token');
  }
}

export function isSystemAdmin(state: SystemState, userId: string): boolean {
  return state.users.get(userId)?.role === 'systemAdmin';
}

/** Owners and admins of an organization (and system administrators) manage its service keys (domain.md §8.1). */
export function managesServiceKeys(state: SystemState, userId: string, organizationId: string): boolean {
  if (isSystemAdmin(state, userId)) return true;
  const role = organizationRoleOf(state, userId, organizationId);
  return role === 'organizationOwner' || role === 'organizationAdmin';
}

/** auth.md §8.8: personal keys their owner, service keys owners/admins of their organization, systemAdmin any. */
export function mayManageApiKey(state: SystemState, userId: string, key: ApiKeyRecord): boolean {
  if (key.type === 'personal') return key.userId === userId || isSystemAdmin(state, userId);
  return key.organizationId !== null && managesServiceKeys(state, userId, key.organizationId);
}

/** A key the caller may manage; any other id is API_KEY_NOT_FOUND (its existence is not revealed). */
export function findManageableKey(state: SystemState, principal: JwtUserPrincipal, keyId: string): ApiKeyRecord {
  const key = typeof keyId === 'string' ? state.apiKeys.get(keyId) : undefined;
  if (!key || !mayManageApiKey(state, principal.userId, key)) throw new AppError('API_KEY_NOT_FOUND');
  return key;
}

/** The ApiKey JSON of system-api.md §4.5 (status derived at `nowMs`); never the hash. */
export function apiKeyView(key: ApiKeyRecord, lastUsedAtMs: number | null, nowMs: number): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    type: key.type,
    status: apiKeyStatus(key, nowMs),
    userId: key.userId,
    organizationId: key.organizationId,
    projectIds: key.projectIds,
    branchNames: key.branchNames,
    tableIds: key.tableIds,
    readOnly: key.readOnly,
    permissions: key.permissions,
    expiresAt: key.expiresAt,
    revokedAt: key.revokedAt,
    lastUsedAt: lastUsedAtMs === null ? null : isoTime(lastUsedAtMs),
    createdAt: key.createdAt,
    createdBy: key.createdBy,
    rotatedFromId: key.rotatedFromId,
    replacedById: key.replacedById,
  };
}
