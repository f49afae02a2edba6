import type { Request } from 'express';
import {
  anonymousPrincipal,
  isAppError,
  type Authenticator,
  type PresentedCredentials,
  type Principal,
  type SystemState,
} from '../../contracts/index.ts';
import { badRequest, forbidden, unauthorized } from './mcpHttpError.ts';
import type { McpBinding, McpSessionRecord } from './mcpSessionStore.ts';

/**
 * Header credentials only: cookies are never used on /mcp and query credentials were refused earlier. With OAuth on,
 * the credentials name this request's resource, whose audience-bound OAuth tokens are then accepted (oauth.md §5).
 */
export function mcpCredentials(req: Request, oauthResource?: string): PresentedCredentials {
  const header = (value: string | string[] | undefined): string | null =>
    value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  return {
    authorization: header(req.headers.authorization),
    apiKeyHeader: header(req.headers['x-api-key']),
    apiKeyQuery: null,
    accessTokenCookies: [],
    ...(oauthResource === undefined ? {} : { oauthResource }),
  };
}

export function presentsCredential(credentials: PresentedCredentials): boolean {
  return credentials.authorization !== null || credentials.apiKeyHeader !== null;
}

/** What bindings compare: the user (any credential of theirs) or the service key (mcp.md §3.1). */
export function principalKeyOf(principal: Principal): string | null {
  switch (principal.kind) {
    case 'anonymous':
      return null;
    case 'user':
      return `user:${principal.userId}`;
    case 'service':
      return `service:${principal.keyId}`;
    default: {
      const never: never = principal;
      return never;
    }
  }
}

/** The principal of a password-login session (no credential on the request). */
export function loginPrincipal(binding: Extract<McpBinding, { kind: 'login' }>): Principal {
  return { kind: 'user', userId: binding.userId, username: binding.username, via: 'mcpLogin', sid: null, key: null };
}

/**
 * Whether the session's binding is still alive (mcp.md §3.2, auth.md §12): a deactivated user ends every session
 * bound to them; a changed token version (password change, logout-all) ends password-login sessions.
 */
export function bindingAlive(state: SystemState, binding: McpBinding | null): boolean {
  if (binding === null || !binding.principalKey.startsWith('user:')) return true;
  const user = state.users.get(binding.principalKey.slice('user:'.length));
  if (!user || !user.isActive) return false;
  return binding.kind !== 'login' || user.tokenVersion === binding.tokenVersion;
}

/** A request's principal and, when it presents a valid credential of an unbound session, the binding it makes. */
export type McpRequestAuth = {
  readonly principal: Principal;
  readonly hasHeaderCredentials: boolean;
  readonly newBinding: McpBinding | null;
};

async function authenticateHeaders(authenticator: Authenticator, credentials: PresentedCredentials): Promise<Principal> {
  try {
    return await authenticator.authenticate(credentials);
  } catch (err) {
    if (isAppError(err, 'AMBIGUOUS_CREDENTIALS')) throw badRequest(err.message, 'AMBIGUOUS_CREDENTIALS');
    if (isAppError(err) && err.status === 401) throw unauthorized(err.code);
    throw err;
  }
}

/**
 * mcp.md §3 for one HTTP request of a session (`record` null for `initialize`): header credentials go through the
 * authenticator on every request; the first valid one binds the session; afterwards a header-bound session needs
 * a credential of the same principal (none → 401, invalid → 401, another principal → 403, session unchanged).
 */
export async function authenticateMcpRequest(
  authenticator: Authenticator,
  req: Request,
  record: McpSessionRecord | null,
  oauthResource?: string,
): Promise<McpRequestAuth> {
  const credentials = mcpCredentials(req, oauthResource);
  const binding = record?.binding ?? null;
  if (!presentsCredential(credentials)) {
    if (binding === null) return { principal: anonymousPrincipal, hasHeaderCredentials: false, newBinding: null };
    if (binding.kind === 'login') return { principal: loginPrincipal(binding), hasHeaderCredentials: false, newBinding: null };
    throw unauthorized('UNAUTHENTICATED');
  }
  const principal = await authenticateHeaders(authenticator, credentials);
  const key = principalKeyOf(principal);
  if (key === null) throw unauthorized('UNAUTHENTICATED');
  if (binding === null) return { principal, hasHeaderCredentials: true, newBinding: { kind: 'header', principalKey: key } };
  if (binding.principalKey !== key) throw forbidden('FORBIDDEN');
  return { principal, hasHeaderCredentials: true, newBinding: null };
}
