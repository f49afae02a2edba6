import type { Logger } from 'pino';
import { AppError, isAppError, isStreamConflict, isoTime, sessionStreamId } from '../../contracts/index.ts';
import type {
  AuthEvent,
  Clock,
  EventStore,
  Position,
  RefreshFamilyRecord,
  RefreshFamilyRevokeReason,
  SystemStateSource,
  UserRecord,
} from '../../contracts/index.ts';
import { authEventEnvelope } from '../authEventEnvelope.ts';
import { decideRefresh } from './refreshDecision.ts';
import type { RefreshTokenCodec } from './refreshTokens.ts';

const DAY_MS = 86_400_000;
/** auth.md §7.2 row 8: attempts at settling a concurrent rotation before REFRESH_IN_PROGRESS. */
export const MAX_REFRESH_ATTEMPTS = 3;

/** `strata_refresh_total{outcome}` (operations.md §6). */
export type RefreshOutcome = 'rotated' | 'duplicate' | 'reused' | 'invalid';

export type RotationConfig = {
  /** JWT_REFRESH_TOKEN_TTL_DAYS: tokens of browser families. */
  readonly refreshTokenTtlDays: number;
  /** OAUTH_REFRESH_TOKEN_TTL_DAYS: tokens of families started by an OAuth code exchange. */
  readonly oauthRefreshTokenTtlDays: number;
  /** JWT_REFRESH_GRACE_PERIOD_MS */
  readonly graceMs: number;
};

export type RefreshRotationDeps = {
  readonly eventStore: EventStore;
  readonly systemState: SystemStateSource;
  readonly clock: Clock;
  readonly log: Logger;
  readonly codec: RefreshTokenCodec;
  readonly config: RotationConfig;
  readonly onAppended?: (position: Position) => void;
  readonly onRefreshOutcome?: (outcome: RefreshOutcome) => void;
};

/** A successful rotation or duplicate (auth.md §7.2 rows 5 and 6): the caller mints its own access token. */
export type Rotation = {
  readonly kind: 'rotated' | 'duplicate';
  readonly family: RefreshFamilyRecord;
  readonly user: UserRecord;
  /** The refresh token to hand out (`<id>.<mac>`) and its remaining lifetime in seconds. */
  readonly refreshToken: string;
  readonly refreshMaxAgeSeconds: number;
};

export type RefreshRotation = {
  /**
   * Rows 2–9 of auth.md §7.2 for one presented token, among the families `accepts` admits (others are unknown
   * tokens): browser refresh admits browser families, the OAuth token endpoint the families of its client. Throws
   * REFRESH_TOKEN_MISSING / INVALID / REUSED, REFRESH_IN_PROGRESS or SERVICE_UNAVAILABLE.
   */
  rotate(refreshToken: string | null, accepts: (family: RefreshFamilyRecord) => boolean, correlationId: string): Promise<Rotation>;
  /** Revokes a family (no expected revision: nothing can invalidate a revocation). */
  revoke(family: RefreshFamilyRecord, reason: RefreshFamilyRevokeReason, correlationId: string): Promise<Position>;
  append(
    streamId: string,
    events: readonly AuthEvent[],
    principal: string,
    correlationId: string,
    now: number,
    expected: 'any' | 'no_stream' | number,
  ): Promise<Position>;
  /** Store failures become SERVICE_UNAVAILABLE (row 9); refusals pass through. */
  guarded<T>(what: string, run: () => Promise<T>): Promise<T>;
};

const seconds = (ms: number): number => Math.max(0, Math.floor(ms / 1000));

