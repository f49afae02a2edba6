/**
 * Events of webhooks (changes.md §6.1), one stream per organization: `webhook-org-{organizationId}`. The limit of
 * webhooks per organization is a decision about that stream, so a create appends with its expected revision.
 * Secrets never appear in clear: `sealedSecret` is the signing secret encrypted with a key derived from the server
 * secret (command-service/webhooks/webhookSecrets.ts), so the dispatcher can sign and no API can return it.
 */

/** Which events a webhook receives and where it sends them. `null` filters mean "all". */
export type WebhookSettings = {
  readonly url: string;
  readonly types: readonly string[];
  readonly projectName: string | null;
  readonly branchNames: readonly string[] | null;
  readonly description: string | null;
};

export type WebhookCreated = WebhookSettings & {
  readonly webhookId: string;
  readonly organizationId: string;
  /** `whsec_` + the first 4 characters of the secret's base64 part. */
  readonly secretPrefix: string;
  readonly sealedSecret: string;
  readonly createdBy: string;
};

/** New settings (all of them) and `active`; re-enabling resets the failure counter. */
export type WebhookUpdated = WebhookSettings & {
  readonly webhookId: string;
  readonly active: boolean;
  readonly updatedBy: string;
};

/** The previous secret keeps signing (a second signature) until `previousSecretExpiresAt` (24 h). */
export type WebhookSecretRotated = {
  readonly webhookId: string;
  readonly secretPrefix: string;
  readonly sealedSecret: string;
  readonly previousSealedSecret: string;
  readonly previousSecretExpiresAt: string;
  readonly rotatedBy: string;
};

export type WebhookDeleted = { readonly webhookId: string; readonly deletedBy: string };

/** Written by the dispatcher after WEBHOOK_DISABLE_AFTER_FAILURES consecutive failed deliveries. */
export type WebhookDisabled = { readonly webhookId: string; readonly reason: string; readonly consecutiveFailures: number };

/** `pingWebhook`: the dispatcher turns it into a `webhook.ping` delivery with id `deliveryId`. */
export type WebhookPingRequested = { readonly webhookId: string; readonly deliveryId: string };

/** `redeliverWebhook`: the dispatcher queues a new attempt of the delivery at once. */
export type WebhookRedeliveryRequested = { readonly webhookId: string; readonly deliveryId: string; readonly requestedBy: string };

export type WebhookEventMap = {
  WebhookCreated: WebhookCreated;
  WebhookUpdated: WebhookUpdated;
  WebhookSecretRotated: WebhookSecretRotated;
  WebhookDeleted: WebhookDeleted;
  WebhookDisabled: WebhookDisabled;
  WebhookPingRequested: WebhookPingRequested;
  WebhookRedeliveryRequested: WebhookRedeliveryRequested;
};

export type WebhookEventType = keyof WebhookEventMap;

export type WebhookEvent = { [K in WebhookEventType]: { readonly type: K; readonly data: WebhookEventMap[K] } }[WebhookEventType];

export const webhookEventTypes: readonly WebhookEventType[] = [
  'WebhookCreated',
  'WebhookUpdated',
  'WebhookSecretRotated',
  'WebhookDeleted',
  'WebhookDisabled',
  'WebhookPingRequested',
  'WebhookRedeliveryRequested',
];

/** Stream of an organization's webhooks. */
export const organizationWebhooksStreamId = (organizationId: string): string => `webhook-org-${organizationId}`;
