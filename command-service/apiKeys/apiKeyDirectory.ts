import { AppError, organizationApiKeysStreamId, userApiKeysStreamId } from '../../contracts/index.ts';
import type { ApiKeyDirectory, ApiKeyRecord, ApiKeyView, Clock, SystemState, SystemStateSource } from '../../contracts/index.ts';
import { apiKeyView, assertKeyManager, findManageableKey, managesServiceKeys } from './apiKeyAccess.ts';
import type { ApiKeyUsageStore } from './apiKeyUsage.ts';

/** Key reads from the in-memory system state (revocations and rotations show at once) plus ephemeral `lastUsedAt`. */
export function createApiKeyDirectory(deps: {
  readonly systemState: SystemStateSource;
  readonly clock: Clock;
  readonly usage: ApiKeyUsageStore;
}): ApiKeyDirectory {
  const { systemState, clock, usage } = deps;

  async function views(keys: readonly ApiKeyRecord[]): Promise<ApiKeyView[]> {
    const lastUsed = await usage.lastUsedAt(keys.map((key) => key.id));
    const now = clock.now();
    return keys.map((key) => apiKeyView(key, lastUsed.get(key.id) ?? null, now));
  }

  /** Keys of an owner stream, newest first (creation order reversed), revoked ones only when asked. */
  function keysOf(state: SystemState, streamId: string, includeRevoked: boolean): ApiKeyRecord[] {
    const ids = state.apiKeyIdsByStream.get(streamId) ?? [];
    const keys: ApiKeyRecord[] = [];
    for (let i = ids.length - 1; i >= 0; i--) {
      const key = state.apiKeys.get(ids[i] as string);
      if (key && (includeRevoked || key.revokedAt === null)) keys.push(key);
    }
    return keys;
  }

  return {
    async listMyApiKeys(principal, options) {
      assertKeyManager(principal);
      const state = await systemState.current();
      return views(keysOf(state, userApiKeysStreamId(principal.userId), options?.includeRevoked === true));
    },
    async listServiceApiKeys(principal, organizationId, options) {
      assertKeyManager(principal);
      const state = await systemState.current();
      if (!state.organizations.has(organizationId)) throw new AppError('ORGANIZATION_NOT_FOUND');
      if (!managesServiceKeys(state, principal.userId, organizationId)) {
        throw new AppError('FORBIDDEN', 'Only owners and admins of the organization can manage its service keys');
      }
      return views(keysOf(state, organizationApiKeysStreamId(organizationId), options?.includeRevoked === true));
    },
    async getApiKey(principal, id) {
      assertKeyManager(principal);
      const key = findManageableKey(await systemState.current(), principal, id);
      const [view] = await views([key]);
      return view as ApiKeyView;
    },
  };
}
