/** Pure rules of the OAuth authorization server (oauth.md §3, §4): scopes, redirect URIs, client metadata. */

export const OAUTH_SCOPES = ['strata:read', 'strata:write'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];
export const OAUTH_READ_SCOPE: OAuthScope = 'strata:read';
export const OAUTH_WRITE_SCOPE: OAuthScope = 'strata:write';
export const OAUTH_GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;
export const OAUTH_AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const;
export type OAuthAuthMethod = (typeof OAUTH_AUTH_METHODS)[number];

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);
const CODE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;
const MAX_REDIRECT_URIS = 10;
const MAX_CLIENT_NAME = 100;
const MAX_CLIENT_URI = 2000;

/** A refusal in the words of RFC 7591 / RFC 6749 (`error`, `error_description`). */
export type OAuthProblem = { readonly error: string; readonly description: string };

/** Space-separated scopes, deduplicated in the canonical order; null when one is unknown. */
export function parseOAuthScopes(value: string): OAuthScope[] | null {
  const names = value.split(' ').filter((name) => name !== '');
  if (names.some((name) => !(OAUTH_SCOPES as readonly string[]).includes(name))) return null;
  return OAUTH_SCOPES.filter((scope) => names.includes(scope));
}

/** PKCE `code_challenge` (RFC 7636 §4.2): 43–128 characters of the unreserved set. */
export function isCodeChallenge(value: string): boolean {
  return CODE_CHALLENGE.test(value);
}

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** An `http` URI on a loopback host (RFC 8252 §7.3): its port may differ at authorization time. */
export function isLoopbackHttpUri(value: string): boolean {
  const url = parseUrl(value);
  return url !== null && url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * A redirect URI a client may register (oauth.md §3.1): absolute, no fragment, and `https:`, or `http:` on a loopback
 * host, or a private-use scheme containing a dot (`com.example.app:/cb`). Returns why not, or null.
 */
export function redirectUriProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return 'must be a non-empty string';
  if (value.includes('#')) return 'must not contain a fragment';
  const url = parseUrl(value);
  if (url === null) return 'must be an absolute URI';
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https') return url.hostname === '' ? 'must name a host' : null;
  if (scheme === 'http') return LOOPBACK_HOSTS.has(url.hostname) ? null : 'http is allowed only for localhost, 127.0.0.1 and [::1]';
  if (scheme.includes('.')) return null;
  return `scheme "${scheme}" is not allowed (use https, loopback http or a private-use scheme such as com.example.app)`;
}

/** Exact match, except that a loopback `http` URI may use another port (oauth.md §4). */
export function redirectUriMatches(registered: string, presented: string): boolean {
  if (registered === presented) return true;
  if (!isLoopbackHttpUri(registered) || !isLoopbackHttpUri(presented)) return false;
  const a = new URL(registered);
  const b = new URL(presented);
  a.port = '';
  b.port = '';
  return a.href === b.href;
}

/** The registered URI a presented one matches, or null. */
export function matchRedirectUri(registered: readonly string[], presented: string): string | null {
  return registered.find((uri) => redirectUriMatches(uri, presented)) ?? null;
}

/** A Client ID Metadata Document id (oauth.md §3.2): an `https` URL with a path other than `/`. */
export function isMetadataDocumentClientId(clientId: string): boolean {
  const url = parseUrl(clientId);
  return url !== null && url.protocol === 'https:' && url.pathname !== '/' && url.pathname !== '' && !clientId.includes('#');
}

/** Client metadata after the rules of oauth.md §3.1 (unknown members dropped). */
export type OAuthClientMetadata = {
  readonly redirectUris: readonly string[];
  readonly clientName: string | null;
  readonly clientUri: string | null;
  readonly scopes: readonly OAuthScope[];
  readonly grantTypes: readonly string[];
  readonly tokenEndpointAuthMethod: OAuthAuthMethod;
};

const metadataProblem = (description: string): OAuthProblem => ({ error: 'invalid_client_metadata', description });

function optionalString(body: Record<string, unknown>, name: string, max: number): string | null | OAuthProblem {
  const value = body[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > max) return metadataProblem(`${name} must be a string of at most ${max} characters`);
  return value;
}

const isProblem = (value: unknown): value is OAuthProblem => typeof value === 'object' && value !== null && 'error' in value;

/** RFC 7591 request members checked against oauth.md §3.1 (also the rules of a metadata document, §3.2). */
export function validateClientMetadata(body: unknown): OAuthClientMetadata | OAuthProblem {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return metadataProblem('the body must be a JSON object');
  const b = body as Record<string, unknown>;
  const uris = b.redirect_uris;
  if (!Array.isArray(uris) || uris.length < 1 || uris.length > MAX_REDIRECT_URIS) {
    return { error: 'invalid_redirect_uri', description: `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs` };
  }
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem !== null) return { error: 'invalid_redirect_uri', description: `redirect URI ${JSON.stringify(uri).slice(0, 200)} ${problem}` };
  }
  const clientName = optionalString(b, 'client_name', MAX_CLIENT_NAME);
  if (isProblem(clientName)) return clientName;
  const clientUri = optionalString(b, 'client_uri', MAX_CLIENT_URI);
  if (isProblem(clientUri)) return clientUri;
  if (clientUri !== null && parseUrl(clientUri)?.protocol !== 'https:') return metadataProblem('client_uri must be an https URL');
  const scopeText = b.scope === undefined || b.scope === null ? OAUTH_SCOPES.join(' ') : b.scope;
  const scopes = typeof scopeText === 'string' ? parseOAuthScopes(scopeText) : null;
  if (scopes === null || scopes.length === 0) return metadataProblem('scope must be a subset of "strata:read strata:write"');
  const grantTypes = b.grant_types ?? [...OAUTH_GRANT_TYPES];
  if (!Array.isArray(grantTypes) || grantTypes.length === 0 || grantTypes.some((g) => !(OAUTH_GRANT_TYPES as readonly unknown[]).includes(g))) {
    return metadataProblem('grant_types must be a subset of ["authorization_code", "refresh_token"]');
  }
  const responseTypes = b.response_types ?? ['code'];
  if (!Array.isArray(responseTypes) || responseTypes.length !== 1 || responseTypes[0] !== 'code')
    return metadataProblem('response_types must be ["code"]');
  const method = b.token_endpoint_auth_method ?? 'none';
  if (!(OAUTH_AUTH_METHODS as readonly unknown[]).includes(method)) {
    return metadataProblem('token_endpoint_auth_method must be none, client_secret_basic or client_secret_post');
  }
  return {
    redirectUris: uris as string[],
    clientName,
    clientUri,
    scopes,
    grantTypes: [...new Set(grantTypes as string[])],
    tokenEndpointAuthMethod: method as OAuthAuthMethod,
  };
}

export function isOAuthProblem(value: unknown): value is OAuthProblem {
  return isProblem(value);
}
