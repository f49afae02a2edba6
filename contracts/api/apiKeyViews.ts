import type { ApiKeyCreatedFields } from '../events/authEvents.ts';
import type { ApiKeyStatus } from '../state/authState.ts';

/** The ApiKey record of auth.md §8.2 as REST returns it (system-api.md §4.5); never holds the secret or its hash. */
export type ApiKeyView = ApiKeyCreatedFields & {
  readonly status: ApiKeyStatus;
  readonly revokedAt: string | null;
  readonly lastUsedAt: string | null;
  readonly replacedById: string | null;
};

/** Answer of create and rotate: the only time the secret is shown. */
export type ApiKeyWithSecretView = { readonly secret: string; readonly apiKey: ApiKeyView };
