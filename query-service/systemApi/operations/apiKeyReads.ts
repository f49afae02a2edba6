import { AppError, type ApiKeyDirectory, type ApiKeyView } from '../../../contracts/index.ts';
import type { RequestContext } from './systemOperations.ts';
import type { InputRecord } from './systemWrites.ts';

/** The API-key reads (system-api.md §3.2, §4.5), named as their GraphQL fields; served by the ApiKeyDirectory port. */
export const apiKeyReadNames = ['myApiKeys', 'serviceApiKeys', 'apiKeyById'] as const;
export type ApiKeyReadName = (typeof apiKeyReadNames)[number];

export function isApiKeyReadName(name: string): name is ApiKeyReadName {
  return (apiKeyReadNames as readonly string[]).includes(name);
}

/** Runs one API-key read with a checked input (GraphQL arguments, or REST path ids + query string). */
export function runApiKeyRead(
  directory: ApiKeyDirectory | undefined,
  name: ApiKeyReadName,
  ctx: RequestContext,
  input: InputRecord,
): Promise<ApiKeyView | ApiKeyView[]> {
  if (directory === undefined) throw new AppError('SERVICE_UNAVAILABLE', 'API keys are not served by this process');
  const includeRevoked = input.includeRevoked === true;
  switch (name) {
    case 'myApiKeys':
      return directory.listMyApiKeys(ctx.principal, { includeRevoked });
    case 'serviceApiKeys':
      return directory.listServiceApiKeys(ctx.principal, String(input.organizationId), { includeRevoked });
    case 'apiKeyById':
      return directory.getApiKey(ctx.principal, String(input.id));
    default: {
      const never: never = name;
      return never;
    }
  }
}
