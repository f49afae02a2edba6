import type { Logger } from 'pino';
import { AppError, directoryStreamId, isJwtUser, isoTime, sessionStreamId } from '../../contracts/index.ts';
import type {
  AuthEvent,
  Clock,
  EventStore,
  Position,
  PresentedCredentials,
  Principal,
  Sessions,
  SystemState,
  SystemStateSource,
  UserRecord,
} from '../../contracts/index.ts';
import { appendWithRetry, buildEvents } from '../commandHandler.ts';
import type { AccessTokens } from './jwt.ts';
import { isFamilyRevokedIn } from './refreshDecision.ts';
import { createRefreshRotation, type RefreshOutcome, type RefreshRotation } from './refreshRotation.ts';
import { createRefreshTokenCodec, type RefreshTokenCodec } from './refreshTokens.ts';
import { selectCredential } from './selectCredential.ts';

const DAY_MS = 86_400_000;

export type { RefreshOutcome };

export type SessionConfig = {
  readonly jwtSecret: string;
  /** JWT_REFRESH_TOKEN_TTL_DAYS */
  readonly refreshTokenTtlDays: number;
  /** REFRESH_FAMILY_MAX_AGE_DAYS */
  readonly familyMaxAgeDays: number;
  /** JWT_REFRESH_GRACE_PERIOD_MS */
  readonly graceMs: number;
  /** OAUTH_REFRESH_TOKEN_TTL_DAYS (tokens of families started by an OAuth code exchange), default 30. */
  readonly oauthRefreshTokenTtlDays?: number;
};

export type SessionServiceDeps = {
  readonly eventStore: EventStore;
  readonly systemState: SystemStateSource;
  readonly clock: Clock;
  readonly log: Logger;
  readonly config: SessionConfig;
  /** Mints the access tokens (same secret and TTL as the authenticator's). */
  readonly accessTokens: AccessTokens;
  readonly newId: () => string;
  /** Called with the position of every append (system state hint, projection wake-ups). */
  readonly onAppended?: (position: Position) => void;
  readonly onRefreshOutcome?: (outcome: RefreshOutcome) => void;
};

export type StartedFamily = {
  readonly familyId: string;
  readonly refreshToken: string;
  readonly refreshMaxAgeSeconds: number;
  readonly position: Position;
};

export type SessionService = Sessions & {
  /** Starts a refresh family for a login; the family dies when `user.tokenVersion` changes. */
  startFamily(user: Pick<UserRecord, 'id' | 'tokenVersion'>, options?: { readonly correlationId?: string }): Promise<StartedFamily>;
  /** TOKEN_REVOKED check of access tokens (auth.md §5): family unknown, revoked, expired or of a stale version. */
  isFamilyRevoked(sid: string, state: SystemState): boolean;
  /** The rotation machinery and token codec, shared with the OAuth token endpoint (one implementation). */
  readonly rotation: RefreshRotation;
  readonly codec: RefreshTokenCodec;
};

const userRef = (userId: string): string => `user:${userId}`;
const seconds = (ms: number): number => Math.max(0, Math.floor(ms / 1000));

