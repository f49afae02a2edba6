import { assertCanWrite, assertOrganizationScope } from '../auth/authorize.ts';
import { can, type Action } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import { AppError } from '../errors/appError.ts';
import type { SystemState } from '../state/systemState.ts';
import type { WebhookRecord } from '../state/webhookState.ts';

/**
 * Organization routes (list, create): the organization's owners and admins, system admins, and service keys whose
 * rules grant the action on `Webhook` (changes.md §6.1); others -> 403 FORBIDDEN.
 */
export function assertManagesWebhooks(state: SystemState, principal: Principal, action: Action, organizationId: string): void {
  assertOrganizationScope(principal, organizationId);
  if (!state.organizations.has(organizationId)) throw new AppError('ORGANIZATION_NOT_FOUND');
  if (action === 'read') {
    if (principal.kind === 'anonymous') throw new AppError('UNAUTHENTICATED');
    if (!can(state, principal, 'read', 'Webhook', { organizationId })) {
      throw new AppError('FORBIDDEN', 'Only owners and admins of the organization can manage its webhooks');
    }
    return;
  }
  assertCanWrite(state, principal, action, 'Webhook', { organizationId });
}

/** A webhook the caller may act on; any other id (unknown, deleted, not manageable) -> 404 WEBHOOK_NOT_FOUND. */
export function findManageableWebhook(state: SystemState, principal: Principal, action: Action, id: string): WebhookRecord {
  const hook = state.webhooks.get(id);
  if (hook === undefined || hook.deleted || !can(state, principal, action, 'Webhook', { organizationId: hook.organizationId })) {
    throw new AppError('WEBHOOK_NOT_FOUND', `Webhook "${id}" not found`);
  }
  assertOrganizationScope(principal, hook.organizationId);
  if (action !== 'read') assertCanWrite(state, principal, action, 'Webhook', { organizationId: hook.organizationId });
  return hook;
}
