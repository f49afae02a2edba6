import type { Logger } from 'pino';
import { MAX_KEPT_ATTEMPTS, fieldsEqual, isoTime, webhookViews } from '../../contracts/index.ts';
import type { Clock, ViewChange, ViewDoc, ViewStore, WebhookAttemptView } from '../../contracts/index.ts';
import type { AttemptResult } from './webhookRequest.ts';

const NAME = webhookViews.name;

export type AttemptOutcome = {
  /** The delivery as read just before the attempt. */
  readonly delivery: ViewDoc;
  readonly result: AttemptResult;
  /** When the attempt started (ms). */
  readonly at: number;
};

export type AttemptRecorderDeps = {
  readonly viewStore: ViewStore;
  readonly clock: Clock;
  readonly log: Logger;
  readonly retryScheduleMs: readonly number[];
  readonly disableAfterFailures: number;
  /** Appends WebhookDisabled (the write side's disabler). */
  readonly disable: (webhookId: string, reason: string, consecutiveFailures: number) => Promise<boolean>;
};

type Waiting = { readonly outcome: AttemptOutcome; readonly resolve: () => void; readonly reject: (err: unknown) => void };
type HookCount = { failures: number; readonly active: boolean; touched: boolean; failedNow: boolean };

/**
 * Records attempt outcomes in the view store (changes.md §6.2): the delivery's attempts, status and next due time,
 * and the webhook's consecutive failed deliveries (which disable it at the limit). Outcomes that arrive while a
 * write is running go together in the next write, one transaction for many attempts; writes run one at a time and
 * in arrival order, so the failure count of a webhook is exact.
 */
export function createAttemptRecorder(deps: AttemptRecorderDeps) {
  const { viewStore, clock, log } = deps;
  const waiting: Waiting[] = [];
  let flushing = false;

  /** Writes at the current checkpoint (expected = next): it fails only while the dispatcher moves it. */
  async function write(changes: readonly ViewChange[]): Promise<void> {
    for (let i = 0; i < 100; i++) {
      const version = (await viewStore.activeVersion(NAME)) ?? webhookViews.version;
      const ref = { name: NAME, version };
      const checkpoint = await viewStore.checkpoint(ref);
      if (checkpoint === null) throw new Error('webhooks projection has no checkpoint yet');
      if (await viewStore.applyBatch(ref, checkpoint, checkpoint, changes)) return;
    }
    throw new Error('webhooks checkpoint keeps moving');
  }

  async function countsOf(outcomes: readonly AttemptOutcome[]): Promise<Map<string, HookCount>> {
    const counts = new Map<string, HookCount>();
    for (const { delivery } of outcomes) {
      const webhookId = delivery.webhookId as string;
      if (counts.has(webhookId)) continue;
      const hook = await viewStore.get(NAME, 'webhooks', { id: webhookId });
      counts.set(webhookId, {
        failures: (hook?.consecutiveFailures as number | null) ?? 0,
        active: hook?.active === true,
        touched: false,
        failedNow: false,
      });
    }
    return counts;
  }

  /** One write for the outcomes; returns the webhooks that reached the failure limit. */
  async function writeOutcomes(outcomes: readonly AttemptOutcome[]): Promise<[string, HookCount][]> {
    const counts = await countsOf(outcomes);
    const changes: ViewChange[] = [];
    for (const { delivery, result, at } of outcomes) {
      const id = delivery.id as string;
      const webhookId = delivery.webhookId as string;
      const count = counts.get(webhookId) as HookCount;
      const entry: WebhookAttemptView = { at: isoTime(at), responseStatus: result.status, durationMs: result.durationMs, error: result.error };
      const attempts = [...((delivery.attempts as WebhookAttemptView[] | null) ?? []), entry].slice(-MAX_KEPT_ATTEMPTS);
      const retries = (delivery.retries as number | null) ?? 0;
      const byId = fieldsEqual({ id });
      if (result.ok) {
        changes.push({
          op: 'update',
          collection: 'deliveries',
          filter: byId,
          set: { status: 'succeeded', attempts, nextAttemptAt: null, redelivery: false, succeededOnce: true },
        });
        Object.assign(count, { failures: 0, touched: true });
        continue;
      }
      const delay = delivery.redelivery === true ? undefined : deps.retryScheduleMs[retries];
      if (delay !== undefined) {
        changes.push({
          op: 'update',
          collection: 'deliveries',
          filter: byId,
          set: { attempts, retries: retries + 1, nextAttemptAt: clock.now() + delay },
        });
        log.debug({ deliveryId: id, webhookId, error: result.error, retryInMs: delay }, 'webhook attempt failed');
        continue;
      }
      // The delivery failed for good: count it against the webhook.
      Object.assign(count, { failures: count.failures + (delivery.redelivery === true ? 0 : 1), touched: true, failedNow: true });
      changes.push({
        op: 'update',
        collection: 'deliveries',
        filter: byId,
        set: { status: 'failed', attempts, nextAttemptAt: null, redelivery: false },
      });
      log.info({ deliveryId: id, webhookId, error: result.error, consecutiveFailures: count.failures }, 'webhook delivery failed');
    }
    for (const [webhookId, count] of counts) {
      if (count.touched)
        changes.push({ op: 'update', collection: 'webhooks', filter: fieldsEqual({ id: webhookId }), set: { consecutiveFailures: count.failures } });
    }
    await write(changes);
    return [...counts].filter(([, count]) => count.failedNow && count.active && count.failures >= deps.disableAfterFailures);
  }

  async function flush(): Promise<void> {
    flushing = true;
    while (waiting.length > 0) {
      const batch = waiting.splice(0);
      try {
        const limitReached = await writeOutcomes(batch.map((w) => w.outcome));
        for (const w of batch) w.resolve();
        for (const [webhookId, { failures }] of limitReached) {
          await deps
            .disable(webhookId, `${failures} consecutive failed deliveries`, failures)
            .catch((err: unknown) => log.error({ err, webhookId }, 'webhook could not be disabled'));
        }
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    flushing = false;
  }

  return {
    write,
    /** Resolves once the outcome is in the view store. */
    record(outcome: AttemptOutcome): Promise<void> {
      const recorded = new Promise<void>((resolve, reject) => waiting.push({ outcome, resolve, reject }));
      if (!flushing) void flush();
      return recorded;
    },
  };
}
