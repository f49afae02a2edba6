import type { ApiKeyView } from '../api/apiKeyViews.ts';
import type { Principal } from '../auth/principal.ts';

/**
 * API-key reads (system-api.md §3.2 `myApiKeys`, `serviceApiKeys`, `apiKeyById`; REST §4.5). Served from the
 * in-memory system state, so they reflect a revocation or rotation at once. Every method needs a user
 * authenticated by a JWT (cookie or bearer): anonymous -> UNAUTHENTICATED, an API key -> FORBIDDEN.
 */
export interface ApiKeyDirectory {
  /** The caller's personal keys, newest first; revoked ones only with `includeRevoked`. */
  listMyApiKeys(principal: Principal, options?: { readonly includeRevoked?: boolean }): Promise<ApiKeyView[]>;
  /**
   * Service keys of an organization, newest first; revoked ones only with `includeRevoked`. Unknown organization
   * -> ORGANIZATION_NOT_FOUND; caller not its owner/admin (nor systemAdmin) -> FORBIDDEN.
   */
  listServiceApiKeys(principal: Principal, organizationId: string, options?: { readonly includeRevoked?: boolean }): Promise<ApiKeyView[]>;
  /** One key the caller may manage (auth.md §8.8); any other id -> API_KEY_NOT_FOUND. */
  getApiKey(principal: Principal, id: string): Promise<ApiKeyView>;
}
