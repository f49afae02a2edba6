import type { Logger } from 'pino';
import type { Clock, OAuthServer, SystemStateSource } from '../../contracts/index.ts';
import type { OAuthAccessTokens } from './oauthAccessTokens.ts';
import { createOAuthFormTokens } from './oauthFormTokens.ts';
import { createOAuthClientRegistry, type MetadataDocumentLookup } from './oauthClients.ts';
import { createOAuthGrantService } from './oauthGrants.ts';
import { createOAuthTokenEndpoint } from './oauthTokenEndpoint.ts';
import type { SessionService } from '../sessions/sessionService.ts';

export type OAuthServerConfig = {
  /** OAUTH_REFRESH_TOKEN_TTL_DAYS. */
  readonly refreshTokenTtlDays: number;
  /** REFRESH_FAMILY_MAX_AGE_DAYS. */
  readonly familyMaxAgeDays: number;
  /** OAUTH_MAX_CLIENTS. */
  readonly maxClients: number;
};

export type OAuthServerDeps = {
  readonly systemState: SystemStateSource;
  /** The browser sessions' rotation machinery and token codec: OAuth refresh is the same implementation. */
  readonly sessions: Pick<SessionService, 'rotation' | 'codec'>;
  readonly accessTokens: OAuthAccessTokens;
  readonly clock: Clock;
  readonly log: Logger;
  readonly newId: () => string;
  readonly config: OAuthServerConfig;
  /** JWT_SECRET (the anti-forgery key of the consent form is derived from it). */
  readonly secret: string;
  readonly metadataDocuments?: MetadataDocumentLookup;
};

/** The authorization server of oauth.md: clients, consent decisions, tokens, revocation and grants. */
export function createOAuthServer(deps: OAuthServerDeps): OAuthServer {
  const { systemState, clock, newId, config } = deps;
  const log = deps.log.child({ component: 'oauth' });
  const { rotation, codec } = deps.sessions;
  const clients = createOAuthClientRegistry({
    systemState,
    rotation,
    clock,
    log,
    maxClients: config.maxClients,
    ...(deps.metadataDocuments ? { metadataDocuments: deps.metadataDocuments } : {}),
  });
  const grants = createOAuthGrantService({ systemState, rotation, clock, log, newId });
  const tokens = createOAuthTokenEndpoint({
    systemState,
    rotation,
    codec,
    clients,
    accessTokens: deps.accessTokens,
    clock,
    log,
    config: { refreshTokenTtlDays: config.refreshTokenTtlDays, familyMaxAgeDays: config.familyMaxAgeDays },
  });
  const forms = createOAuthFormTokens(deps.secret, clock);
  return {
    formToken: forms.formToken,
    isFormToken: forms.isFormToken,
    register: clients.register,
    findClient: clients.findClient,
    approve: grants.approve,
    token: tokens.token,
    revoke: tokens.revoke,
    grants: grants.grants,
    revokeGrant: grants.revokeGrant,
  };
}
