import { createHash, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import { OAuthError, isAppError, isStreamConflict, isoTime, parseOAuthScopes, sessionStreamId } from '../../contracts/index.ts';
import type {
  AuthEvent,
  Clock,
  OAuthClientCredentials,
  OAuthCodeRecord,
  OAuthFamilyLink,
  OAuthTokenResponse,
  SystemStateSource,
  UserRecord,
} from '../../contracts/index.ts';
import type { OAuthAccessTokens } from './oauthAccessTokens.ts';
import { sha256Hex, type AuthenticatedClient, type OAuthClientRegistry } from './oauthClients.ts';
import type { RefreshRotation } from '../sessions/refreshRotation.ts';
import type { RefreshTokenCodec } from '../sessions/refreshTokens.ts';

const DAY_MS = 86_400_000;
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export type OAuthTokenEndpointDeps = {
  readonly systemState: SystemStateSource;
  readonly rotation: RefreshRotation;
  readonly codec: RefreshTokenCodec;
  readonly clients: OAuthClientRegistry;
  readonly accessTokens: OAuthAccessTokens;
  readonly clock: Clock;
  readonly log: Logger;
  readonly config: {
    /** OAUTH_REFRESH_TOKEN_TTL_DAYS. */
    readonly refreshTokenTtlDays: number;
    /** REFRESH_FAMILY_MAX_AGE_DAYS: an OAuth family lives at least as long as one refresh token. */
    readonly familyMaxAgeDays: number;
  };
};

type Form = Readonly<Record<string, string>>;
type Context = { readonly issuer: string; readonly correlationId: string };

const invalidRequest = (description: string): OAuthError => new OAuthError(400, 'invalid_request', description);
const invalidGrant = (description: string): OAuthError => new OAuthError(400, 'invalid_grant', description);

/** The family of a code: derived from the code's hash, so a second exchange meets the first one's stream. */
export const codeFamilyId = (codeHash: string): string => `oc${createHash('sha256').update(`family:${codeHash}`).digest('base64url').slice(0, 30)}`;

/** `resource` is `{base}/mcp`; `{base}` alone names the same resource (oauth.md §4). */
export function normaliseResource(value: string, issuer: string): string | null {
  if (value === `${issuer}/mcp` || value === issuer) return `${issuer}/mcp`;
  return null;
}

function pkceMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'), 'ascii');
  const expected = Buffer.from(challenge, 'ascii');
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

function required(form: Form, name: string): string {
  const value = form[name];
  if (value === undefined || value === '') throw invalidRequest(`${name} is required`);
  return value;
}

/** `POST /oauth/token` (oauth.md §5) and `POST /oauth/revoke` (§6). */
export function createOAuthTokenEndpoint(deps: OAuthTokenEndpointDeps) {
  const { systemState, rotation, codec, clients, accessTokens, clock, log, config } = deps;

  function respond(user: UserRecord, familyId: string, link: OAuthFamilyLink, refreshToken: string): OAuthTokenResponse {
    return {
      access_token: accessTokens.issue(user, familyId, link),
      token_type: 'Bearer',
      expires_in: accessTokens.ttlSeconds,
      refresh_token: refreshToken,
      scope: link.scopes.join(' '),
    };
  }

  async function codeReused(code: OAuthCodeRecord, familyId: string, correlationId: string): Promise<OAuthError> {
    const family = (await systemState.current()).refreshFamilies.get(familyId);
    if (family && family.revokedAt === null) await rotation.revoke(family, 'codeReuse', correlationId);
    log.warn(
      { audit: true, event: 'oauth.code_reuse', actor: 'anonymous', userId: code.userId, clientId: code.clientId, grantId: code.grantId, familyId },
      'authorization code reuse detected; its tokens are revoked',
    );
    return invalidGrant('The authorization code was already used');
  }

  async function exchangeCode(form: Form, client: AuthenticatedClient, context: Context): Promise<OAuthTokenResponse> {
    const codeValue = required(form, 'code');
    const redirectUri = required(form, 'redirect_uri');
    const verifier = required(form, 'code_verifier');
    const state = await systemState.current();
    const codeHash = sha256Hex(codeValue);
    const code = state.oauthCodes.get(codeHash);
    if (!code) throw invalidGrant('Unknown or expired authorization code');
    const familyId = codeFamilyId(codeHash);
    if (state.streamRevisions.has(sessionStreamId(familyId))) throw await codeReused(code, familyId, context.correlationId);
    const now = clock.now();
    if (code.clientId !== client.view.clientId) throw invalidGrant('The authorization code was issued to another client');
    if (now >= code.expiresAt) throw invalidGrant('The authorization code has expired');
    if (code.redirectUri !== redirectUri) throw invalidGrant('redirect_uri does not match the authorization request');
    if (!pkceMatches(verifier, code.codeChallenge)) throw invalidGrant('code_verifier does not match the code_challenge');
    if (form.resource !== undefined && normaliseResource(form.resource, context.issuer) !== code.resource) {
      throw new OAuthError(400, 'invalid_target', 'resource does not match the authorization request');
    }
    const user = state.users.get(code.userId);
    const grant = state.oauthGrants.get(code.grantId);
    if (!user || !user.isActive || user.tokenVersion !== code.userTokenVersion || !grant || grant.revokedAt !== null) {
      throw invalidGrant('The authorization is no longer valid');
    }
    const tokenId = codec.newTokenId();
    const absoluteExpiresAt = now + Math.max(config.familyMaxAgeDays, config.refreshTokenTtlDays) * DAY_MS;
    const tokenExpiresAt = Math.min(now + config.refreshTokenTtlDays * DAY_MS, absoluteExpiresAt);
    const link: OAuthFamilyLink = {
      grantId: code.grantId,
      clientId: code.clientId,
      scopes: code.scopes,
      organizationId: code.organizationId,
      resource: code.resource,
    };
    const event: AuthEvent = {
      type: 'OAuthFamilyStarted',
      data: {
        familyId,
        userId: user.id,
        userTokenVersion: user.tokenVersion,
        absoluteExpiresAt: isoTime(absoluteExpiresAt),
        firstTokenId: tokenId,
        tokenExpiresAt: isoTime(tokenExpiresAt),
        ...link,
      },
    };
    try {
      await rotation.guarded('code exchange', () =>
        rotation.append(sessionStreamId(familyId), [event], `user:${user.id}`, context.correlationId, now, 'no_stream'),
      );
    } catch (err) {
      // Another exchange of the same code won the race: this one is the second use.
      if (isStreamConflict(err)) throw await codeReused(code, familyId, context.correlationId);
      throw err;
    }
    log.info(
      {
        audit: true,
        event: 'oauth.token_issued',
        actor: `user:${user.id}`,
        userId: user.id,
        clientId: code.clientId,
        grantId: code.grantId,
        sid: familyId,
      },
      'oauth tokens issued',
    );
    return respond(user, familyId, link, codec.format(tokenId));
  }

  async function refresh(form: Form, client: AuthenticatedClient, context: Context): Promise<OAuthTokenResponse> {
    const presented = required(form, 'refresh_token');
    const tokenId = codec.parse(presented);
    const state = await systemState.current();
    const known = tokenId === null ? undefined : state.refreshFamilies.get(state.refreshTokens.get(tokenId)?.familyId ?? '');
    const link = known?.oauth?.clientId === client.view.clientId ? known.oauth : null;
    if (link && form.resource !== undefined && normaliseResource(form.resource, context.issuer) !== link.resource) {
      throw new OAuthError(400, 'invalid_target', 'resource does not match the grant');
    }
    let scopes = link?.scopes ?? [];
    if (link && form.scope !== undefined) {
      const asked = parseOAuthScopes(form.scope);
      if (asked === null || asked.length === 0 || asked.some((s) => !link.scopes.includes(s)))
        throw new OAuthError(400, 'invalid_scope', 'scope may only narrow the granted scopes');
      scopes = asked;
    }
    try {
      const turn = await rotation.rotate(presented, (f) => f.oauth?.clientId === client.view.clientId, context.correlationId);
      const granted = turn.family.oauth as OAuthFamilyLink;
      return respond(turn.user, turn.family.id, { ...granted, scopes: scopes.length > 0 ? scopes : granted.scopes }, turn.refreshToken);
    } catch (err) {
      if (isAppError(err, 'SERVICE_UNAVAILABLE') || isAppError(err, 'REFRESH_IN_PROGRESS'))
        throw new OAuthError(503, 'temporarily_unavailable', 'Retry the refresh');
      if (isAppError(err))
        throw invalidGrant(
          err.code === 'REFRESH_TOKEN_REUSED' ? 'The refresh token was already used; the authorization is revoked' : 'Invalid refresh token',
        );
      throw err;
    }
  }

  return {
    async token(form: Form, credentials: OAuthClientCredentials, context: Context): Promise<OAuthTokenResponse> {
      const grantType = required(form, 'grant_type');
      const client = await clients.authenticate(credentials);
      if (grantType !== 'authorization_code' && grantType !== 'refresh_token')
        throw new OAuthError(400, 'unsupported_grant_type', `grant_type "${grantType}" is not supported`);
      if (!client.view.grantTypes.includes(grantType))
        throw new OAuthError(400, 'unauthorized_client', `The client is not registered for ${grantType}`);
      return grantType === 'authorization_code' ? exchangeCode(form, client, context) : refresh(form, client, context);
    },

    /** RFC 7009: a refresh or access token of this client revokes its whole family; anything else changes nothing. */
    async revoke(form: Form, credentials: OAuthClientCredentials, context: { readonly correlationId: string }): Promise<void> {
      const token = required(form, 'token');
      const client = await clients.authenticate(credentials);
      const state = await systemState.current();
      const tokenId = codec.parse(token);
      const familyId = tokenId !== null ? state.refreshTokens.get(tokenId)?.familyId : accessTokens.familyOf(token, client.view.clientId);
      const family = familyId === undefined || familyId === null ? undefined : state.refreshFamilies.get(familyId);
      if (!family || family.oauth?.clientId !== client.view.clientId || family.revokedAt !== null) return;
      await rotation.revoke(family, 'oauthRevoke', context.correlationId);
      log.info(
        {
          audit: true,
          event: 'oauth.token_revoked',
          actor: `client:${client.view.clientId}`,
          userId: family.userId,
          clientId: client.view.clientId,
          familyId,
        },
        'oauth tokens revoked',
      );
    },
  };
}

export type OAuthTokenEndpoint = ReturnType<typeof createOAuthTokenEndpoint>;