/** Refresh-token rotation with duplicate grace and reuse detection: ONE implementation for browser and OAuth families. */
export function createRefreshRotation(deps: RefreshRotationDeps): RefreshRotation {
  const { eventStore, systemState, clock, log, codec, config } = deps;
  const count = (outcome: RefreshOutcome): void => deps.onRefreshOutcome?.(outcome);

  async function append(
    streamId: string,
    events: readonly AuthEvent[],
    principal: string,
    correlationId: string,
    now: number,
    expected: 'any' | 'no_stream' | number,
  ): Promise<Position> {
    const result = await eventStore.append(streamId, authEventEnvelope(events, { principal, correlationId }, now), expected);
    deps.onAppended?.(result.position);
    return result.position;
  }

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
    const event: AuthEvent = { type: 'RefreshFamilyRevoked', data: { reason } };
    return append(sessionStreamId(family.id), [event], `user:${family.userId}`, correlationId, clock.now(), 'any');
  }

  function answer(kind: Rotation['kind'], family: RefreshFamilyRecord, user: UserRecord, tokenId: string, expiresAt: number, now: number): Rotation {
    count(kind);
    return { kind, family, user, refreshToken: codec.format(tokenId), refreshMaxAgeSeconds: seconds(expiresAt - now) };
  }

  async function rotateOnce(tokenId: string, accepts: (family: RefreshFamilyRecord) => boolean, correlationId: string): Promise<Rotation | null> {
    const state = await systemState.current();
    const now = clock.now();
    const token = state.refreshTokens.get(tokenId);
    const owner = token ? state.refreshFamilies.get(token.familyId) : undefined;
    const decision =
      owner && !accepts(owner) ? ({ kind: 'invalid', reason: 'unknown', family: null } as const) : decideRefresh(state, tokenId, now, config.graceMs);
    switch (decision.kind) {
      case 'invalid':
        log.debug({ reason: decision.reason, familyId: decision.family?.id }, 'refresh refused');
        count('invalid');
        throw new AppError('REFRESH_TOKEN_INVALID');
      case 'duplicate':
        return answer('duplicate', decision.family, decision.user, decision.successor.id, decision.successor.expiresAt, now);
      case 'reuse': {
        const { family } = decision;
        await revoke(family, 'reuse', correlationId);
        // Whoever presented the reused token is unknown: it may be the user or the thief.
        const event = family.oauth ? 'oauth.token_reuse' : 'refresh.reuse';
        log.warn(
          { audit: true, event, actor: 'anonymous', userId: family.userId, familyId: family.id, clientId: family.oauth?.clientId },
          'refresh token reuse detected; family revoked',
        );
        count('reused');
        throw new AppError('REFRESH_TOKEN_REUSED');
      }
      case 'rotate': {
        const { family, token: current, user } = decision;
        const successorId = codec.newTokenId();
        const ttlDays = family.oauth ? config.oauthRefreshTokenTtlDays : config.refreshTokenTtlDays;
        const expiresAt = Math.min(now + ttlDays * DAY_MS, family.absoluteExpiresAt);
        const event: AuthEvent = { type: 'RefreshTokenRotated', data: { tokenId: current.id, successorId, successorExpiresAt: isoTime(expiresAt) } };
        const streamId = sessionStreamId(family.id);
        try {
          await append(streamId, [event], `user:${user.id}`, correlationId, now, state.streamRevisions.get(streamId) ?? 'no_stream');
        } catch (err) {
          if (!isStreamConflict(err)) throw err;
          log.debug({ familyId: family.id }, 'concurrent refresh rotation, re-evaluating');
          return null;
        }
        return answer('rotated', family, user, successorId, expiresAt, now);
      }
      default: {
        const never: never = decision;
        return never;
      }
    }
  }

  return {
    append,
    guarded,
    revoke,
    async rotate(refreshToken, accepts, correlationId) {
      if (refreshToken === null || refreshToken === '') {
        count('invalid');
        throw new AppError('REFRESH_TOKEN_MISSING');
      }
      const tokenId = codec.parse(refreshToken);
      if (tokenId === null) {
        count('invalid');
        throw new AppError('REFRESH_TOKEN_INVALID');
      }
      return guarded('refresh', async () => {
        for (let attempt = 1; attempt <= MAX_REFRESH_ATTEMPTS; attempt++) {
          const result = await rotateOnce(tokenId, accepts, correlationId);
          if (result) return result;
        }
        throw new AppError('REFRESH_IN_PROGRESS');
      });
    },
  };
}
