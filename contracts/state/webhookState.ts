import type { RecordedEvent } from '../events/envelope.ts';
import type { WebhookEvent, WebhookSettings } from '../events/webhookEvents.ts';

/** A webhook as the write side decides on it (the dispatcher keeps its own copy with delivery counters). */
export type WebhookRecord = WebhookSettings & {
  id: string;
  organizationId: string;
  active: boolean;
  secretPrefix: string;
  /** Never returned by any API (see webhookEvents.ts). */
  sealedSecret: string;
  createdAt: string;
  createdBy: string;
  disabledAt: string | null;
  disabledReason: string | null;
  deleted: boolean;
};

/** Webhooks folded from the `webhook` category (changes.md §6.1). */
export type WebhookState = { webhooks: Map<string, WebhookRecord> };

export function createWebhookState(): WebhookState {
  return { webhooks: new Map() };
}

/** Folds one event of the `webhook` category; unknown events are ignored. */
export function evolveWebhookState(state: WebhookState, recorded: RecordedEvent): void {
  const event = { type: recorded.type, data: recorded.data } as WebhookEvent;
  const time = recorded.metadata.time;
  switch (event.type) {
    case 'WebhookCreated': {
      const { webhookId, ...rest } = event.data;
      state.webhooks.set(webhookId, {
        ...rest,
        id: webhookId,
        active: true,
        createdAt: time,
        disabledAt: null,
        disabledReason: null,
        deleted: false,
      });
      break;
    }
    case 'WebhookUpdated': {
      const hook = state.webhooks.get(event.data.webhookId);
      if (!hook) break;
      const { url, types, projectName, branchNames, description, active } = event.data;
      Object.assign(hook, { url, types, projectName, branchNames, description, active });
      if (active) Object.assign(hook, { disabledAt: null, disabledReason: null });
      break;
    }
    case 'WebhookSecretRotated': {
      const hook = state.webhooks.get(event.data.webhookId);
      if (hook) Object.assign(hook, { secretPrefix: event.data.secretPrefix, sealedSecret: event.data.sealedSecret });
      break;
    }
    case 'WebhookDeleted': {
      const hook = state.webhooks.get(event.data.webhookId);
      if (hook) hook.deleted = true;
      break;
    }
    case 'WebhookDisabled': {
      const hook = state.webhooks.get(event.data.webhookId);
      if (hook) Object.assign(hook, { active: false, disabledAt: time, disabledReason: event.data.reason });
      break;
    }
    default:
      break;
  }
}
