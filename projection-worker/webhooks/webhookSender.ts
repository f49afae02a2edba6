import type { Logger } from 'pino';
import { MAX_KEPT_ATTEMPTS, fieldsEqual, isoTime, webhookViews } from '../../contracts/index.ts';
import type { Clock, ViewChange, ViewDoc, ViewStore, WebhookAttemptView } from '../../contracts/index.ts';
import { sendWebhookRequest, type AttemptResult } from './webhookRequest.ts';

/** WEBHOOK_* settings (changes.md §7). */
export type WebhookDeliveryConfig = {
  readonly timeoutMs: number;
  readonly retryScheduleMs: readonly number[];
  readonly disableAfterFailures: number;
  readonly allowPrivateAddresses: boolean;
  readonly concurrency: number;
};

export type WebhookSenderDeps = {
  readonly viewStore: ViewStore;
  readonly clock: Clock;
  readonly log: Logger;
  readonly config: WebhookDeliveryConfig;
  /** Opens a sealed signing secret (the server secret's box). */
  readonly openSecret: (sealed: string) => string;
  /** Appends WebhookDisabled (the write side's disabler). */
  readonly disable: (webhookId: string, reason: string, consecutiveFailures: number) => Promise<boolean>;
  /** Only the dispatcher's lease holder sends, so two processes never send the same attempt. */
  readonly isLeader: () => boolean;
  readonly onAttempt?: (outcome: 'succeeded' | 'failed') => void;
  /** Seconds from the event's append to its first successful attempt. */
  readonly onDeliveryLag?: (seconds: number) => void;
};

const NAME = webhookViews.name;
const POLL_MS = 1000;
const DUE_PAGE = 500;
const PRUNE_EVERY_MS = 60_000;
/** Deliveries are kept 30 days (changes.md §6.2). */
export const DELIVERY_RETENTION_MS = 30 * 24 * 3600 * 1000;

/**
 * Sends pending deliveries (changes.md §6.2). Attempt state lives in the view store, so retries survive restarts and
 * failover; the next attempt is due at `nextAttemptAt` (the retry schedule). At most `concurrency` attempts run at
 * once and at most one per webhook, so a slow receiver holds one slot and never delays another webhook; a webhook's
 * due deliveries go in log order, and one waiting for a retry does not hold back later ones.
 */
