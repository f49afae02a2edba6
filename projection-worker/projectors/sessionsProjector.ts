import { fieldsEqual, isoTime, sessionViews } from '../../contracts/index.ts';
import type { AuthEvent, DomainEvent, RecordedEvent, RefreshFamilyRevokeReason, ViewChange } from '../../contracts/index.ts';
import type { Projector } from '../runner/projector.ts';
import { streamEntityId } from './projectorSupport.ts';

/** Families are dropped this long after their absolute expiry (the system state keeps them as long). */
const DROP_MARGIN_MS = 3_600_000;
const FAMILIES = 'families';

/**
 * Refresh families (projection `sessions`, categories `session` and `directory`). A family is also marked revoked
 * when its user's token version moves on (UserDeactivated, UserPasswordChanged, UserTokenVersionIncremented): the
 * log records that as one directory event instead of one revocation per family (contracts/events/authEvents.ts).
 */
export const sessionsProjector: Projector = {
  spec: sessionViews,
  categories: ['session', 'directory'],
  apply(events: readonly RecordedEvent[]): ViewChange[] {
    const changes: ViewChange[] = [];
    let latestStart: number | null = null;
    for (const recorded of events) {
      if (applySessionEvent(recorded, changes)) latestStart = Math.max(latestStart ?? 0, Date.parse(recorded.metadata.time));
    }
    // One sweep per batch: a family long past its absolute expiry is never touched again, so where in the batch
    // it is dropped does not change the result (replays with any batch size give the same view).
    if (latestStart !== null) {
      changes.push({
        op: 'delete',
        collection: FAMILIES,
        filter: { kind: 'compare', ref: { field: 'absoluteExpiresAt' }, op: 'lt', value: isoTime(latestStart - DROP_MARGIN_MS) },
      });
    }
    return changes;
  },
};

function revoke(filter: Record<string, string>, time: string, reason: RefreshFamilyRevokeReason): ViewChange {
  return {
    op: 'update',
    collection: FAMILIES,
    filter: fieldsEqual({ ...filter, revoked: false }),
    set: { revoked: true, revokedAt: time, revokeReason: reason },
  };
}

/** Pushes the changes of one event; true when it started a family. */
function applySessionEvent(recorded: RecordedEvent, changes: ViewChange[]): boolean {
  const time = recorded.metadata.time;
  const event = { type: recorded.type, data: recorded.data } as AuthEvent | DomainEvent;
  switch (event.type) {
    case 'RefreshFamilyStarted':
    case 'OAuthFamilyStarted': {
      const d = event.data;
      changes.push({
        op: 'upsert',
        collection: FAMILIES,
        doc: {
          id: d.familyId,
          userId: d.userId,
          userTokenVersion: d.userTokenVersion,
          createdAt: time,
          absoluteExpiresAt: d.absoluteExpiresAt,
          tokenExpiresAt: d.tokenExpiresAt,
          rotations: 0,
          lastRotatedAt: null,
          revoked: false,
          revokedAt: null,
          revokeReason: null,
        },
      });
      return true;
    }
    case 'RefreshTokenRotated':
      changes.push({
        op: 'update',
        collection: FAMILIES,
        filter: fieldsEqual({ id: streamEntityId(recorded.streamId) }),
        set: { lastRotatedAt: time, tokenExpiresAt: event.data.successorExpiresAt },
        inc: { rotations: 1 },
      });
      return false;
    case 'RefreshFamilyRevoked':
      changes.push(revoke({ id: streamEntityId(recorded.streamId) }, time, event.data.reason));
      return false;
    case 'UserDeactivated':
      changes.push(revoke({ userId: event.data.userId }, time, 'deactivation'));
      return false;
    case 'UserPasswordChanged':
      changes.push(revoke({ userId: event.data.userId }, time, 'passwordChange'));
      return false;
    case 'UserTokenVersionIncremented':
      changes.push(revoke({ userId: event.data.userId }, time, 'logoutAll'));
      return false;
    default:
      return false;
  }
}
