import type { Logger } from 'pino';
import type { DomainEvent } from '../../contracts/index.ts';

/** Where a password change came from (operations.md §6): the user, an administrator, or `strata users set-password`. */
const PASSWORD_SOURCES = { self: 'own change', reset: 'admin reset', cli: 'cli' } as const;

/**
 * The audit line of an appended user event (operations.md §6: user create, deactivate, reactivate, role and password
 * changes): `audit: true`, the event name, the acting principal (`user:<id>`, `key:<id>` or `system`) and the target
 * user. Never the password or its hash. Other events write nothing.
 */
export function auditUserEvent(log: Logger, actor: string, event: DomainEvent): void {
  switch (event.type) {
    case 'UserCreated': {
      const { userId, username, role } = event.data;
      log.info({ audit: true, event: 'user.created', actor, userId, username, role }, 'user created');
      return;
    }
    case 'UserDeactivated':
      log.info({ audit: true, event: 'user.deactivated', actor, userId: event.data.userId }, 'user deactivated');
      return;
    case 'UserReactivated':
      log.info({ audit: true, event: 'user.reactivated', actor, userId: event.data.userId }, 'user reactivated');
      return;
    case 'UserRoleChanged': {
      const { userId, role } = event.data;
      log.info({ audit: true, event: 'user.roleChanged', actor, userId, role }, 'user role changed');
      return;
    }
    case 'UserPasswordChanged':
      auditPasswordChanged(log, actor, event.data.userId, event.data.reason);
      return;
    default:
      return;
  }
}

export function auditPasswordChanged(log: Logger, actor: string, userId: string, reason: keyof typeof PASSWORD_SOURCES): void {
  log.info({ audit: true, event: 'password.changed', actor, userId, reason }, `password changed (${PASSWORD_SOURCES[reason]})`);
}
