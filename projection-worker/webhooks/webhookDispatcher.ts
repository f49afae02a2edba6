import { createHash } from 'node:crypto';
import { deliveryIdOf, fieldsEqual, streamCategories, webhookViewOfDoc, webhookViews } from '../../contracts/index.ts';
import type { ChangeEventSource, RecordedEvent, RoutedChangeEvent, ViewChange, ViewStore, WebhookEvent, WebhookView } from '../../contracts/index.ts';
import type { LogSubscriber } from '../runner/projector.ts';

const WEBHOOKS = webhookViews.name;

/** What the dispatcher needs of a webhook to route an event. */
type Subscription = Pick<WebhookView, 'id' | 'organizationId' | 'projectName' | 'branchNames' | 'types' | 'active'>;

export function matchesSubscription(hook: Subscription, event: RoutedChangeEvent): boolean {
  if (!hook.active || hook.organizationId !== event.organizationId) return false;
  if (!hook.types.includes(event.payload.type)) return false;
  if (hook.projectName !== null && hook.projectName !== event.projectName) return false;
  if (hook.branchNames === null) return true;
  return hook.branchNames.some((name) => name === event.branchName || (name === '$default' && event.branchIsRoot));
}

const byId = (id: string) => fieldsEqual({ id });

function newDelivery(
  id: string,
  webhookId: string,
  recorded: RecordedEvent,
  payload: RoutedChangeEvent['payload'] | Record<string, unknown>,
): ViewChange {
  const appendedAt = Date.parse(recorded.metadata.time);
  const doc = {
    id,
    webhookId,
    type: payload.type as string,
    position: (payload.position as string | null) ?? null,
    logPosition: recorded.position,
    payload,
    status: 'pending',
    attempts: [],
    retries: 0,
    redelivery: false,
    nextAttemptAt: appendedAt,
    createdAt: recorded.metadata.time,
    appendedAt,
    succeededOnce: false,
  };
  return { op: 'upsert', collection: 'deliveries', doc };
}

/** The view changes of one webhook event; `hooks` follows the batch so later events see the new state. */
function applyWebhookEvent(recorded: RecordedEvent, hooks: Map<string, Subscription>, changes: ViewChange[]): void {
  const event = { type: recorded.type, data: recorded.data } as WebhookEvent;
  const time = recorded.metadata.time;
  switch (event.type) {
    case 'WebhookCreated': {
      const { webhookId, ...d } = event.data;
      const doc = {
        ...d,
        id: webhookId,
        active: true,
        createdAt: time,
        consecutiveFailures: 0,
        deleted: false,
        disabledAt: null,
        disabledReason: null,
      };
      changes.push({ op: 'upsert', collection: 'webhooks', doc: { ...doc, previousSealedSecret: null, previousSecretExpiresAt: null } });
      hooks.set(webhookId, webhookViewOfDoc(doc));
      return;
    }
    case 'WebhookUpdated': {
      const { webhookId, updatedBy: _by, ...settings } = event.data;
      const hook = hooks.get(webhookId);
      const reenabled = settings.active && hook !== undefined && !hook.active;
      const set = { ...settings, ...(reenabled ? { consecutiveFailures: 0, disabledAt: null, disabledReason: null } : {}) };
      changes.push({ op: 'update', collection: 'webhooks', filter: byId(webhookId), set });
      if (hook) hooks.set(webhookId, { ...hook, ...settings });
      return;
    }
    case 'WebhookSecretRotated': {
      const { webhookId, secretPrefix, sealedSecret, previousSealedSecret, previousSecretExpiresAt } = event.data;
      const set = { secretPrefix, sealedSecret, previousSealedSecret, previousSecretExpiresAt };
      changes.push({ op: 'update', collection: 'webhooks', filter: byId(webhookId), set });
      return;
    }
    case 'WebhookDeleted':
      changes.push({ op: 'update', collection: 'webhooks', filter: byId(event.data.webhookId), set: { deleted: true, active: false } });
      changes.push({ op: 'delete', collection: 'deliveries', filter: fieldsEqual({ webhookId: event.data.webhookId }) });
      hooks.delete(event.data.webhookId);
      return;
    case 'WebhookDisabled': {
      const set = { active: false, disabledAt: time, disabledReason: event.data.reason };
      changes.push({ op: 'update', collection: 'webhooks', filter: byId(event.data.webhookId), set });
      const hook = hooks.get(event.data.webhookId);
      if (hook) hooks.set(hook.id, { ...hook, active: false });
      return;
    }
    case 'WebhookPingRequested': {
      const { webhookId, deliveryId } = event.data;
      const payload = { type: 'webhook.ping', position: null, timestamp: time, data: { webhookId } };
      if (hooks.has(webhookId)) changes.push(newDelivery(deliveryId, webhookId, recorded, payload));
      return;
    }
    case 'WebhookRedeliveryRequested': {
      // One new attempt at once, whatever the delivery's status; a failure ends it as failed again.
      const set = { status: 'pending', nextAttemptAt: Date.parse(time), redelivery: true };
      changes.push({ op: 'update', collection: 'deliveries', filter: byId(event.data.deliveryId), set });
      return;
    }
    default:
      return;
  }
}

/** Delivery id of an event for a webhook: stable, so a replayed batch writes the same deliveries again. */
function deliveryIdFor(webhookId: string, position: string): string {
  return deliveryIdOf(webhookId, createHash('sha256').update(position).digest('hex').slice(0, 20));
}

/**
 * The checkpointed dispatcher of changes.md §6.2: follows the log like a projection (lease, batches, checkpoint moved
 * with the changes in one step) and turns every change event into one pending delivery per matching webhook. A crash
 * before the checkpoint moves replays the batch into the same delivery ids; a webhook only sees events after its
 * creation because its own events are folded in log order.
 */
export function createWebhookDispatcher(deps: { readonly viewStore: ViewStore; readonly changeEvents: ChangeEventSource }): LogSubscriber {
  const { viewStore, changeEvents } = deps;
  const changeCategories = new Set(changeEvents.categories);
  return {
    spec: webhookViews,
    categories: [...changeEvents.categories, streamCategories.webhook],
    async apply(events) {
      const docs = await viewStore.find(WEBHOOKS, 'webhooks', { filter: fieldsEqual({ deleted: false }) });
      const hooks = new Map(docs.map((doc) => [doc.id as string, webhookViewOfDoc(doc)]));
      const relevant = events.filter((e) => changeCategories.has(e.streamId.slice(0, e.streamId.indexOf('-'))));
      // Nothing to route to: skip the (view-reading) description of the batch.
      const anyHook = hooks.size > 0 || events.some((e) => e.type === 'WebhookCreated');
      const routed = anyHook && relevant.length > 0 ? await changeEvents.describe(relevant) : [];
      const byPosition = new Map<string, RoutedChangeEvent[]>();
      for (const event of routed) byPosition.set(event.payload.position, [...(byPosition.get(event.payload.position) ?? []), event]);
      const changes: ViewChange[] = [];
      for (const recorded of events) {
        if (recorded.streamId.startsWith(`${streamCategories.webhook}-`)) {
          applyWebhookEvent(recorded, hooks, changes);
          continue;
        }
        for (const event of byPosition.get(recorded.position) ?? []) {
          for (const hook of hooks.values()) {
            if (matchesSubscription(hook, event))
              changes.push(newDelivery(deliveryIdFor(hook.id, recorded.position), hook.id, recorded, event.payload));
          }
        }
      }
      return changes;
    },
  };
}
