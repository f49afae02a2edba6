import { OAUTH_SCOPES, isCodeChallenge, matchRedirectUri, parseOAuthScopes, type OAuthClientView, type OAuthServer } from '../../contracts/index.ts';

/** The parameters of oauth.md §4 that travel from the GET to the sign-in and consent forms. */
export const AUTHORIZE_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'code_challenge',
  'code_challenge_method',
  'state',
  'scope',
  'resource',
] as const;

export type AuthorizeParams = Readonly<Record<string, string>>;

/** A request that passed every check: what the consent screen shows and the code is bound to. */
export type ValidAuthorizeRequest = {
  readonly client: OAuthClientView;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly scopes: readonly string[];
  readonly resource: string;
  readonly state: string | null;
};

/**
 * What to do with an authorization request: an error page (client or redirect URI not trustworthy: never redirect),
 * a redirect with an OAuth error, or go on.
 */
export type AuthorizeCheck =
  | { readonly kind: 'page'; readonly message: string }
  | { readonly kind: 'redirect'; readonly redirectUri: string; readonly error: string; readonly description: string; readonly state: string | null }
  | { readonly kind: 'valid'; readonly request: ValidAuthorizeRequest };

/** The known parameters of a query or form (a repeated parameter counts as absent; it is refused below). */
export function authorizeParamsOf(source: Readonly<Record<string, unknown>>): { readonly params: AuthorizeParams; readonly repeated: string | null } {
  const params: Record<string, string> = {};
  let repeated: string | null = null;
  for (const name of AUTHORIZE_PARAMS) {
    const value = source[name];
    if (typeof value === 'string') params[name] = value;
    else if (value !== undefined) repeated = name;
  }
  return { params, repeated };
}

/** oauth.md §4 checks, in the order that decides whether a redirect is safe at all. */
export async function checkAuthorizeRequest(oauth: OAuthServer, source: Readonly<Record<string, unknown>>, base: string): Promise<AuthorizeCheck> {
  const { params, repeated } = authorizeParamsOf(source);
  const clientId = params.client_id;
  if (clientId === undefined || clientId === '') return { kind: 'page', message: 'The request names no client (client_id is missing).' };
  const found = await oauth.findClient(clientId);
  if (found.client === null) return { kind: 'page', message: `The application cannot be used: ${found.reason}.` };
  const client = found.client;
  const presented = params.redirect_uri;
  if (presented === undefined || presented === '') return { kind: 'page', message: 'The request names no redirect_uri.' };
  if (matchRedirectUri(client.redirectUris, presented) === null) {
    return { kind: 'page', message: 'The redirect_uri is not registered for this application, so Strata will not send you there.' };
  }
  const state = params.state ?? null;
  const fail = (error: string, description: string): AuthorizeCheck => ({ kind: 'redirect', redirectUri: presented, error, description, state });
  if (repeated !== null) return fail('invalid_request', `${repeated} must be given once`);
  if (params.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be code');
  if (params.code_challenge === undefined || !isCodeChallenge(params.code_challenge)) {
    return fail('invalid_request', 'code_challenge is required (PKCE, 43 to 128 characters)');
  }
  if (params.code_challenge_method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
  const scopes = parseOAuthScopes(params.scope ?? OAUTH_SCOPES.join(' '));
  if (scopes === null || scopes.length === 0 || scopes.some((s) => !client.scopes.includes(s))) {
    return fail('invalid_scope', 'scope must be within the scopes registered for this application');
  }
  const resource = params.resource;
  if (resource !== undefined && resource !== `${base}/mcp` && resource !== base) return fail('invalid_target', `resource must be ${base}/mcp`);
  return {
    kind: 'valid',
    request: { client, redirectUri: presented, codeChallenge: params.code_challenge, scopes, resource: `${base}/mcp`, state },
  };
}

/** `redirect_uri` with the response parameters added to its query, `iss` always included (RFC 9207). */
export function redirectWith(redirectUri: string, values: Readonly<Record<string, string | null>>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(values)) if (value !== null) url.searchParams.set(name, value);
  return url.href;
}
