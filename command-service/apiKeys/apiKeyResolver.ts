import type { Logger } from 'pino';
import { AppError, apiKeyStatus } from '../../contracts/index.ts';
import type { ApiKeyRecord, Clock, KeyScope, Principal, SystemState } from '../../contracts/index.ts';
import { hashApiKey } from './apiKeyFormat.ts';
import { API_KEY_USAGE_INTERVAL_MS } from './apiKeyUsage.ts';
import type { ApiKeyUsageStore } from './apiKeyUsage.ts';

/** Looks a well-formed key up; null = unknown (API_KEY_INVALID). Throws for revoked, expired or orphaned keys. */
export type ApiKeyResolver = (key: string, state: SystemState) => Promise<Principal | null>;

function scopeOf(key: ApiKeyRecord): KeyScope {
  return {
    keyId: key.id,
    organizationId: key.organizationId,
    projectIds: key.projectIds,
    branchNames: key.branchNames,
    tableIds: key.tableIds,
    readOnly: key.readOnly,
  };
}

/**
 * API-key authentication (auth.md §8.1, §8.4, §8.9) against the in-memory state, in the spec's order: unknown ->
 * API_KEY_INVALID, revoked -> API_KEY_REVOKED, expired -> API_KEY_EXPIRED, personal key whose owner is inactive or
 * left the key's organization -> API_KEY_INVALID. The type comes from the stored record, never the string. A
 * successful use records `lastUsedAt` (at most once per 60 s per key).
 */
export function createApiKeyResolver(deps: { readonly clock: Clock; readonly log: Logger; readonly usage: ApiKeyUsageStore }): ApiKeyResolver {
  const { clock, log, usage } = deps;
  return async (secret, state) => {
    const keyId = state.apiKeyIdsByHash.get(hashApiKey(secret));
    const key = keyId === undefined ? undefined : state.apiKeys.get(keyId);
    if (!key) return null;
    const now = clock.now();
    const status = apiKeyStatus(key, now);
    if (status !== 'active') {
      const event = status === 'revoked' ? 'apikey.use_revoked' : 'apikey.use_expired';
      log.warn({ audit: true, event, actor: `key:${key.id}`, keyId: key.id, prefix: key.prefix }, `use of a ${status} api key`);
      throw new AppError(status === 'revoked' ? 'API_KEY_REVOKED' : 'API_KEY_EXPIRED');
    }
    let principal: Principal;
    if (key.type === 'personal') {
      const user = key.userId === null ? undefined : state.users.get(key.userId);
      if (!user || !user.isActive) throw new AppError('API_KEY_INVALID');
      if (key.organizationId !== null && !state.organizations.get(key.organizationId)?.members.has(user.id)) {
        throw new AppError('API_KEY_INVALID');
      }
      principal = { kind: 'user', userId: user.id, username: user.username, via: 'personalKey', sid: null, key: scopeOf(key) };
    } else {
      if (key.organizationId === null) throw new AppError('API_KEY_INVALID');
      principal = { kind: 'service', keyId: key.id, organizationId: key.organizationId, rules: key.permissions?.rules ?? [], key: scopeOf(key) };
    }
    // Usage is best effort: a failing ephemeral store must not fail the request.
    usage.touch(key.id, now, API_KEY_USAGE_INTERVAL_MS).catch((err: unknown) => log.warn({ err, keyId: key.id }, 'lastUsedAt update failed'));
    return principal;
  };
}
