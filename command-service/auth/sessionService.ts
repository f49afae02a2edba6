import type { Logger } from 'pino';
import { AppError, directoryStreamId, isAppError, isJwtUser, isStreamConflict, isoTime, sessionStreamId } from '../../contracts/index.ts';
import type {
  AuthEvent,
  Clock,
  EventStore,
  Position,
  PresentedCredentials,
  Principal,
  RefreshFamilyRecord,
  RefreshFamilyRevokeReason,
  RefreshResult,
  Sessions,
  SystemState,
  SystemStateSource,
  UserRecord,
} from '../../contracts/index.ts';
import { appendWithRetry, buildEvents } from '../commandHandler.ts';
import { authEventEnvelope } from './authEventEnvelope.ts';
import type { AccessTokens } from './jwt.ts';
import { decideRefresh, isFamilyRevokedIn } from './refreshDecision.ts';
import { createRefreshTokenCodec } from './refreshTokens.ts';
import { selectCredential } from './selectCredential.ts';

const DAY_MS = 86_400_000;
/** auth.md §7.2 row 8: attempts at settling a concurrent rotation before REFRESH_IN_PROGRESS. */
export const MAX_REFRESH_ATTEMPTS = 3;

export type SessionConfig = {
  readonly jwtSecret: string;
  /** JWT_REFRESH_TOKEN_TTL_DAYS */
  readonly refreshTokenTtlDays: number;
  /** REFRESH_FAMILY_MAX_AGE_DAYS */
  readonly familyMaxAgeDays: number;
  /** JWT_REFRESH_GRACE_PERIOD_MS */
  readonly graceMs: number;
};

/** `strata_refresh_total{outcome}` (operations.md §6). */
export type RefreshOutcome = 'rotated' | 'duplicate' | 'reused' | 'invalid';

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
};

const userRef = (userId: string): string => `user:${userId}`;
const seconds = (ms: number): number => Math.max(0, Math.floor(ms / 1000));

/** Refresh families (auth.md §7): login start, rotation with duplicate grace and reuse detection, logout. */
export function createSessionService(deps: SessionServiceDeps): SessionService {
  const { eventStore, systemState, clock, log, config, accessTokens, newId } = deps;
  const codec = createRefreshTokenCodec(config.jwtSecret);
  const count = (outcome: RefreshOutcome): void => deps.onRefreshOutcome?.(outcome);

  async function append(streamId: string, events: readonly AuthEvent[], principal: string, correlationId: string, now: number, expected: 'any' | 'no_stream' | number): Promise<Position> {
    const result = await eventStore.append(streamId, authEventEnvelope(events, { principal, correlationId }, now), expected);
    deps.onAppended?.(result.position);
    return result.position;
  }

  /** Store failures become 503 (row 9); refusals pass through. */
  async function guarded<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (isAppError(err)) throw err;
      log.error({ err }, `${what} failed: store unavailable`);
      throw new AppError('SERVICE_UNAVAILABLE');
    }
  }

  function revoke(family: RefreshFamilyRecord, reason: RefreshFamilyRevokeReason, correlationId: string): Promise<Position> {
    // Revoking cannot be invalidated by a concurrent event, so it needs no expected revision.
    const event: AuthEvent = { type: 'RefreshFamilyRevoked', data: { reason } };
    return append(sessionStreamId(family.id), [event], userRef(family.userId), correlationId, clock.now(), 'any');
  }

  function answer(kind: RefreshResult['kind'], user: UserRecord, familyId: string, tokenId: string, expiresAt: number, now: number): RefreshResult {
    count(kind);
    return {
      kind,
      accessToken: accessTokens.issue(user, familyId),
      expiresIn: accessTokens.ttlSeconds,
      refreshToken: codec.format(tokenId),
      refreshMaxAgeSeconds: seconds(expiresAt - now),
    };
  }

  async function refreshOnce(tokenId: string, correlationId: string): Promise<RefreshResult | null> {
    const state = await systemState.current();
    const now = clock.now();
    const decision = decideRefresh(state, tokenId, now, config.graceMs);
    switch (decision.kind) {
      case 'invalid':
        log.debug({ reason: decision.reason, familyId: decision.family?.id }, 'refresh refused');
        count('invalid');
        throw new AppError('REFRESH_TOKEN_INVALID');
      case 'duplicate':
        return answer('duplicate', decision.user, decision.family.id, decision.successor.id, decision.successor.expiresAt, now);
      case 'reuse': {
        const { family } = decision;
        await revoke(family, 'reuse', correlationId);
        // Whoever presented the reused token is unknown: it may be the user or the thief.
        log.warn({ audit: true, event: 'refresh.reuse', actor: 'anonymous', userId: family.userId, familyId: family.id }, 'refresh token reuse detected; family revoked');
        count('reused');
        throw new AppError('REFRESH_TOKEN_REUSED');
      }
      case 'rotate': {
        const { family, token, user } = decision;
        const successorId = codec.newTokenId();
        const expiresAt = Math.min(now + config.refreshTokenTtlDays * DAY_MS, family.absoluteExpiresAt);
        const event: AuthEvent = {
          type: 'RefreshTokenRotated',
          data: { tokenId: token.id, successorId, successorExpiresAt: isoTime(expiresAt) },
        };
        const streamId = sessionStreamId(family.id);
        try {
          await append(streamId, [event], userRef(user.id), correlationId, now, state.streamRevisions.get(streamId) ?? 'no_stream');
        } catch (err) {
          if (!isStreamConflict(err)) throw err;
          log.debug({ familyId: family.id }, 'concurrent refresh rotation, re-evaluating');
          return null;
        }
        return answer('rotated', user, family.id, successorId, expiresAt, now);
      }
      default: {
        const never: never = decision;
        return never;
      }
    }
  }

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
      if (refreshToken === null || refreshToken === '') {
        count('invalid');
        throw new AppError('REFRESH_TOKEN_MISSING');
      }
      const tokenId = codec.parse(refreshToken);
      if (tokenId === null) {
        count('invalid');
        throw new AppError('REFRESH_TOKEN_INVALID');
      }
      const correlationId = options?.correlationId ?? newId();
      return guarded('refresh', async () => {
        for (let attempt = 1; attempt <= MAX_REFRESH_ATTEMPTS; attempt++) {
          const result = await refreshOnce(tokenId, correlationId);
          if (result) return result;
        }
        throw new AppError('REFRESH_IN_PROGRESS');
      });
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
  };
}
