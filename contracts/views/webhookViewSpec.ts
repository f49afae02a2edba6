import type { ProjectionSpec, ViewDoc } from '../ports/viewStore.ts';
import type { WebhookView } from '../webhooks/webhookViews.ts';

/**
 * Projection `webhooks` (changes.md §6): kept by the webhook dispatcher (projection-worker/webhooks), read by the
 * query side. `webhooks` holds the resource with its sealed secrets (never returned) and failure counter;
 * `deliveries` one record per (event, webhook) with its attempt state. `logPosition` orders a webhook's deliveries
 * (for a ping: the position of its request event; the payload's `position` is then null); `nextAttemptAt` and
 * `appendedAt` are milliseconds since the epoch.
 */
export const webhookViews = {
  name: 'webhooks',
  version: 1,
  collections: [
    {
      name: 'webhooks',
      key: ['id'],
      fields: {
        id: 'text',
        organizationId: 'text',
        projectName: 'text',
        branchNames: 'json',
        types: 'json',
        url: 'text',
        description: 'text',
        active: 'boolean',
        secretPrefix: 'text',
        sealedSecret: 'text',
        previousSealedSecret: 'text',
        previousSecretExpiresAt: 'text',
        createdAt: 'text',
        createdBy: 'text',
        consecutiveFailures: 'integer',
        disabledAt: 'text',
        disabledReason: 'text',
        deleted: 'boolean',
      },
      indexes: [{ fields: ['organizationId'] }],
    },
    {
      name: 'deliveries',
      key: ['id'],
      fields: {
        id: 'text',
        webhookId: 'text',
        type: 'text',
        position: 'text',
        logPosition: 'text',
        payload: 'json',
        status: 'text',
        attempts: 'json',
        retries: 'integer',
        redelivery: 'boolean',
        nextAttemptAt: 'integer',
        createdAt: 'text',
        appendedAt: 'integer',
        succeededOnce: 'boolean',
      },
      indexes: [{ fields: ['webhookId', 'logPosition'] }, { fields: ['status', 'nextAttemptAt'] }],
    },
  ],
} as const satisfies ProjectionSpec;

/** A `webhooks` document as the API's WebhookView (the sealed secrets stay behind). */
export function webhookViewOfDoc(doc: ViewDoc): WebhookView {
  return {
    id: doc.id as string,
    organizationId: doc.organizationId as string,
    projectName: (doc.projectName as string | null) ?? null,
    branchNames: (doc.branchNames as string[] | null) ?? null,
    types: doc.types as string[],
    url: doc.url as string,
    description: (doc.description as string | null) ?? null,
    active: doc.active === true,
    secretPrefix: doc.secretPrefix as string,
    createdAt: doc.createdAt as string,
    createdBy: doc.createdBy as string,
    consecutiveFailures: (doc.consecutiveFailures as number | null) ?? 0,
    disabledAt: (doc.disabledAt as string | null) ?? null,
    disabledReason: (doc.disabledReason as string | null) ?? null,
  };
}
