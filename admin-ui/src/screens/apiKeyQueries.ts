import { API_KEY_FIELDS } from '../api/fragments.ts';
import type { ApiClient } from '../api/client.ts';
import { graphqlLiteral } from '../api/graphqlLiteral.ts';
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
  const query = `query MyApiKeys { myApiKeys(data: ${graphqlLiteral({ includeRevoked })}) { ${API_KEY_FIELDS} } }`;
  return (await api.graphql<{ myApiKeys: ApiKey[] }>(query)).myApiKeys;
}

export async function listServiceKeys(api: ApiClient, organizationId: string, includeRevoked: boolean): Promise<ApiKey[]> {
  const query = `query ServiceApiKeys($org: String!, $all: Boolean) { serviceApiKeys(organizationId: $org, includeRevoked: $all) { ${API_KEY_FIELDS} } }`;
  return (await api.graphql<{ serviceApiKeys: ApiKey[] }>(query, { org: organizationId, all: includeRevoked })).serviceApiKeys;
}

export async function createPersonalKey(api: ApiClient, input: KeyInput): Promise<ApiKeyWithSecret> {
  const query = `mutation CreatePersonalApiKey { createPersonalApiKey(data: ${graphqlLiteral(input)}) { secret apiKey { ${API_KEY_FIELDS} } } }`;
  return (await api.graphql<{ createPersonalApiKey: ApiKeyWithSecret }>(query)).createPersonalApiKey;
}

export async function createServiceKey(api: ApiClient, input: KeyInput & { readonly organizationId: string; readonly rules: readonly PermissionRule[] }): Promise<ApiKeyWithSecret> {
  const { rules, ...rest } = input;
  const data = graphqlLiteral({ ...rest, permissions: { rules } });
  const query = `mutation CreateServiceApiKey { createServiceApiKey(data: ${data}) { secret apiKey { ${API_KEY_FIELDS} } } }`;
  return (await api.graphql<{ createServiceApiKey: ApiKeyWithSecret }>(query)).createServiceApiKey;
}

export async function rotateKey(api: ApiClient, id: string): Promise<ApiKeyWithSecret> {
  const query = `mutation RotateApiKey($id: ID!) { rotateApiKey(id: $id) { secret apiKey { ${API_KEY_FIELDS} } } }`;
  return (await api.graphql<{ rotateApiKey: ApiKeyWithSecret }>(query, { id })).rotateApiKey;
}

export async function revokeKey(api: ApiClient, id: string): Promise<ApiKey> {
  const query = `mutation RevokeApiKey($id: ID!) { revokeApiKey(id: $id) { ${API_KEY_FIELDS} } }`;
  return (await api.graphql<{ revokeApiKey: ApiKey }>(query, { id })).revokeApiKey;
}
