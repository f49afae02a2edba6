import jwt from 'jsonwebtoken';
import { AppError, OAUTH_WRITE_SCOPE } from '../../contracts/index.ts';
import type { Principal, SystemState } from '../../contracts/index.ts';
import { JWT_AUDIENCE } from '../sessions/jwt.ts';
import type { OAuthAccessTokens } from './oauthAccessTokens.ts';
import { isFamilyRevokedIn } from '../sessions/refreshDecision.ts';

/** Whether a JWT claims an audience other than Strata's own (then it can only be an OAuth token). */
export function isOAuthAudience(token: string): boolean {
  const payload = jwt.decode(token, { json: true });
  return payload !== null && typeof payload.aud === 'string' && payload.aud !== JWT_AUDIENCE;
}

/**
 * An OAuth access token on /mcp (oauth.md §5): audience `resource`, user active with the same token version, family
 * and grant alive. The principal is the user narrowed by the grant: its organization, and read-only without
 * `strata:write` (a KeyScope, so every scope rule of auth.md §8.5 applies unchanged).
 */
export function authenticateOAuthToken(tokens: OAuthAccessTokens, token: string, resource: string, state: SystemState, nowMs: number): Principal {
  const claims = tokens.verify(token, resource);
  const user = state.users.get(claims.sub);
  if (!user) throw new AppError('TOKEN_INVALID');
  if (!user.isActive || user.tokenVersion !== claims.ver) throw new AppError('TOKEN_REVOKED');
  const family = state.refreshFamilies.get(claims.sid);
  if (!family || family.oauth?.grantId !== claims.gid || isFamilyRevokedIn(state, claims.sid, nowMs)) throw new AppError('TOKEN_REVOKED');
  const scopes = claims.scope.split(' ').filter((s) => s !== '');
  return {
    kind: 'user',
    userId: user.id,
    username: user.username,
    via: 'oauth',
    sid: claims.sid,
    key: {
      keyId: `oauth-grant:${claims.gid}`,
      organizationId: family.oauth.organizationId,
      projectIds: null,
      branchNames: null,
      tableIds: null,
      readOnly: !scopes.includes(OAUTH_WRITE_SCOPE),
    },
    oauth: { clientId: claims.client_id, grantId: claims.gid, scopes },
  };
}
