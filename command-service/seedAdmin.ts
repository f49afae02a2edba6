import type { Logger } from 'pino';
import { directoryStreamId, isStreamConflict, isoTime } from '../contracts/index.ts';
import type { Clock, DomainEvent, EventStore, NewEvent, SystemStateSource } from '../contracts/index.ts';
import { findUserByUsername } from './state/findUserByUsername.ts';
import { hashPassword, verifyPassword } from './sessions/passwords.ts';
import { auditUserEvent } from './audit/userAudit.ts';
import { EVENT_SCHEMA_VERSION } from './commandHandler.ts';
import { newEventId, newId as defaultNewId } from './ids.ts';

export const ADMIN_USERNAME = 'admin';
const DEFAULT_ADMIN_PASSWORD = 'admin';

export type EnsureAdminUserOptions = {
  readonly eventStore: EventStore;
  readonly systemState: SystemStateSource;
  readonly adminPassword: string;
  readonly clock: Clock;
  readonly log: Logger;
  readonly newId?: () => string;
};

/**
 * On an empty event store creates user `admin` (systemAdmin, personal organization `admin`) with ADMIN_PASSWORD
 * (domain.md §1). The append expects no `directory` stream, so of two processes starting together one creates
 * the user and the other sees the conflict and moves on. Warns at every start while admin's password is `admin`.
 * Returns whether this call created the user.
 */
export async function ensureAdminUser(options: EnsureAdminUserOptions): Promise<boolean> {
  const { eventStore, systemState, clock, log } = options;
  const newId = options.newId ?? defaultNewId;
  let created = false;
  if ((await eventStore.headPosition()) === null) {
    const userId = newId();
    const passwordHash = await hashPassword(options.adminPassword);
    const domainEvents: DomainEvent[] = [
      { type: 'UserCreated', data: { userId, username: ADMIN_USERNAME, email: null, role: 'systemAdmin', passwordHash } },
      { type: 'OrganizationCreated', data: { organizationId: ADMIN_USERNAME, isPersonal: true } },
      { type: 'OrganizationMemberSet', data: { organizationId: ADMIN_USERNAME, userId, username: ADMIN_USERNAME, role: 'organizationOwner' } },
    ];
    const time = isoTime(clock.now());
    const correlationId = newId();
    const events: NewEvent[] = domainEvents.map((event) => ({
      type: event.type,
      schemaVersion: EVENT_SCHEMA_VERSION,
      data: event.data,
      metadata: { eventId: newEventId(), correlationId, causationId: null, principal: 'system', time },
    }));
    try {
      const appended = await eventStore.append(directoryStreamId, events, 'no_stream');
      created = true;
      log.info({ userId, position: appended.position }, 'admin user created');
      for (const event of domainEvents) auditUserEvent(log, 'system', event);
    } catch (err) {
      if (!isStreamConflict(err)) throw err;
      log.info('admin user already created by another process');
    }
  }
  const admin = findUserByUsername(await systemState.current(), ADMIN_USERNAME);
  if (admin && (await verifyPassword(DEFAULT_ADMIN_PASSWORD, admin.passwordHash))) {
    log.warn(
      { security: true, username: ADMIN_USERNAME },
      'SECURITY WARNING: user "admin" still has the default password "admin"; change it now (updatePassword, or set ADMIN_PASSWORD before the first start)',
    );
  }
  return created;
}
