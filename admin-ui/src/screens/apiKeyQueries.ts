import type { ApiClient } from '../api/client.ts';
import {
  CreatePersonalApiKeyDocument,
  CreateServiceApiKeyDocument,
  MyApiKeysDocument,
  RevokeApiKeyDocument,
  RotateApiKeyDocument,
  ServiceApiKeysDocument,
} from '../api/generated/operations.ts';
import type { ApiKey, ApiKeyWithSecret, PermissionRule } from '../api/types.ts';

/** Scope and lifetime of a new key (auth.md §8.3); null/undefined scope = unrestricted. */
export type KeyInput = {
  readonly name: string;
  readonly organizationId?: string;
  readonly projectIds?: readonly string[];
  readonly branchNames?: readonly string[];
  readonly tableIds?: readonly string[];
  readonly readOnly: boolean;
  readonly expiresAt?: string;
};

export async function listPersonalKeys(api: ApiClient, includeRevoked: boolean): Promise<ApiKey[]> {
  return (await api.request(MyApiKeysDocument, { data: { includeRevoked } })).myApiKeys;
}

export async function listServiceKeys(api: ApiClient, organizationId: string, includeRevoked: boolean): Promise<ApiKey[]> {
  return (await api.request(ServiceApiKeysDocument, { organizationId, includeRevoked })).serviceApiKeys;
}

export async function createPersonalKey(api: ApiClient, input: KeyInput): Promise<ApiKeyWithSecret> {
  return (await api.request(CreatePersonalApiKeyDocument, { data: input })).createPersonalApiKey;
}

export async function createServiceKey(
  api: ApiClient,
  input: KeyInput & { readonly organizationId: string; readonly rules: readonly PermissionRule[] },
): Promise<ApiKeyWithSecret> {
  const { rules, ...rest } = input;
  return (await api.request(CreateServiceApiKeyDocument, { data: { ...rest, organizationId: input.organizationId, permissions: { rules } } }))
    .createServiceApiKey;
}

export async function rotateKey(api: ApiClient, id: string): Promise<ApiKeyWithSecret> {
  return (await api.request(RotateApiKeyDocument, { id })).rotateApiKey;
}

export async function revokeKey(api: ApiClient, id: string): Promise<ApiKey> {
  return (await api.request(RevokeApiKeyDocument, { id })).revokeApiKey;
}
