import { streamCategories } from '../../contracts/index.ts';
import type { EventStore, RecordedEvent, WebhookEvent } from '../../contracts/index.ts';
import { formatAuditJsonLines, formatAuditTable, readAuditEntries } from './auditLog.ts';

/** One line of `strata audit webhooks` (operations.md §5). Never holds a secret, sealed or not. */
export type WebhookAuditEntry = {
  readonly time: string;
  readonly event: 'created' | 'updated' | 'rotated' | 'deleted' | 'disabled' | 'pinged' | 'redelivered';
  readonly webhookId: string;
  readonly secretPrefix: string | null;
  readonly organizationId: string | null;
  /** User or service key that acted; `system` for an automatic disable. */
  readonly actorId: string;
  readonly details: Readonly<Record<string, unknown>>;
};

/** All optional; times in ms, both bounds inclusive. */
export type WebhookAuditFilter = {
  readonly webhookId?: string;
  readonly organizationId?: string;
  readonly userId?: string;
  readonly sinceMs?: number;
  readonly untilMs?: number;
};

type Facts = { prefix: string; organizationId: string };

function toEntry(recorded: RecordedEvent, hooks: Map<string, Facts>): WebhookAuditEntry | null {
  const event = { type: recorded.type, data: recorded.data } as WebhookEvent;
  const base = (webhookId: string) => {
    const facts = hooks.get(webhookId);
    return { time: recorded.metadata.time, webhookId, secretPrefix: facts?.prefix ?? null, organizationId: facts?.organizationId ?? null };
  };
  switch (event.type) {
    case 'WebhookCreated': {
      const { webhookId, organizationId, secretPrefix, sealedSecret: _sealed, createdBy, ...settings } = event.data;
      hooks.set(webhookId, { prefix: secretPrefix, organizationId });
      return { ...base(webhookId), event: 'created', actorId: createdBy, details: settings };
    }
    case 'WebhookUpdated': {
      const { webhookId, updatedBy, ...settings } = event.data;
      return { ...base(webhookId), event: 'updated', actorId: updatedBy, details: settings };
    }
    case 'WebhookSecretRotated': {
      const d = event.data;
      const facts = hooks.get(d.webhookId);
      const previousPrefix = facts?.prefix ?? null;
      if (facts) facts.prefix = d.secretPrefix;
      return {
        ...base(d.webhookId),
        event: 'rotated',
        actorId: d.rotatedBy,
        details: { previousPrefix, previousSecretExpiresAt: d.previousSecretExpiresAt },
      };
    }
    case 'WebhookDeleted':
      return { ...base(event.data.webhookId), event: 'deleted', actorId: event.data.deletedBy, details: {} };
    case 'WebhookDisabled': {
      const { webhookId, reason, consecutiveFailures } = event.data;
      return { ...base(webhookId), event: 'disabled', actorId: 'system', details: { reason, consecutiveFailures } };
    }
    case 'WebhookPingRequested':
      return { ...base(event.data.webhookId), event: 'pinged', actorId: recorded.metadata.principal, details: { deliveryId: event.data.deliveryId } };
    case 'WebhookRedeliveryRequested': {
      const { webhookId, deliveryId, requestedBy } = event.data;
      return { ...base(webhookId), event: 'redelivered', actorId: requestedBy, details: { deliveryId } };
    }
    default:
      return null;
  }
}

function matches(entry: WebhookAuditEntry, filter: WebhookAuditFilter): boolean {
  if (filter.webhookId !== undefined && entry.webhookId !== filter.webhookId) return false;
  if (filter.organizationId !== undefined && entry.organizationId !== filter.organizationId) return false;
  if (filter.userId !== undefined && entry.actorId !== filter.userId) return false;
  const ms = Date.parse(entry.time);
  if (filter.sinceMs !== undefined && ms < filter.sinceMs) return false;
  if (filter.untilMs !== undefined && ms > filter.untilMs) return false;
  return true;
}

/** Webhook events read from the event log itself (not views), in log order, filtered. */
export async function readWebhookAudit(eventStore: EventStore, filter: WebhookAuditFilter = {}): Promise<WebhookAuditEntry[]> {
  const hooks = new Map<string, Facts>();
  return readAuditEntries(eventStore, [streamCategories.webhook], (recorded) => {
    const entry = toEntry(recorded, hooks);
    return entry && matches(entry, filter) ? entry : null;
  });
}

/** `--json`: one object per line. */
export function formatWebhookAuditJsonLines(entries: readonly WebhookAuditEntry[]): string {
  return formatAuditJsonLines(entries);
}

const HEADERS = ['TIME', 'EVENT', 'WEBHOOK ID', 'PREFIX', 'ORGANIZATION', 'ACTOR', 'DETAILS'] as const;

function detailsText(details: Readonly<Record<string, unknown>>): string {
  return Object.entries(details)
    .filter(([, value]) => value !== null)
    .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join(',') : typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
}

/** The default table: one header line, columns padded to their widest value. */
export function formatWebhookAuditTable(entries: readonly WebhookAuditEntry[]): string {
  const rows = entries.map((e) => [e.time, e.event, e.webhookId, e.secretPrefix ?? '-', e.organizationId ?? '-', e.actorId, detailsText(e.details)]);
  return formatAuditTable(HEADERS, rows);
}