export function createWebhookSender(deps: WebhookSenderDeps) {
  const { viewStore, clock, config } = deps;
  const log = deps.log.child({ component: 'webhookSender' });
  const inFlight = new Set<string>();
  const running = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let pumping: Promise<void> | null = null;
  let again = false;
  let stopped = true;
  let nextPruneAt = 0;

  /** Writes attempt state at the current checkpoint (expected = next): it fails only while the dispatcher moves it. */
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

  function secretsOf(hook: ViewDoc, nowMs: number): string[] {
    const secrets = [deps.openSecret(hook.sealedSecret as string)];
    const previous = hook.previousSealedSecret as string | null;
    const until = hook.previousSecretExpiresAt as string | null;
    if (previous !== null && until !== null && Date.parse(until) > nowMs) secrets.push(deps.openSecret(previous));
    return secrets;
  }

  async function attempt(delivery: ViewDoc): Promise<void> {
    const id = delivery.id as string;
    const webhookId = delivery.webhookId as string;
    const hook = await viewStore.get(NAME, 'webhooks', { id: webhookId });
    const now = clock.now();
    let result: AttemptResult;
    if (hook === null || hook.deleted === true) return;
    try {
      const body = JSON.stringify(delivery.payload);
      const request = { url: hook.url as string, messageId: id, body, secrets: secretsOf(hook, now) };
      result = await sendWebhookRequest(request, { timeoutMs: config.timeoutMs, allowPrivate: config.allowPrivateAddresses, nowMs: now });
    } catch (err) {
      result = { ok: false, status: null, durationMs: 0, error: err instanceof Error ? err.message : String(err) };
    }
    deps.onAttempt?.(result.ok ? 'succeeded' : 'failed');
    const entry: WebhookAttemptView = { at: isoTime(now), responseStatus: result.status, durationMs: result.durationMs, error: result.error };
    const attempts = [...((delivery.attempts as WebhookAttemptView[] | null) ?? []), entry].slice(-MAX_KEPT_ATTEMPTS);
    const retries = (delivery.retries as number | null) ?? 0;
    const byId = fieldsEqual({ id });
    const hookFilter = fieldsEqual({ id: webhookId });
    if (result.ok) {
      if (delivery.succeededOnce !== true) deps.onDeliveryLag?.(Math.max(0, clock.now() - (delivery.appendedAt as number)) / 1000);
      await write([
        { op: 'update', collection: 'deliveries', filter: byId, set: { status: 'succeeded', attempts, nextAttemptAt: null, redelivery: false, succeededOnce: true } },
        { op: 'update', collection: 'webhooks', filter: hookFilter, set: { consecutiveFailures: 0 } },
      ]);
      return;
    }
    const delay = delivery.redelivery === true ? undefined : config.retryScheduleMs[retries];
    if (delay !== undefined) {
      const set = { attempts, retries: retries + 1, nextAttemptAt: clock.now() + delay };
      await write([{ op: 'update', collection: 'deliveries', filter: byId, set }]);
      log.debug({ deliveryId: id, webhookId, error: result.error, retryInMs: delay }, 'webhook attempt failed');
      return;
    }
    // The delivery failed for good: count it against the webhook.
    const failures = ((hook.consecutiveFailures as number | null) ?? 0) + (delivery.redelivery === true ? 0 : 1);
    await write([
      { op: 'update', collection: 'deliveries', filter: byId, set: { status: 'failed', attempts, nextAttemptAt: null, redelivery: false } },
      { op: 'update', collection: 'webhooks', filter: hookFilter, set: { consecutiveFailures: failures } },
    ]);
    log.info({ deliveryId: id, webhookId, error: result.error, consecutiveFailures: failures }, 'webhook delivery failed');
    if (hook.active === true && failures >= config.disableAfterFailures) {
      await deps.disable(webhookId, `${failures} consecutive failed deliveries`, failures);
    }
  }

  /** Drops settled deliveries created before the retention window; a pending one is kept until it settles. */
  async function prune(now: number): Promise<void> {
    const filter = {
      kind: 'and' as const,
      filters: [
        { kind: 'compare' as const, ref: { field: 'appendedAt' }, op: 'lt' as const, value: now - DELIVERY_RETENTION_MS },
        { kind: 'compare' as const, ref: { field: 'status' }, op: 'ne' as const, value: 'pending' },
      ],
    };
    await write([{ op: 'delete', collection: 'deliveries', filter }]);
  }

  function launch(delivery: ViewDoc): void {
    const webhookId = delivery.webhookId as string;
    inFlight.add(webhookId);
    const task = attempt(delivery)
      .catch((err: unknown) => log.error({ err, deliveryId: delivery.id, webhookId }, 'webhook attempt could not be recorded'))
      .finally(() => {
        inFlight.delete(webhookId);
        running.delete(task);
        wake();
      });
    running.add(task);
  }

  async function pump(): Promise<void> {
    if (stopped) return;
    // A stand-by keeps looking: once it takes the lease over it must send what is pending even if no event follows.
    if (!deps.isLeader() || (await viewStore.activeVersion(NAME)) === null) {
      schedule(POLL_MS);
      return;
    }
    const now = clock.now();
    if (now >= nextPruneAt) {
      nextPruneAt = now + PRUNE_EVERY_MS;
      await prune(now);
    }
    const due = await viewStore.find(NAME, 'deliveries', {
      filter: {
        kind: 'and',
        filters: [fieldsEqual({ status: 'pending' }), { kind: 'compare', ref: { field: 'nextAttemptAt' }, op: 'lte', value: now }],
      },
      orderBy: [{ ref: { field: 'logPosition' }, direction: 'asc' }],
      limit: DUE_PAGE,
    });
    for (const delivery of due) {
      if (running.size >= config.concurrency) break;
      if (!inFlight.has(delivery.webhookId as string)) launch(delivery);
    }
    const [next] = await viewStore.find(NAME, 'deliveries', {
      filter: { kind: 'and', filters: [fieldsEqual({ status: 'pending' }), { kind: 'compare', ref: { field: 'nextAttemptAt' }, op: 'gt', value: now }] },
      orderBy: [{ ref: { field: 'nextAttemptAt' }, direction: 'asc' }],
      limit: 1,
    });
    schedule(next === undefined ? POLL_MS : Math.min(POLL_MS, (next.nextAttemptAt as number) - now));
  }

  function schedule(ms: number): void {
    if (stopped) return;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => wake(), Math.max(1, ms));
  }

  /** Looks for due deliveries now (after a dispatcher batch, a finished attempt, or the timer). */
  function wake(): void {
    if (stopped) return;
    if (pumping !== null) {
      again = true;
      return;
    }
    pumping = pump()
      .catch((err: unknown) => {
        log.warn({ err }, 'webhook delivery scan failed');
        schedule(POLL_MS);
      })
      .finally(() => {
        pumping = null;
        if (again) {
          again = false;
          wake();
        }
      });
  }

  return {
    wake,
    start(): void {
      stopped = false;
      wake();
    },
    /** Stops scanning and waits for attempts in flight (their outcome is recorded). */
    async stop(): Promise<void> {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      await pumping;
      await Promise.all([...running]);
    },
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
