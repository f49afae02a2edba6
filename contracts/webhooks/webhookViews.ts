/** The Webhook resource of changes.md §6.1 as the APIs return it (never its secret). */
export type WebhookView = {
  readonly id: string;
  readonly organizationId: string;
  readonly projectName: string | null;
  readonly branchNames: readonly string[] | null;
  readonly types: readonly string[];
  readonly url: string;
  readonly description: string | null;
  readonly active: boolean;
  readonly secretPrefix: string;
  readonly createdAt: string;
  readonly createdBy: string;
  readonly consecutiveFailures: number;
  readonly disabledAt: string | null;
  readonly disabledReason: string | null;
};

/** Answer of create and rotate-secret: the only time the secret is shown. */
export type WebhookWithSecretView = { readonly secret: string; readonly webhook: WebhookView };

export type WebhookAttemptView = {
  readonly at: string;
  readonly responseStatus: number | null;
  readonly durationMs: number;
  readonly error: string | null;
};

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

export type WebhookDeliveryView = {
  readonly id: string;
  readonly webhookId: string;
  readonly type: string;
  readonly position: string | null;
  readonly status: WebhookDeliveryStatus;
  /** The last 20 attempts, oldest first. */
  readonly attempts: readonly WebhookAttemptView[];
  readonly nextAttemptAt: string | null;
  readonly createdAt: string;
};

/** Webhooks per organization (changes.md §6.1). */
export const MAX_WEBHOOKS_PER_ORGANIZATION = 50;
/** Attempts kept per delivery. */
export const MAX_KEPT_ATTEMPTS = 20;
/** How long the previous secret keeps signing after a rotation. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** Delivery ids name their webhook (`{webhookId}.{suffix}`), so a route naming a delivery finds its webhook. */
export function deliveryIdOf(webhookId: string, suffix: string): string {
  return `${webhookId}.${suffix}`;
}

export function webhookIdOfDelivery(deliveryId: string): string | null {
  const dot = deliveryId.lastIndexOf('.');
  return dot <= 0 ? null : deliveryId.slice(0, dot);
}
