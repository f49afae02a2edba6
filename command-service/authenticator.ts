import type { Logger } from 'pino';
import { AppError, anonymousPrincipal, isJwtUser } from '../contracts/index.ts';
import type { Authenticator, Clock, LoginResult, PresentedCredentials, Principal, SystemState, SystemStateSource } from '../contracts/index.ts';
import { createAccessTokens } from './sessions/jwt.ts';
import type { AccessTokens } from './sessions/jwt.ts';
import { authenticateOAuthToken, isOAuthAudience } from './oauth/oauthAuthentication.ts';
import type { OAuthAccessTokens } from './oauth/oauthAccessTokens.ts';
import { createInMemoryLoginThrottleStore, createLoginThrottle } from './sessions/loginThrottle.ts';
import type { LoginThrottleConfig, LoginThrottleStore } from './sessions/loginThrottle.ts';
import { createPasswordVerifier } from './sessions/passwords.ts';
import { selectCredential } from './sessions/selectCredential.ts';
import type { SessionService } from './sessions/sessionService.ts';
import { findUserByUsername } from './state/findUserByUsername.ts';

export type AuthenticatorOptions = {
  readonly systemState: SystemStateSource;
  readonly jwtSecret: string;
  readonly accessTokenTtlSeconds: number;
  readonly loginThrottle: LoginThrottleConfig & { readonly store?: LoginThrottleStore };
  readonly clock: Clock;
  readonly log: Logger;
  readonly newId: () => string;
  /**
   * API-key lookup (apiKeyResolver.ts). Receives a well-formed key; returns its principal, null for an unknown key
   * (API_KEY_INVALID), or throws API_KEY_REVOKED / API_KEY_EXPIRED / API_KEY_INVALID. Default: every key is unknown.
   */
  readonly resolveApiKey?: (key: string, state: SystemState) => Promise<Principal | null>;
  /** Refresh-family revocation when `accessTokens` is not given; default: never revoked. */
  readonly isFamilyRevoked?: (sid: string, state: SystemState) => boolean | Promise<boolean>;
  /** Access tokens shared with the session service; default: made from jwtSecret and accessTokenTtlSeconds. */
  readonly accessTokens?: AccessTokens;
  /**
   * Refresh families (sessionService.ts): a login starts one and returns its first refresh token. Without it a
   * login only mints a family id (authenticators that serve no browser sessions, tests of throttling).
   */
  readonly sessions?: Pick<SessionService, 'startFamily'>;
  /** OAuth access tokens, accepted only where the credentials name their resource (/mcp, oauth.md §5). */
  readonly oauthAccessTokens?: OAuthAccessTokens;
};

export function createAuthenticator(options: AuthenticatorOptions): Authenticator & { readonly accessTokens: AccessTokens } {
  const { systemState, clock, log, newId } = options;
  const accessTokens =
    options.accessTokens ??
    createAccessTokens({
      secret: options.jwtSecret,
      ttlSeconds: options.accessTokenTtlSeconds,
      clock,
      ...(options.isFamilyRevoked ? { isFamilyRevoked: options.isFamilyRevoked } : {}),
    });
  const throttle = createLoginThrottle(options.loginThrottle, options.loginThrottle.store ?? createInMemoryLoginThrottleStore());
  const passwords = createPasswordVerifier();
  const resolveApiKey = options.resolveApiKey ?? (async () => null);

  async function authenticate(credentials: PresentedCredentials): Promise<Principal> {
    const credential = selectCredential(credentials);
    switch (credential.kind) {
      case 'none':
        return anonymousPrincipal;
      case 'apiKey': {
        const principal = await resolveApiKey(credential.key, await systemState.current());
        if (!principal) throw new AppError('API_KEY_INVALID');
        return principal;
      }
      case 'jwt': {
        const resource = credentials.oauthResource;
        if (resource !== undefined && options.oauthAccessTokens && isOAuthAudience(credential.token)) {
          return authenticateOAuthToken(options.oauthAccessTokens, credential.token, resource, await systemState.current(), clock.now());
        }
        const { user, claims } = await accessTokens.authenticate(credential.token, await systemState.current());
        return { kind: 'user', userId: user.id, username: user.username, via: credential.via, sid: claims.sid, key: null };
      }
      default: {
        const never: never = credential;
        return never;
      }
    }
  }

  async function login(input: { readonly username: string; readonly password: string; readonly clientIp: string }): Promise<LoginResult> {
    const { username, password, clientIp: ip } = input;
    const now = clock.now();
    try {
      await throttle.assertAllowed(username, ip, now);
    } catch (err) {
      log.warn({ audit: true, event: 'login.failure', actor: 'anonymous', username, ip, reason: 'rate_limited' }, 'login throttled');
      throw err;
    }
    const state = await systemState.current();
    const user = findUserByUsername(state, username);
    // Unknown users verify a dummy hash so the answer takes as long as for a wrong password.
    const passwordMatches = await passwords.verify(password, user?.passwordHash ?? null);
    if (!user || !passwordMatches || !user.isActive) {
      await throttle.recordFailure(username, ip, now);
      const reason = !user ? 'unknown_user' : !passwordMatches ? 'wrong_password' : 'inactive_user';
      log.info({ audit: true, event: 'login.failure', actor: 'anonymous', username, ip, reason }, 'login failed');
      throw new AppError('INVALID_CREDENTIALS');
    }
    await throttle.recordSuccess(username, ip);
    // The family records the token version the password was checked against: a racing password change kills it.
    const family = options.sessions ? await options.sessions.startFamily(user) : null;
    const familyId = family?.familyId ?? newId();
    const accessToken = accessTokens.issue(user, familyId);
    log.info({ audit: true, event: 'login.success', actor: `user:${user.id}`, username, ip, userId: user.id, sid: familyId }, 'login succeeded');
    const base = { accessToken, expiresIn: accessTokens.ttlSeconds, userId: user.id, username: user.username, familyId };
    return family ? { ...base, refreshToken: family.refreshToken, refreshMaxAgeSeconds: family.refreshMaxAgeSeconds } : base;
  }

  async function issueAccessToken(principal: Principal): Promise<{ readonly accessToken: string; readonly expiresIn: number }> {
    if (principal.kind === 'anonymous') throw new AppError('UNAUTHENTICATED');
    if (principal.kind !== 'user' || !isJwtUser(principal) || principal.sid === null) {
      throw new AppError('FORBIDDEN', 'Access tokens can only be issued for JWT-authenticated sessions');
    }
    const user = (await systemState.current()).users.get(principal.userId);
    if (!user || !user.isActive) throw new AppError('TOKEN_REVOKED');
    return { accessToken: accessTokens.issue(user, principal.sid), expiresIn: accessTokens.ttlSeconds };
  }

  return { authenticate, login, issueAccessToken, accessTokens };
}
