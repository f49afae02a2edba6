import type { ApiKeyCreated } from '../index.ts';

/** The data of an ApiKeyCreated event: a personal, read-only key of user u1 unless `extra` says otherwise. */
export function apiKeyCreated(keyId: string, extra: Partial<ApiKeyCreated> = {}): ApiKeyCreated {
  return {
    keyId,
    name: `key ${keyId}`,
    prefix: `svc_${keyId.padEnd(6, 'x')}`,
    secretHash: 'a'.repeat(64),
    type: 'personal',
    userId: 'u1',
    organizationId: null,
    projectIds: null,
    branchNames: ['$default'],
    tableIds: null,
    readOnly: true,
    permissions: null,
    expiresAt: '2026-04-01T00:00:00.000Z',
    createdBy: 'u1',
    rotatedFromId: null,
    ...extra,
  };
}
