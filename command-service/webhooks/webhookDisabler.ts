import { organizationWebhooksStreamId } from '../../contracts/index.ts';
import type { Clock, EventStore, SystemStateSource } from '../../contracts/index.ts';
import type { Logger } from 'pino';
import { appendWithRetry } from '../commandHandler.ts';
import { webhookEventEnvelope } from './webhookHandlers.ts';

/**
 * The automatic disable of changes.md §6.2, for the dispatcher: appends WebhookDisabled (as `system`) unless the
 * webhook is already inactive or gone, and writes the audit line. Resolves true when it disabled the webhook.
 */
export function createWebhookDisabler(deps: {
  readonly eventStore: EventStore;
  readonly systemState: SystemStateSource;
  readonly clock: Clock;
  readonly log: Logger;
}): (webhookId: string, reason: string, consecutiveFailures: number) => Promise<boolean> {
  const { systemState, clock, log } = deps;
  return async (webhookId, reason, consecutiveFailures) => {
    const outcome = await appendWithRetry(deps, async () => {
      const state = await systemState.current();
      const hook = state.webhooks.get(webhookId);
      const streamId = organizationWebhooksStreamId(hook?.organizationId ?? '');
      const events =
        hook === undefined || hook.deleted || !hook.active
          ? []
          : webhookEventEnvelope(
              [{ type: 'WebhookDisabled', data: { webhookId, reason, consecutiveFailures } }],
              'system',
              `webhook-${webhookId}`,
              clock.now(),
            );
      return { streamId, expected: state.streamRevisions.get(streamId) ?? 'no_stream', events, result: hook, seenPosition: state.position };
    });
    if (outcome.appended === null || outcome.result === undefined) return false;
    const { organizationId, url, secretPrefix } = outcome.result;
    log.warn(
      { audit: true, event: 'webhook.disabled', webhookId, organizationId, url, secretPrefix, reason, consecutiveFailures, actor: 'system' },
      'webhook disabled',
    );
    return true;
  };
}