/** Refresh families (auth.md §7): login start, rotation with duplicate grace and reuse detection, logout. */
export function createSessionService(deps: SessionServiceDeps): SessionService {
  const { eventStore, systemState, clock, log, config, accessTokens, newId } = deps;
  const codec = createRefreshTokenCodec(config.jwtSecret);
  const rotation = createRefreshRotation({
    eventStore,
    systemState,
    clock,
    log,
    codec,
    config: { ...config, oauthRefreshTokenTtlDays: config.oauthRefreshTokenTtlDays ?? 30 },
    ...(deps.onAppended ? { onAppended: deps.onAppended } : {}),
    ...(deps.onRefreshOutcome ? { onRefreshOutcome: deps.onRefreshOutcome } : {}),
  });
  const { append, guarded, revoke } = rotation;

  /** The family `sid` of a valid JWT among the credentials, or null (never throws). */
  function sidOf(credentials: PresentedCredentials): string | null {
    try {
      const credential = selectCredential(credentials);
      return credential.kind === 'jwt' ? accessTokens.verify(credential.token).sid : null;
    } catch {
      return null;
    }
  }

  return {
    async startFamily(user, options) {
      return guarded('login', async () => {
        const now = clock.now();
        const familyId = newId();
        const tokenId = codec.newTokenId();
        const absoluteExpiresAt = now + config.familyMaxAgeDays * DAY_MS;
        const tokenExpiresAt = Math.min(now + config.refreshTokenTtlDays * DAY_MS, absoluteExpiresAt);
        const event: AuthEvent = {
          type: 'RefreshFamilyStarted',
          data: {
            familyId,
            userId: user.id,
            userTokenVersion: user.tokenVersion,
            absoluteExpiresAt: isoTime(absoluteExpiresAt),
            firstTokenId: tokenId,
            tokenExpiresAt: isoTime(tokenExpiresAt),
          },
        };
        const correlationId = options?.correlationId ?? newId();
        const position = await append(sessionStreamId(familyId), [event], userRef(user.id), correlationId, now, 'no_stream');
        return { familyId, refreshToken: codec.format(tokenId), refreshMaxAgeSeconds: seconds(tokenExpiresAt - now), position };
      });
    },

    async refresh(refreshToken, options) {
      // Browser refresh admits browser families only: an OAuth refresh token is an unknown token here.
      const turn = await rotation.rotate(refreshToken, (family) => family.oauth === null, options?.correlationId ?? newId());
      return {
        kind: turn.kind,
        accessToken: accessTokens.issue(turn.user, turn.family.id),
        expiresIn: accessTokens.ttlSeconds,
        refreshToken: turn.refreshToken,
        refreshMaxAgeSeconds: turn.refreshMaxAgeSeconds,
      };
    },

    async logout(input, options) {
      const correlationId = options?.correlationId ?? newId();
      try {
        const state = await systemState.current();
        const tokenId = input.refreshToken ? codec.parse(input.refreshToken) : null;
        const familyId = (tokenId === null ? undefined : state.refreshTokens.get(tokenId)?.familyId) ?? sidOf(input.credentials);
        const family = familyId === null ? undefined : state.refreshFamilies.get(familyId);
        const revoked = family !== undefined && family.revokedAt === null;
        if (revoked) await revoke(family, 'logout', correlationId);
        const actor = family === undefined ? 'anonymous' : `user:${family.userId}`;
        log.info({ audit: true, event: 'logout', actor, userId: family?.userId, familyId: family?.id, revoked }, 'logout');
      } catch (err) {
        // Logout always answers 204; the cookies are cleared even when the store could not be reached.
        log.warn({ err }, 'logout could not revoke the family');
      }
    },

    async logoutAll(principal: Principal, options) {
      if (principal.kind === 'anonymous') throw new AppError('UNAUTHENTICATED');
      if (principal.kind !== 'user' || !isJwtUser(principal)) {
        throw new AppError('FORBIDDEN', 'Logging out of all sessions requires a user session, not an API key');
      }
      const context = { principal, correlationId: options?.correlationId ?? newId() };
      const outcome = await appendWithRetry({ eventStore, log }, async () => {
        const state = await systemState.current();
        if (!state.users.has(principal.userId)) throw new AppError('USER_NOT_FOUND');
        return {
          streamId: directoryStreamId,
          expected: state.streamRevisions.get(directoryStreamId) ?? 'no_stream',
          events: buildEvents([{ type: 'UserTokenVersionIncremented', data: { userId: principal.userId, reason: 'logoutAll' } }], context, clock),
          result: null,
          seenPosition: state.position,
        };
      });
      const position = outcome.position as Position;
      deps.onAppended?.(position);
      log.info({ audit: true, event: 'logout.all', actor: `user:${principal.userId}`, userId: principal.userId }, 'logged out of all sessions');
      return { position };
    },

    isFamilyRevoked: (sid, state) => isFamilyRevokedIn(state, sid, clock.now()),
    rotation,
    codec,
  };
}
