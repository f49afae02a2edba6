import type { GraphQLFieldResolver } from 'graphql';
import type { ApiKeyDirectory, Authenticator, OAuthServer } from '../../../contracts/index.ts';
import { isAppError } from '../../../contracts/index.ts';
import { apiKeyReadNames, runApiKeyRead } from '../operations/apiKeyReads.ts';
import { runOAuthGrantAction } from '../operations/oauthGrantActions.ts';
import type { ResolverMap } from './systemSchema.ts';
import { dataOf, type DataArgs, type SystemGraphqlContext } from './systemGraphqlContext.ts';

type Resolver = GraphQLFieldResolver<unknown, SystemGraphqlContext, DataArgs>;

export type AuthResolverDeps = {
  readonly authenticator: Authenticator;
  /** API-key reads; absent: those fields answer SERVICE_UNAVAILABLE. */
  readonly apiKeys?: ApiKeyDirectory;
  /** Connected apps; absent: those fields answer SERVICE_UNAVAILABLE. */
  readonly oauth?: OAuthServer;
};

/** Query fields served here rather than by SystemOperations. */
export const authQueryFields: readonly string[] = ['issueAccessToken', ...apiKeyReadNames, 'myOAuthGrants'];

/** Mutation fields served here: `login` and the connected-apps revocation (oauth.md §6). */
export const authMutationFields: readonly string[] = ['login', 'revokeOAuthGrant'];

/**
 * The authentication fields of the system GraphQL API: `login` (CSRF-gated, sets the session cookies; each field of a
 * document is one throttled attempt), `issueAccessToken` (JWT sessions only, auth.md §11) and the API-key reads.
 */
export function createAuthResolvers(deps: AuthResolverDeps): ResolverMap {
  const { authenticator } = deps;
  const query: Record<string, Resolver> = {
    issueAccessToken: (_root, _args, ctx) => authenticator.issueAccessToken(ctx.request.principal),
    myOAuthGrants: (_root, args, ctx) => runOAuthGrantAction(deps.oauth, 'myOAuthGrants', ctx.request, dataOf(args)),
  };
  for (const name of apiKeyReadNames) {
    query[name] = (_root, args, ctx) => runApiKeyRead(deps.apiKeys, name, ctx.request, dataOf(args));
  }
  const mutation: Record<string, Resolver> = {
    revokeOAuthGrant: (_root, args, ctx) => runOAuthGrantAction(deps.oauth, 'revokeOAuthGrant', ctx.request, dataOf(args)),
    login: async (_root, args, ctx) => {
      ctx.session.assertCsrf();
      const { username, password } = dataOf(args) as { username: string; password: string };
      const result = await authenticator.login({ username, password, clientIp: ctx.clientIp }).catch((err: unknown) => {
        // The field fails with HTTP 200 (errors.md §3.2); the wait still reaches clients as a Retry-After header.
        const retryAfter = isAppError(err, 'RATE_LIMITED') ? err.headers?.['Retry-After'] : undefined;
        if (retryAfter) ctx.session.setRetryAfter(retryAfter);
        throw err;
      });
      ctx.session.setCookies(result);
      return { accessToken: result.accessToken, expiresIn: result.expiresIn };
    },
  };
  return { Query: query, Mutation: mutation };
}
