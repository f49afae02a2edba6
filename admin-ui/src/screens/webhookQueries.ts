import { PAGE_INFO } from '../api/fragments.ts';
import type { ApiClient } from '../api/client.ts';
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

/** The event types of changes.md §6.3 a webhook may subscribe to: a copy of contracts/webhooks/changeEvents.ts (the UI imports nothing outside admin-ui), kept equal by tests/architecture/uiCopies.test.ts. */
export const WEBHOOK_EVENT_TYPES = [
  'revision.committed',
  'draft.reverted',
  'rows.changed',
  'table.changed',
  'branch.created',
  'branch.deleted',
  'webhook.ping',
] as const;

const WEBHOOK_FIELDS = `id organizationId projectName branchNames types url description active secretPrefix createdAt
  consecutiveFailures disabledAt disabledReason`;
const DELIVERY_FIELDS = 'id type position status attempts { at responseStatus durationMs error } nextAttemptAt createdAt';

export async function listWebhooks(api: ApiClient, organizationId: string): Promise<Webhook[]> {
  const query = `query Webhooks($org: String!) { webhooks(organizationId: $org) { ${WEBHOOK_FIELDS} } }`;
  return (await api.graphql<{ webhooks: Webhook[] }>(query, { org: organizationId })).webhooks;
}

export async function getWebhook(api: ApiClient, id: string): Promise<Webhook> {
  const query = `query Webhook($id: ID!) { webhook(id: $id) { ${WEBHOOK_FIELDS} } }`;
  return (await api.graphql<{ webhook: Webhook }>(query, { id })).webhook;
}

export async function createWebhook(api: ApiClient, organizationId: string, settings: WebhookSettings): Promise<WebhookWithSecret> {
  const query = `mutation CreateWebhook($data: CreateWebhookInput!) { createWebhook(data: $data) { secret webhook { ${WEBHOOK_FIELDS} } } }`;
  return (await api.graphql<{ createWebhook: WebhookWithSecret }>(query, { data: { organizationId, ...settings } })).createWebhook;
}

export async function updateWebhook(api: ApiClient, id: string, data: Partial<WebhookSettings> & { active?: boolean }): Promise<Webhook> {
  const query = `mutation UpdateWebhook($id: ID!, $data: UpdateWebhookInput) { updateWebhook(id: $id, data: $data) { ${WEBHOOK_FIELDS} } }`;
  return (await api.graphql<{ updateWebhook: Webhook }>(query, { id, data })).updateWebhook;
}

export async function rotateWebhookSecret(api: ApiClient, id: string): Promise<WebhookWithSecret> {
  const query = `mutation RotateWebhookSecret($id: ID!) { rotateWebhookSecret(id: $id) { secret webhook { ${WEBHOOK_FIELDS} } } }`;
  return (await api.graphql<{ rotateWebhookSecret: WebhookWithSecret }>(query, { id })).rotateWebhookSecret;
}

export async function deleteWebhook(api: ApiClient, id: string): Promise<void> {
  await api.graphql<{ deleteWebhook: boolean }>(`mutation DeleteWebhook($id: ID!) { deleteWebhook(id: $id) }`, { id });
}

export async function pingWebhook(api: ApiClient, id: string): Promise<WebhookDelivery> {
  const query = `mutation PingWebhook($id: ID!) { pingWebhook(id: $id) { ${DELIVERY_FIELDS} } }`;
  return (await api.graphql<{ pingWebhook: WebhookDelivery }>(query, { id })).pingWebhook;
}

export async function listDeliveries(api: ApiClient, webhookId: string, first: number, after: string | undefined): Promise<Connection<WebhookDelivery>> {
  const query = `query WebhookDeliveries($id: ID!, $first: Int, $after: String) {
    webhookDeliveries(webhookId: $id, first: $first, after: $after) { ${PAGE_INFO} edges { cursor node { ${DELIVERY_FIELDS} } } }
  }`;
  return (await api.graphql<{ webhookDeliveries: Connection<WebhookDelivery> }>(query, { id: webhookId, first, after: after ?? null })).webhookDeliveries;
}

export async function redeliver(api: ApiClient, deliveryId: string): Promise<WebhookDelivery> {
  const query = `mutation RedeliverWebhook($id: ID!) { redeliverWebhook(deliveryId: $id) { ${DELIVERY_FIELDS} } }`;
  return (await api.graphql<{ redeliverWebhook: WebhookDelivery }>(query, { id: deliveryId })).redeliverWebhook;
}
