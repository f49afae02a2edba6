import {
  AppError,
  assertManagesWebhooks,
  fieldsEqual,
  findManageableWebhook,
  isoTime,
  webhookIdOfDelivery,
  webhookViewOfDoc,
  webhookViews,
} from '../../../contracts/index.ts';
import type { CommandGateway, SystemStateSource, ViewDoc, ViewStore, WebhookDeliveryView } from '../../../contracts/index.ts';
import { fieldKey, keysetPage } from '../../paging/keysetPage.ts';
import { parsePageArgs } from '../../paging/pageArgs.ts';
import type { WebhookOperations } from './operationTypes.ts';

const NAME = webhookViews.name;

export function deliveryViewOf(doc: ViewDoc): WebhookDeliveryView {
  const next = doc.nextAttemptAt as number | null;
  return {
    id: doc.id as string,
    webhookId: doc.webhookId as string,
    type: doc.type as string,
    position: (doc.position as string | null) ?? null,
    status: doc.status as WebhookDeliveryView['status'],
    attempts: (doc.attempts as WebhookDeliveryView['attempts'] | null) ?? [],
    nextAttemptAt: next === null || doc.status !== 'pending' ? null : isoTime(next),
    createdAt: doc.createdAt as string,
  };
}

const notFound = (id: string) => new AppError('WEBHOOK_NOT_FOUND', `Webhook "${id}" not found`);

/**
 * Webhook reads (changes.md §6.1): access is decided on the system state (owners, admins, systemAdmin; others get
 * 403 on the organization route and 404 on routes naming a webhook), the records come from the `webhooks` view.
 */
export function createWebhookOperations(deps: { readonly viewStore: ViewStore; readonly systemState: SystemStateSource }): WebhookOperations {
  const { viewStore, systemState } = deps;
  return {
    async webhooks(ctx, args) {
      assertManagesWebhooks(await systemState.current(), ctx.principal, 'read', args.organizationId);
      const docs = await viewStore.find(NAME, 'webhooks', {
        filter: fieldsEqual({ organizationId: args.organizationId, deleted: false }),
        orderBy: [
          { ref: { field: 'createdAt' }, direction: 'asc' },
          { ref: { field: 'id' }, direction: 'asc' },
        ],
      });
      return docs.map(webhookViewOfDoc);
    },
    async webhook(ctx, args) {
      findManageableWebhook(await systemState.current(), ctx.principal, 'read', args.id);
      const doc = await viewStore.get(NAME, 'webhooks', { id: args.id });
      if (doc === null || doc.deleted === true) throw notFound(args.id);
      return webhookViewOfDoc(doc);
    },
    async webhookDeliveries(ctx, args) {
      findManageableWebhook(await systemState.current(), ctx.principal, 'read', args.webhookId);
      const query = {
        projection: NAME,
        collection: 'deliveries',
        filter: fieldsEqual({ webhookId: args.webhookId }),
        keys: [fieldKey('logPosition', 'desc'), fieldKey('id', 'desc')],
        queryKey: { webhookDeliveries: args.webhookId },
      };
      return keysetPage(viewStore, query, parsePageArgs(args), (docs) => docs.map(deliveryViewOf));
    },
  };
}

/**
 * `redeliverWebhook(deliveryId)` names a delivery the write side cannot read: the gateway this service uses looks it
 * up in the view first (unknown -> 404 WEBHOOK_NOT_FOUND, like a webhook the caller may not manage) and hands the
 * handler the delivery.
 */
export function withDeliveryLookup(gateway: CommandGateway, viewStore: ViewStore): CommandGateway {
  return {
    async execute(type, input, context) {
      if (type !== 'RedeliverWebhook') return gateway.execute(type, input, context);
      const deliveryId = String((input as { deliveryId?: unknown }).deliveryId);
      const doc = webhookIdOfDelivery(deliveryId) === null ? null : await viewStore.get(NAME, 'deliveries', { id: deliveryId });
      if (doc === null) throw notFound(deliveryId);
      return gateway.execute(type, { ...input, delivery: deliveryViewOf(doc) }, context);
    },
  };
}
