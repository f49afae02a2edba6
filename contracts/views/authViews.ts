import type { ProjectionSpec } from '../ports/viewStore.ts';

/**
 * Storage layout of the authentication projections (operations.md §3 names `api-keys` and `sessions`). They serve
 * the operator CLI, operators and future listings; authentication itself reads the in-memory system state, which
 * is exempt from projection lag (operations.md §4.4). Times are RFC 3339 strings as the events carry them.
 */
export const apiKeyViews = {
  name: 'api-keys',
  version: 1,
  collections: [
    {
      /** One record per key, without its secret or secret hash. Status is derived (revoked, else expiresAt vs now). */
      name: 'keys',
      key: ['id'],
      fields: {
        id: 'text',
        name: 'text',
        prefix: 'text',
        type: 'text',
        userId: 'text',
        organizationId: 'text',
        projectIds: 'json',
        branchNames: 'json',
        tableIds: 'json',
        readOnly: 'boolean',
        permissions: 'json',
        expiresAt: 'text',
        createdAt: 'text',
        createdBy: 'text',
        rotatedFromId: 'text',
        revoked: 'boolean',
        revokedAt: 'text',
        revokedBy: 'text',
        replacedById: 'text',
      },
      indexes: [{ fields: ['userId', 'createdAt'] }, { fields: ['organizationId', 'type', 'createdAt'] }],
    },
  ],
} as const satisfies ProjectionSpec;

export const sessionViews = {
  name: 'sessions',
  version: 1,
  collections: [
    {
      /**
       * One record per refresh family (auth.md §7.1), never a token or token id. `revoked` is also set when the
       * user's token version moves on (deactivation, password change, logout-all), with that reason. Families are
       * dropped an hour after their absolute expiry, so the collection stays bounded by live sessions.
       */
      name: 'families',
      key: ['id'],
      fields: {
        id: 'text',
        userId: 'text',
        userTokenVersion: 'integer',
        createdAt: 'text',
        absoluteExpiresAt: 'text',
        /** Expiry of the family's current refresh token. */
        tokenExpiresAt: 'text',
        rotations: 'integer',
        lastRotatedAt: 'text',
        revoked: 'boolean',
        revokedAt: 'text',
        revokeReason: 'text',
      },
      indexes: [{ fields: ['userId', 'createdAt'] }, { fields: ['absoluteExpiresAt'] }],
    },
  ],
} as const satisfies ProjectionSpec;
