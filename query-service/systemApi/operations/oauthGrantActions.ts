import { AppError, type OAuthGrantView, type OAuthServer } from '../../../contracts/index.ts';
import type { RequestContext } from './systemOperations.ts';
import type { InputRecord } from './systemWrites.ts';

/** The connected-apps fields (oauth.md §6), named as their GraphQL fields; served by the OAuthServer port. */
export const oauthGrantActionNames = ['myOAuthGrants', 'revokeOAuthGrant'] as const;
export type OAuthGrantActionName = (typeof oauthGrantActionNames)[number];

/** Lists or revokes the caller's grants (GraphQL arguments, or the REST path id). */
export function runOAuthGrantAction(
  oauth: OAuthServer | undefined,
  name: OAuthGrantActionName,
  ctx: RequestContext,
  input: InputRecord,
): Promise<OAuthGrantView | OAuthGrantView[]> {
  if (oauth === undefined) throw new AppError('SERVICE_UNAVAILABLE', 'OAuth is not enabled on this server');
  switch (name) {
    case 'myOAuthGrants':
      return oauth.grants(ctx.principal);
    case 'revokeOAuthGrant':
      return oauth.revokeGrant(ctx.principal, String(input.id), { correlationId: ctx.requestId });
    default: {
      const never: never = name;
      return never;
    }
  }
}
