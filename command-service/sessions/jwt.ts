import { createSecretKey, randomUUID } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AppError, createBoundedCache, invariant } from '../../contracts/index.ts';
import type { Clock, SystemState, UserRecord } from '../../contracts/index.ts';

/** auth.md §5. */
export const JWT_ISSUER = 'strata';
export const JWT_AUDIENCE = 'strata';
export const JWT_TYPE = 'at+jwt';
export const JWT_CLOCK_TOLERANCE_SECONDS = 30;
const MIN_SECRET_BYTES = 32;

export type AccessTokenClaims = {
  readonly iss: string;
  readonly aud: string;
  readonly sub: string;
  readonly username: string;
  readonly sid: string;
  readonly ver: number;
  readonly jti: string;
  readonly iat: number;
  readonly exp: number;
};

export type AccessTokens = {
  /** Signs a token for `user` in refresh family `sid`, valid for the configured TTL from now. */
  issue(user: Pick<UserRecord, 'id' | 'username' | 'tokenVersion'>, sid: string): string;
  /** Signature, header and claims (TOKEN_INVALID / TOKEN_EXPIRED); no revocation checks. */
  verify(token: string): AccessTokenClaims;
  /** `verify` plus revocation (auth.md §5): deactivated user, stale `ver`, revoked family -> TOKEN_REVOKED. */
  authenticate(token: string, state: SystemState): Promise<{ readonly user: UserRecord; readonly claims: AccessTokenClaims }>;
  readonly ttlSeconds: number;
};

export type AccessTokenOptions = {
  readonly secret: string;
  readonly ttlSeconds: number;
  readonly clock: Clock;
  /** Refresh-family revocation (family revoked or past its absolute expiry); default: never revoked. */
  readonly isFamilyRevoked?: (sid: string, state: SystemState) => boolean | Promise<boolean>;
};

const invalid = (): AppError => new AppError('TOKEN_INVALID');

/** Verified tokens kept per process (see `verifySignature`): entries, and bytes (the token text and its claims). */
const VERIFIED_TOKENS_CACHE = { maxEntries: 10_000, maxBytes: 16 * 1024 * 1024 };

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function isSeconds(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Every claim present with its type (auth.md §5); anything else is TOKEN_INVALID. */
function toClaims(payload: unknown): AccessTokenClaims {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw invalid();
  const p = payload as Record<string, unknown>;
  if (p.iss !== JWT_ISSUER || p.aud !== JWT_AUDIENCE) throw invalid();
  if (!isNonEmptyString(p.sub) || typeof p.username !== 'string' || !isNonEmptyString(p.sid)) throw invalid();
  if (!isNonEmptyString(p.jti)) throw invalid();
  if (typeof p.ver !== 'number' || !Number.isSafeInteger(p.ver) || p.ver < 0) throw invalid();
  if (!isSeconds(p.iat) || !isSeconds(p.exp)) throw invalid();
  if (p.nbf !== undefined && !isSeconds(p.nbf)) throw invalid();
  return {
    iss: p.iss,
    aud: p.aud,
    sub: p.sub,
    username: p.username,
    sid: p.sid,
    ver: p.ver,
    jti: p.jti,
    iat: p.iat,
    exp: p.exp,
  };
}

export function createAccessTokens(options: AccessTokenOptions): AccessTokens {
  invariant(Buffer.byteLength(options.secret, 'utf8') >= MIN_SECRET_BYTES, 'JWT secret must be at least 32 bytes');
  // A KeyObject of type "secret" keeps jsonwebtoken from ever reading the secret as a public key.
  const key: KeyObject = createSecretKey(Buffer.from(options.secret, 'utf8'));
  const { clock, ttlSeconds } = options;
  const isFamilyRevoked = options.isFamilyRevoked ?? (() => false);

  /**
   * Tokens whose signature, header and claim types were checked (a bearer sends the same token with every request,
   * and the HMAC with jsonwebtoken's parsing is most of the cost). Time claims and revocation are checked on every
   * use; only successful checks are kept, bounded by entries and bytes (least recently used first out).
   */
  const verified = createBoundedCache<string, { readonly claims: AccessTokenClaims; readonly nbf: number | undefined }>(VERIFIED_TOKENS_CACHE);

  function verifySignature(token: string): { readonly claims: AccessTokenClaims; readonly nbf: number | undefined } {
    const known = verified.get(token);
    if (known !== undefined) return known;
    let decoded: jwt.Jwt;
    try {
      // Time claims are checked below with the spec's tolerance; jku/jwk/x5u/x5c/kid are never looked at.
      decoded = jwt.verify(token, key, {
        algorithms: ['HS256'],
        complete: true,
        ignoreExpiration: true,
        ignoreNotBefore: true,
      });
    } catch {
      throw invalid();
    }
    if (decoded.header.alg !== 'HS256' || decoded.header.typ !== JWT_TYPE) throw invalid();
    const checked = { claims: toClaims(decoded.payload), nbf: (decoded.payload as { nbf?: number }).nbf };
    verified.set(token, checked);
    return checked;
  }

  function verify(token: string): AccessTokenClaims {
    const now = Math.floor(clock.now() / 1000);
    const { claims, nbf } = verifySignature(token);
    if (claims.exp + JWT_CLOCK_TOLERANCE_SECONDS <= now) throw new AppError('TOKEN_EXPIRED');
    if (claims.iat > now + JWT_CLOCK_TOLERANCE_SECONDS) throw invalid();
    // A lifetime we never issue means the token was not minted under this configuration (auth.md §5).
    if (claims.exp - claims.iat > ttlSeconds) throw invalid();
    if (nbf !== undefined && nbf > now + JWT_CLOCK_TOLERANCE_SECONDS) throw invalid();
    return claims;
  }

  return {
    ttlSeconds,
    issue(user, sid) {
      const iat = Math.floor(clock.now() / 1000);
      const payload = {
        iss: JWT_ISSUER,
        aud: JWT_AUDIENCE,
        sub: user.id,
        username: user.username,
        sid,
        ver: user.tokenVersion,
        jti: randomUUID(),
        iat,
        exp: iat + ttlSeconds,
      };
      return jwt.sign(payload, key, { algorithm: 'HS256', header: { alg: 'HS256', typ: JWT_TYPE } });
    },
    verify,
    async authenticate(token, state) {
      const claims = verify(token);
      const user = state.users.get(claims.sub);
      // A well-signed token for a user this log does not know was minted for another deployment's data.
      if (!user) throw invalid();
      if (!user.isActive || user.tokenVersion !== claims.ver) throw new AppError('TOKEN_REVOKED');
      if (await isFamilyRevoked(claims.sid, state)) throw new AppError('TOKEN_REVOKED');
      return { user, claims };
    },
  };
}
