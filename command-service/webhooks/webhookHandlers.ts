import {
  AppError,
  MAX_WEBHOOKS_PER_ORGANIZATION,
  SECRET_OVERLAP_MS,
  assertManagesWebhooks,
  findManageableWebhook,
  deliveryIdOf,
  isoTime,
  organizationWebhooksStreamId,
  principalRef,
} from '../../contracts/index.ts';
import type { CommandContext, CommandOutcome, NewEvent, SystemState, WebhookEvent, WebhookRecord } from '../../contracts/index.ts';
import { EVENT_SCHEMA_VERSION, appendWithRetry } from '../commandHandler.ts';
import type { CommandHandlers, HandlerDeps } from '../commandHandler.ts';
import { newEventId } from '../ids.ts';
import { webhookViewOf } from './webhookView.ts';
import { generateWebhookSecret, type WebhookSecretBox } from './webhookSecrets.ts';
import { parseWebhookSettings, type WebhookAddressRules } from './webhookValidation.ts';

export type WebhookCommandType = 'CreateWebhook' | 'UpdateWebhook' | 'RotateWebhookSecret' | 'DeleteWebhook' | 'PingWebhook' | 'RedeliverWebhook';

export type WebhookHandlerDeps = HandlerDeps & { readonly secrets: WebhookSecretBox; readonly addressRules: WebhookAddressRules };

/** The projection that must see a webhook write before it answers (WRITE_CONSISTENCY=projected). */
export const WEBHOOKS_PROJECTION = 'webhooks';

type Decision<T> = { readonly events: readonly WebhookEvent[]; readonly result: T };

/** Wraps webhook events in the envelope (one time for the batch). */
export function webhookEventEnvelope(events: readonly WebhookEvent[], principal: string, correlationId: string, nowMs: number): NewEvent[] {
  return events.map((event) => ({
    type: event.type,
    schemaVersion: EVENT_SCHEMA_VERSION,
    data: event.data,
    metadata: { eventId: newEventId(nowMs), correlationId, causationId: null, principal, time: isoTime(nowMs) },
  }));
}

/**
 * The webhook commands (changes.md §6.1). Each decides against the system state (which folds the `webhook`
 * category) and appends to the organization's webhook stream with its expected revision, so the per-organization
 * limit holds under parallel creates.
 */
