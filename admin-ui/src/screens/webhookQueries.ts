import type { ApiClient } from '../api/client.ts';
import {
  CreateWebhookDocument,
  DeleteWebhookDocument,
  PingWebhookDocument,
  RedeliverWebhookDocument,
  RotateWebhookSecretDocument,
  UpdateWebhookDocument,
  WebhookDeliveriesDocument,
  WebhookDocument,
  WebhooksDocument,
} from '../api/generated/operations.ts';
import type { Connection } from '../api/types.ts';

/** A webhook as the system API answers it (changes.md §6.1); the secret itself is never readable. */
export type Webhook = {
  id: string;
  organizationId: string;
  projectName: string | null;
  branchNames: string[] | null;
  types: string[];
  url: string;
  description: string | null;
  active: boolean;
  secretPrefix: string;
  createdAt: string;
  consecutiveFailures: number;
  disabledAt: string | null;
  disabledReason: string | null;
};
export type WebhookWithSecret = { secret: string; webhook: Webhook };
export type WebhookAttempt = { at: string; responseStatus: number | null; durationMs: number; error: string | null };
export type WebhookDelivery = {
  id: string;
  type: string;
  position: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: WebhookAttempt[];
  nextAttemptAt: string | null;
  createdAt: string;
};

/** Settings of create and edit; null filters mean "every project" / "every branch". */
export type WebhookSettings = {
  url: string;
  types: string[];
  projectName: string | null;
  branchNames: string[] | null;
  description: string | null;
};

/** The event types of changes.md §6.3 a webhook may subscribe to: a copy of contracts/webhooks/changeEvents.ts (the UI imports nothing outside admin-ui), kept equal by tests/architecture/uiCopies.unit.test.ts. */
export const WEBHOOK_EVENT_TYPES = [
  'revision.committed',
  'draft.reverted',
  'rows.changed',
  'table.changed',
  'branch.merged',
  'branch.created',
  'branch.deleted',
  'webhook.ping',
] as const;

export async function listWebhooks(api: ApiClient, organizationId: string): Promise<Webhook[]> {
  return (await api.request(WebhooksDocument, { organizationId })).webhooks;
}

export async function getWebhook(api: ApiClient, id: string): Promise<Webhook> {
  return (await api.request(WebhookDocument, { id })).webhook;
}

export async function createWebhook(api: ApiClient, organizationId: string, settings: WebhookSettings): Promise<WebhookWithSecret> {
  return (await api.request(CreateWebhookDocument, { data: { organizationId, ...settings } })).createWebhook;
}

export async function updateWebhook(api: ApiClient, id: string, data: Partial<WebhookSettings> & { active?: boolean }): Promise<Webhook> {
  return (await api.request(UpdateWebhookDocument, { id, data })).updateWebhook;
}

export async function rotateWebhookSecret(api: ApiClient, id: string): Promise<WebhookWithSecret> {
  return (await api.request(RotateWebhookSecretDocument, { id })).rotateWebhookSecret;
}

export async function deleteWebhook(api: ApiClient, id: string): Promise<void> {
  await api.request(DeleteWebhookDocument, { id });
}

export async function pingWebhook(api: ApiClient, id: string): Promise<WebhookDelivery> {
  return (await api.request(PingWebhookDocument, { id })).pingWebhook;
}

export async function listDeliveries(
  api: ApiClient,
  webhookId: string,
  first: number,
  after: string | undefined,
): Promise<Connection<WebhookDelivery>> {
  return (await api.request(WebhookDeliveriesDocument, { id: webhookId, first, after: after ?? null })).webhookDeliveries;
}

export async function redeliver(api: ApiClient, deliveryId: string): Promise<WebhookDelivery> {
  return (await api.request(RedeliverWebhookDocument, { id: deliveryId })).redeliverWebhook;
}
