import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { AppError, isJwtUser, isOAuthGrantActive, isoTime, oauthGrantPairKey, oauthGrantStreamId } from '../../contracts/index.ts';
import type {
  AuthEvent,
  Clock,
  OAuthApproval,
  OAuthGrantRecord,
  OAuthGrantView,
  Principal,
  SystemState,
  SystemStateSource,
} from '../../contracts/index.ts';
import { sha256Hex } from './oauthClients.ts';
import type { RefreshRotation } from '../sessions/refreshRotation.ts';

/** oauth.md §4: an authorization code is valid 60 s. */
export const CODE_TTL_MS = 60_000;

export type OAuthGrantServiceDeps = {
  readonly systemState: SystemStateSource;
  readonly rotation: Pick<RefreshRotation, 'append' | 'guarded'>;
  readonly clock: Clock;
  readonly log: Logger;
  readonly newId: () => string;
};

export type OAuthGrantService = {
  approve(approval: OAuthApproval, context: { readonly correlationId: string }): Promise<{ readonly code: string }>;
  grants(principal: Principal): Promise<OAuthGrantView[]>;
  revokeGrant(principal: Principal, grantId: string, context: { readonly correlationId: string }): Promise<OAuthGrantView>;
};

export function grantView(grant: OAuthGrantRecord): OAuthGrantView {
  return {
    id: grant.id,
    clientId: grant.clientId,
    clientName: grant.clientName,
    clientKind: grant.clientKind,
    scopes: grant.scopes,
    organizationId: grant.organizationId,
    createdAt: grant.createdAt,
    lastUsedAt: grant.lastUsedAt,
  };
}

/** Grants need a user JWT (oauth.md §6): anonymous → UNAUTHENTICATED, API keys and OAuth tokens → FORBIDDEN. */
function assertGrantOwner(principal: Principal): Extract<Principal, { kind: 'user' }> {
  if (principal.kind === 'anonymous') throw new AppError('UNAUTHENTICATED');
  if (principal.kind !== 'user' || !isJwtUser(principal))
    throw new AppError('FORBIDDEN', 'Connected apps can only be managed with a user session, not an API key');
  return principal;
}

function activeGrantOf(state: SystemState, userId: string, clientId: string): OAuthGrantRecord | null {
  const id = state.oauthGrantIdsByPair.get(oauthGrantPairKey(userId, clientId));
  const grant = id === undefined ? undefined : state.oauthGrants.get(id);
  return grant && isOAuthGrantActive(grant, state.users.get(userId)?.tokenVersion) ? grant : null;
}

/** Consent decisions (Allow creates or extends a grant and issues a code) and the user's grant management. */
export function createOAuthGrantService(deps: OAuthGrantServiceDeps): OAuthGrantService {
  const { systemState, rotation, clock, log, newId } = deps;
  return {
    async approve(approval, context) {
      const state = await systemState.current();
      const user = state.users.get(approval.userId);
      if (!user || !user.isActive) throw new AppError('UNAUTHENTICATED');
      if (approval.organizationId !== null && !state.organizations.get(approval.organizationId)?.members.has(user.id)) {
        throw new AppError('BAD_USER_INPUT', 'The organization is not one of yours');
      }
      const grantId = activeGrantOf(state, user.id, approval.client.clientId)?.id ?? newId();
      const code = randomBytes(32).toString('base64url');
      const now = clock.now();
      const event: AuthEvent = {
        type: 'OAuthGrantApproved',
        data: {
          grantId,
          userId: user.id,
          clientId: approval.client.clientId,
          clientKind: approval.client.kind,
          clientName: approval.client.name,
          scopes: approval.scopes,
          organizationId: approval.organizationId,
          userTokenVersion: user.tokenVersion,
          redirectUri: approval.redirectUri,
          codeHash: sha256Hex(code),
          codeChallenge: approval.codeChallenge,
          resource: approval.resource,
          codeExpiresAt: isoTime(now + CODE_TTL_MS),
        },
      };
      await rotation.guarded('grant approval', () =>
        rotation.append(oauthGrantStreamId(grantId), [event], `user:${user.id}`, context.correlationId, now, 'any'),
      );
      const redirectHost = new URL(approval.redirectUri).host;
      log.info(
        {
          audit: true,
          event: 'oauth.grant_approved',
          actor: `user:${user.id}`,
          userId: user.id,
          clientId: approval.client.clientId,
          grantId,
          scopes: approval.scopes,
          organizationId: approval.organizationId,
          redirectHost,
        },
        'oauth grant approved',
      );
      return { code };
    },

    async grants(principal) {
      const user = assertGrantOwner(principal);
      const state = await systemState.current();
      const version = state.users.get(user.userId)?.tokenVersion;
      return [...state.oauthGrants.values()].filter((g) => g.userId === user.userId && isOAuthGrantActive(g, version)).map(grantView);
    },

    async revokeGrant(principal, grantId, context) {
      const user = assertGrantOwner(principal);
      const state = await systemState.current();
      const grant = state.oauthGrants.get(grantId);
      if (!grant || grant.userId !== user.userId) throw new AppError('OAUTH_GRANT_NOT_FOUND');
      if (grant.revokedAt !== null) return grantView(grant);
      const event: AuthEvent = { type: 'OAuthGrantRevoked', data: { grantId, reason: 'user' } };
      await rotation.guarded('grant revocation', () =>
        rotation.append(oauthGrantStreamId(grantId), [event], `user:${user.userId}`, context.correlationId, clock.now(), 'any'),
      );
      log.info(
        { audit: true, event: 'oauth.grant_revoked', actor: `user:${user.userId}`, userId: user.userId, clientId: grant.clientId, grantId },
        'oauth grant revoked',
      );
      return grantView((await systemState.current()).oauthGrants.get(grantId) ?? grant);
    },
  };
}
