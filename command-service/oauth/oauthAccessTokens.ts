import { createSecretKey, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AppError } from '../../contracts/index.ts';
import type { Clock, OAuthFamilyLink, UserRecord } from '../../contracts/index.ts';
import { JWT_CLOCK_TOLERANCE_SECONDS, JWT_TYPE } from '../sessions/jwt.ts';

/** Claims of an OAuth access token (oauth.md §5). */
export type OAuthAccessClaims = {
  readonly iss: string;
  readonly aud: string;
  readonly sub: string;
  readonly client_id: string;
  readonly scope: string;
  readonly sid: string;
  readonly gid: string;
  readonly ver: number;
  readonly jti: string;
  readonly iat: number;
  readonly exp: number;
};

export type OAuthAccessTokens = {
  /** Signs a token of family `sid` for `{resource}` (= `{issuer}/mcp`). */
  issue(user: Pick<UserRecord, 'id' | 'tokenVersion'>, sid: string, link: OAuthFamilyLink): string;
  /**
   * Signature, header, claims and lifetime, for the resource of this request; a token for another audience is
   * TOKEN_INVALID (audience binding). No revocation checks.
   */
  verify(token: string, resource: string): OAuthAccessClaims;
  /** The family (`sid`) of a well-signed OAuth token of `clientId`, expired or not (RFC 7009 revocation); else null. */
  familyOf(token: string, clientId: string): string | null;
  readonly ttlSeconds: number;
};

/** The issuer `{base}` of a resource identifier `{base}/mcp`. */
export const issuerOfResource = (resource: string): string => resource.slice(0, -'/mcp'.length);

const invalid = (): AppError => new AppError('TOKEN_INVALID');
const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isSeconds = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * OAuth access tokens: HS256 JWTs with `JWT_SECRET` like Strata's own, but with `iss` `{base}` and `aud`
 * `{base}/mcp`, so the browser-token verifier (iss/aud `strata`) refuses them everywhere but on /mcp.
 */
export function createOAuthAccessTokens(options: { readonly secret: string; readonly ttlSeconds: number; readonly clock: Clock }): OAuthAccessTokens {
  const key = createSecretKey(Buffer.from(options.secret, 'utf8'));
  const { clock, ttlSeconds } = options;
  return {
    ttlSeconds,
    issue(user, sid, link) {
      const iat = Math.floor(clock.now() / 1000);
      const payload = {
        iss: issuerOfResource(link.resource),
        aud: link.resource,
        sub: user.id,
        client_id: link.clientId,
        scope: link.scopes.join(' '),
        sid,
        gid: link.grantId,
        ver: user.tokenVersion,
        jti: randomUUID(),
        iat,
        exp: iat + ttlSeconds,
      };
      return jwt.sign(payload, key, { algorithm: 'HS256', header: { alg: 'HS256', typ: JWT_TYPE } });
    },
    familyOf(token, clientId) {
      try {
        const payload = jwt.verify(token, key, { algorithms: ['HS256'], ignoreExpiration: true, ignoreNotBefore: true }) as Record<string, unknown>;
        return payload.client_id === clientId && isText(payload.sid) && isText(payload.gid) ? payload.sid : null;
      } catch {
        return null;
      }
    },
    verify(token, resource) {
      let decoded: jwt.Jwt;
      try {
        decoded = jwt.verify(token, key, { algorithms: ['HS256'], complete: true, ignoreExpiration: true, ignoreNotBefore: true });
      } catch {
        throw invalid();
      }
      if (decoded.header.typ !== JWT_TYPE || typeof decoded.payload !== 'object') throw invalid();
      const p = decoded.payload as Record<string, unknown>;
      if (p.aud !== resource || p.iss !== issuerOfResource(resource)) throw invalid();
      if (!isText(p.sub) || !isText(p.client_id) || typeof p.scope !== 'string' || !isText(p.sid) || !isText(p.gid) || !isText(p.jti))
        throw invalid();
      if (typeof p.ver !== 'number' || !Number.isSafeInteger(p.ver) || !isSeconds(p.iat) || !isSeconds(p.exp)) throw invalid();
      const now = Math.floor(clock.now() / 1000);
      if (p.exp + JWT_CLOCK_TOLERANCE_SECONDS <= now) throw new AppError('TOKEN_EXPIRED');
      if (p.iat > now + JWT_CLOCK_TOLERANCE_SECONDS || p.exp - p.iat > ttlSeconds) throw invalid();
      return p as unknown as OAuthAccessClaims;
    },
  };
}
