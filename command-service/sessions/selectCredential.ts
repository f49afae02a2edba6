import { AppError } from '../../contracts/index.ts';
import type { PresentedCredentials } from '../../contracts/index.ts';

/** `svc_` + 22 base-62 characters (auth.md §8.1). */
export const API_KEY_PATTERN = /^svc_[0-9A-Za-z]{22}$/;
const API_KEY_PREFIX = 'svc_';
const BEARER = /^bearer (\S+)$/i;

/** The one credential a request acts with (auth.md §2), not yet validated beyond its form. */
export type SelectedCredential =
  | { readonly kind: 'none' }
  | { readonly kind: 'jwt'; readonly token: string; readonly via: 'jwt' | 'cookie' }
  | { readonly kind: 'apiKey'; readonly key: string };

function apiKey(value: string): SelectedCredential {
  if (!API_KEY_PATTERN.test(value)) throw new AppError('API_KEY_INVALID');
  return { kind: 'apiKey', key: value };
}

/**
 * Applies the precedence of auth.md §2: explicit credentials (Authorization, X-Api-Key, api_key; different values
 * -> AMBIGUOUS_CREDENTIALS, the same value twice counts once) before a single `svc_at` cookie, else none.
 */
export function selectCredential(credentials: PresentedCredentials): SelectedCredential {
  const bearer = credentials.authorization === null ? null : BEARER.exec(credentials.authorization);
  // Compare what each header carries: `Authorization: Bearer svc_x` and `X-Api-Key: svc_x` are the same key.
  const authorizationValue = bearer ? (bearer[1] ?? '') : credentials.authorization;
  const explicit = [authorizationValue, credentials.apiKeyHeader, credentials.apiKeyQuery].filter((value): value is string => value !== null);
  if (new Set(explicit).size > 1) throw new AppError('AMBIGUOUS_CREDENTIALS');

  if (credentials.authorization !== null) {
    if (!bearer) throw new AppError('TOKEN_INVALID');
    const token = bearer[1] ?? '';
    return token.startsWith(API_KEY_PREFIX) ? apiKey(token) : { kind: 'jwt', token, via: 'jwt' };
  }
  if (credentials.apiKeyHeader !== null) return apiKey(credentials.apiKeyHeader);
  if (credentials.apiKeyQuery !== null) return apiKey(credentials.apiKeyQuery);

  const cookies = credentials.accessTokenCookies;
  if (cookies.length > 1) throw new AppError('TOKEN_INVALID');
  const cookie = cookies[0];
  if (cookie === undefined) return { kind: 'none' };
  if (cookie.length === 0) throw new AppError('TOKEN_INVALID');
  return { kind: 'jwt', token: cookie, via: 'cookie' };
}
