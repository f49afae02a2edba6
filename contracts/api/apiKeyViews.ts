import type { ApiKeyPermissions, ApiKeyType } from '../events/authEvents.ts';
import type { ApiKeyStatus } from '../state/authState.ts';

/** The ApiKey record of auth.md §8.2 as REST returns it (system-api.md §4.5); never holds the secret or its hash. */
export type ApiKeyView = {
  readonly id: string;
  readonly name: string;
  readonly prefix: string;
  readonly type: ApiKeyType;
  readonly status: ApiKeyStatus;
  readonly userId: string | null;
  readonly organizationId: string | null;
  readonly projectIds: readonly string[] | null;
  readonly branchNames: readonly string[] | null;
  readonly tableIds: readonly string[] | null;
  readonly readOnly: boolean;
  readonly permissions: ApiKeyPermissions | null;
  readonly expiresAt: string;
  readonly revokedAt: string | null;
  readonly lastUsedAt: string | null;
  readonly createdAt: string;
  readonly createdBy: string;
  readonly rotatedFromId: string | null;
  readonly replacedById: string | null;
};

/** Answer of create and rotate: the only time the secret is shown. */
export type ApiKeyWithSecretView = { readonly secret: string; readonly apiKey: ApiKeyView };
