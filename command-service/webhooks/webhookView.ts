import type { WebhookRecord, WebhookView } from '../../contracts/index.ts';

/** The API view of a record as the write side knows it (the failure counter lives with the dispatcher). */
export function webhookViewOf(hook: WebhookRecord, consecutiveFailures = 0): WebhookView {
  return {
    id: hook.id,
    organizationId: hook.organizationId,
    projectName: hook.projectName,
    branchNames: hook.branchNames,
    types: hook.types,
    url: hook.url,
    description: hook.description,
    active: hook.active,
    secretPrefix: hook.secretPrefix,
    createdAt: hook.createdAt,
    createdBy: hook.createdBy,
    consecutiveFailures,
    disabledAt: hook.disabledAt,
    disabledReason: hook.disabledReason,
  };
}
