import type { Logger } from 'pino';
import { fieldsEqual, webhookViews } from '../../contracts/index.ts';
import type { Clock, Filter, OutboundHttp, ViewDoc, ViewStore } from '../../contracts/index.ts';
import { createAttemptRecorder } from './attemptRecorder.ts';
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
  /** The client for receivers (they may be hostile: contracts/ports/outboundHttp.ts). */
  readonly outboundHttp: OutboundHttp;
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
/** While deliveries are queued or in flight, a wake-up rescans at most this often (the queues carry the backlog). */
const BUSY_SCAN_GAP_MS = 250;
/** Pages per scan (each leaves out the webhooks already queued). */
const MAX_SCAN_ROUNDS = 8;
const PRUNE_EVERY_MS = 60_000;
/** Deliveries are kept 30 days (changes.md §6.2). */
export const DELIVERY_RETENTION_MS = 30 * 24 * 3600 * 1000;

/**
 * Sends pending deliveries (changes.md §6.2). Attempt state lives in the view store, so retries survive restarts and
 * failover; the next attempt is due at `nextAttemptAt` (the retry schedule). At most `concurrency` attempts run at
 * once and at most one per webhook, so a slow receiver holds one slot and never delays another webhook; a webhook's
 * due deliveries go in log order, and one waiting for a retry does not hold back later ones.
 *
 * A scan reads due deliveries into one queue per webhook; when an attempt ends, the webhook's next queued delivery
 * starts at once, without a new scan (a backlog costs one scan per page, not one per attempt). Each attempt re-reads
 * its delivery first, so a queued copy that went stale is skipped rather than sent twice.
 */