export function createWebhookHandlers(deps: WebhookHandlerDeps): Pick<CommandHandlers, WebhookCommandType> {
  const { systemState, clock, log, newId, secrets, addressRules } = deps;

  async function append<T>(
    context: CommandContext,
    organizationId: string,
    decide: (state: SystemState, now: number) => Decision<T>,
  ): Promise<CommandOutcome<T>> {
    const streamId = organizationWebhooksStreamId(organizationId);
    const outcome = await appendWithRetry(deps, async () => {
      const state = await systemState.current();
      const now = clock.now();
      const { events, result } = decide(state, now);
      return {
        streamId,
        expected: state.streamRevisions.get(streamId) ?? 'no_stream',
        events: webhookEventEnvelope(events, principalRef(context.principal), context.correlationId, now),
        result,
        seenPosition: state.position,
      };
    });
    return { result: outcome.result, position: outcome.position, projections: [WEBHOOKS_PROJECTION] };
  }

  function audit(event: string, hook: Pick<WebhookRecord, 'id' | 'organizationId' | 'url' | 'secretPrefix'>, context: CommandContext): void {
    const line = { audit: true, event, webhookId: hook.id, organizationId: hook.organizationId, url: hook.url, secretPrefix: hook.secretPrefix };
    log.info({ ...line, actor: principalRef(context.principal) }, `webhook ${event.slice('webhook.'.length)}`);
  }

  /** The user (or service key) acting: `createdBy` and the other actor fields hold its id. */
  const actorOf = ({ principal }: CommandContext): string =>
    principal.kind === 'user' ? principal.userId : principal.kind === 'service' ? principal.keyId : 'anonymous';

  /** The organization of a webhook the caller may act on (404 otherwise), checked before the append loop. */
  async function organizationOf(context: CommandContext, action: 'read' | 'update' | 'delete', id: string): Promise<string> {
    return findManageableWebhook(await systemState.current(), context.principal, action, id).organizationId;
  }

  return {
    async CreateWebhook(input, context) {
      const { organizationId } = input;
      const webhookId = newId();
      const generated = generateWebhookSecret();
      const outcome = await append(context, organizationId, (state, now) => {
        assertManagesWebhooks(state, context.principal, 'create', organizationId);
        const settings = parseWebhookSettings(input, addressRules);
        const count = [...state.webhooks.values()].filter((w) => w.organizationId === organizationId && !w.deleted).length;
        if (count >= MAX_WEBHOOKS_PER_ORGANIZATION) {
          throw new AppError('LIMIT_EXCEEDED', `An organization can have at most ${MAX_WEBHOOKS_PER_ORGANIZATION} webhooks`);
        }
        const data = {
          webhookId,
          organizationId,
          ...settings,
          secretPrefix: generated.prefix,
          sealedSecret: secrets.seal(generated.secret),
          createdBy: actorOf(context),
        };
        const record: WebhookRecord = {
          ...data,
          id: webhookId,
          active: true,
          createdAt: isoTime(now),
          disabledAt: null,
          disabledReason: null,
          deleted: false,
        };
        return { events: [{ type: 'WebhookCreated', data }], result: { secret: generated.secret, webhook: webhookViewOf(record) } };
      });
      audit('webhook.created', outcome.result.webhook, context);
      return outcome;
    },

    async UpdateWebhook(input, context) {
      const organizationId = await organizationOf(context, 'update', input.id);
      const outcome = await append(context, organizationId, (state) => {
        const hook = findManageableWebhook(state, context.principal, 'update', input.id);
        const settings = parseWebhookSettings(input, addressRules, hook);
        if (input.active !== undefined && input.active !== null && typeof input.active !== 'boolean') {
          throw new AppError('BAD_USER_INPUT', 'active must be a boolean', [{ path: '/active', message: 'must be a boolean' }]);
        }
        const active = typeof input.active === 'boolean' ? input.active : hook.active;
        const reenabled = active && !hook.active;
        const updated: WebhookRecord = { ...hook, ...settings, active, ...(reenabled ? { disabledAt: null, disabledReason: null } : {}) };
        const data = { webhookId: hook.id, ...settings, active, updatedBy: actorOf(context) };
        return { events: [{ type: 'WebhookUpdated', data }], result: webhookViewOf(updated) };
      });
      audit('webhook.updated', outcome.result, context);
      return outcome;
    },

    async RotateWebhookSecret(input, context) {
      const organizationId = await organizationOf(context, 'update', input.id);
      const generated = generateWebhookSecret();
      const outcome = await append(context, organizationId, (state, now) => {
        const hook = findManageableWebhook(state, context.principal, 'update', input.id);
        const data = {
          webhookId: hook.id,
          secretPrefix: generated.prefix,
          sealedSecret: secrets.seal(generated.secret),
          previousSealedSecret: hook.sealedSecret,
          previousSecretExpiresAt: isoTime(now + SECRET_OVERLAP_MS),
          rotatedBy: actorOf(context),
        };
        const webhook = webhookViewOf({ ...hook, secretPrefix: generated.prefix });
        return { events: [{ type: 'WebhookSecretRotated', data }], result: { secret: generated.secret, webhook } };
      });
      audit('webhook.rotated', outcome.result.webhook, context);
      return outcome;
    },

    async DeleteWebhook(input, context) {
      const organizationId = await organizationOf(context, 'delete', input.id);
      let deleted: WebhookRecord | null = null;
      const outcome = await append(context, organizationId, (state) => {
        const hook = findManageableWebhook(state, context.principal, 'delete', input.id);
        deleted = hook;
        return {
          events: [{ type: 'WebhookDeleted', data: { webhookId: hook.id, deletedBy: actorOf(context) } }],
          result: { success: true as const },
        };
      });
      if (deleted !== null) audit('webhook.deleted', deleted, context);
      return outcome;
    },

    async PingWebhook(input, context) {
      const organizationId = await organizationOf(context, 'update', input.id);
      const deliveryId = deliveryIdOf(input.id, newId());
      return append(context, organizationId, (state, now) => {
        const hook = findManageableWebhook(state, context.principal, 'update', input.id);
        const at = isoTime(now);
        const delivery = {
          id: deliveryId,
          webhookId: hook.id,
          type: 'webhook.ping',
          position: null,
          status: 'pending' as const,
          attempts: [],
          nextAttemptAt: at,
          createdAt: at,
        };
        return { events: [{ type: 'WebhookPingRequested', data: { webhookId: hook.id, deliveryId } }], result: delivery };
      });
    },

    async RedeliverWebhook(input, context) {
      const { delivery } = input;
      // The query edge looked the delivery up (query-service withDeliveryLookup): an unknown id never gets here.
      if (delivery === undefined) throw new AppError('WEBHOOK_NOT_FOUND', `Webhook "${input.deliveryId}" not found`);
      const organizationId = await organizationOf(context, 'update', delivery.webhookId);
      return append(context, organizationId, (state, now) => {
        const hook = findManageableWebhook(state, context.principal, 'update', delivery.webhookId);
        const data = { webhookId: hook.id, deliveryId: delivery.id, requestedBy: actorOf(context) };
        return {
          events: [{ type: 'WebhookRedeliveryRequested', data }],
          result: { ...delivery, status: 'pending' as const, nextAttemptAt: isoTime(now) },
        };
      });
    },
  };
}