export function createWebhookSender(deps: WebhookSenderDeps) {
  const { viewStore, clock, config } = deps;
  const log = deps.log.child({ component: 'webhookSender' });
  const inFlight = new Set<string>(); // webhook ids with an attempt running
  const sending = new Set<string>(); // delivery ids with an attempt running
  /** Due deliveries from the last scan, per webhook in log order, not started yet. */
  const queues = new Map<string, ViewDoc[]>();
  let lastScanAt = 0;
  const running = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let pumping: Promise<void> | null = null;
  let again = false;
  let stopped = true;
  let nextPruneAt = 0;
  const recorder = createAttemptRecorder({ viewStore, clock, log, ...config, disable: deps.disable });

  function secretsOf(hook: ViewDoc, nowMs: number): string[] {
    const secrets = [deps.openSecret(hook.sealedSecret as string)];
    const previous = hook.previousSealedSecret as string | null;
    const until = hook.previousSecretExpiresAt as string | null;
    if (previous !== null && until !== null && Date.parse(until) > nowMs) secrets.push(deps.openSecret(previous));
    return secrets;
  }

  /** Sends one delivery; resolves once it has its answer, with the promise of its record (null: the queued copy was stale, nothing was sent). */
  async function attempt(queued: ViewDoc): Promise<Promise<void> | null> {
    const id = queued.id as string;
    const now = clock.now();
    const delivery = await viewStore.get(NAME, 'deliveries', { id });
    if (delivery === null || delivery.status !== 'pending' || ((delivery.nextAttemptAt as number | null) ?? 0) > now) return null;
    const hook = await viewStore.get(NAME, 'webhooks', { id: queued.webhookId as string });
    if (hook === null || hook.deleted === true) return null;
    let result: AttemptResult;
    try {
      const body = JSON.stringify(delivery.payload);
      const request = { url: hook.url as string, messageId: id, body, secrets: secretsOf(hook, now) };
      result = await sendWebhookRequest(deps.outboundHttp, request, {
        timeoutMs: config.timeoutMs,
        allowPrivate: config.allowPrivateAddresses,
        nowMs: now,
      });
    } catch (err) {
      result = { ok: false, status: null, durationMs: 0, error: err instanceof Error ? err.message : String(err) };
    }
    deps.onAttempt?.(result.ok ? 'succeeded' : 'failed');
    if (result.ok && delivery.succeededOnce !== true) deps.onDeliveryLag?.(Math.max(0, clock.now() - (delivery.appendedAt as number)) / 1000);
    return recorder.record({ delivery, result, at: now });
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
    await recorder.write([{ op: 'delete', collection: 'deliveries', filter }]);
  }

  function launch(delivery: ViewDoc): void {
    const webhookId = delivery.webhookId as string;
    const id = delivery.id as string;
    inFlight.add(webhookId);
    sending.add(id);
    let released = false;
    // The webhook's next queued delivery goes as soon as this one has its answer (its record is written meanwhile);
    // a scan is needed once the webhook's queue is empty.
    const release = (): void => {
      if (released) return;
      released = true;
      inFlight.delete(webhookId);
      startQueued();
      if (!queues.has(webhookId)) wake();
    };
    const task = attempt(delivery)
      .then(async (recorded) => {
        release();
        await recorded;
      })
      .catch((err: unknown) => log.error({ err, deliveryId: id, webhookId }, 'webhook attempt could not be recorded'))
      .finally(() => {
        sending.delete(id);
        running.delete(task);
        release();
      });
    running.add(task);
  }

  /** Starts the next queued delivery of each webhook without an attempt running, up to the concurrency. */
  function startQueued(): void {
    for (const [webhookId, queue] of queues) {
      if (stopped || !deps.isLeader()) break;
      if (!inFlight.has(webhookId) && inFlight.size < config.concurrency) {
        const next = queue.shift();
        if (next !== undefined) launch(next);
      }
      if (queue.length === 0) queues.delete(webhookId);
    }
  }

  /** Fills the queues from the due deliveries; a page full of one webhook's backlog does not hide the others. */
  async function scan(now: number): Promise<void> {
    queues.clear();
    for (let round = 0; round < MAX_SCAN_ROUNDS; round++) {
      const filters: Filter[] = [fieldsEqual({ status: 'pending' }), { kind: 'compare', ref: { field: 'nextAttemptAt' }, op: 'lte', value: now }];
      if (queues.size > 0) filters.push({ kind: 'not', filter: { kind: 'in', ref: { field: 'webhookId' }, values: [...queues.keys()] } });
      const due = await viewStore.find(NAME, 'deliveries', {
        filter: { kind: 'and', filters },
        orderBy: [{ ref: { field: 'logPosition' }, direction: 'asc' }],
        limit: DUE_PAGE,
      });
      for (const delivery of due) {
        if (sending.has(delivery.id as string)) continue;
        const queue = queues.get(delivery.webhookId as string);
        if (queue === undefined) queues.set(delivery.webhookId as string, [delivery]);
        else queue.push(delivery);
      }
      if (due.length < DUE_PAGE) return;
    }
  }

  async function pump(): Promise<void> {
    if (stopped) return;
    // A stand-by keeps looking: once it takes the lease over it must send what is pending even if no event follows.
    // Before the projection's first checkpoint (a fresh data directory) there is nothing to send or prune yet.
    const version = deps.isLeader() ? await viewStore.activeVersion(NAME) : null;
    if (version === null || (await viewStore.checkpoint({ name: NAME, version })) === null) {
      queues.clear();
      schedule(POLL_MS);
      return;
    }
    const sinceScan = performance.now() - lastScanAt;
    if ((queues.size > 0 || running.size > 0) && sinceScan < BUSY_SCAN_GAP_MS) {
      schedule(BUSY_SCAN_GAP_MS - sinceScan);
      return;
    }
    lastScanAt = performance.now();
    const now = clock.now();
    if (now >= nextPruneAt) {
      nextPruneAt = now + PRUNE_EVERY_MS;
      await prune(now);
    }
    await scan(now);
    startQueued();
    const [next] = await viewStore.find(NAME, 'deliveries', {
      filter: {
        kind: 'and',
        filters: [fieldsEqual({ status: 'pending' }), { kind: 'compare', ref: { field: 'nextAttemptAt' }, op: 'gt', value: now }],
      },
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
