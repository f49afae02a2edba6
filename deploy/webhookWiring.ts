import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Logger } from 'pino';
import type { Clock } from '../contracts/index.ts';
import { createSystemStateSource, createWebhookDisabler, createWebhookSecretBox } from '../command-service/index.ts';
import { createCheckpointWaiter, type WebhookWorkerDeps } from '../projection-worker/index.ts';
import { createChangeEventSource } from '../query-service/index.ts';
import type { StrataConfig } from './config/strataConfig.ts';
import type { Infra } from './openInfra.ts';
import { createOutboundHttp } from './http/outboundHttp.ts';

/** `strata_webhook_attempts_total{outcome}` and `strata_webhook_delivery_lag_seconds` (changes.md §7). */
function webhookMetrics(registry: Registry): Pick<WebhookWorkerDeps, 'onAttempt' | 'onDeliveryLag'> {
  const attempts = new Counter({
    name: 'strata_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const lag = new Histogram({
    name: 'strata_webhook_delivery_lag_seconds',
    help: 'Seconds from an event append to the first successful attempt of its delivery',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 36000],
    registers: [registry],
  });
  return { onAttempt: (outcome) => attempts.inc({ outcome }), onDeliveryLag: (seconds) => lag.observe(seconds) };
}

/**
 * What the projector role needs to deliver webhooks: change events described by the query side's reader (names
 * from a system state of its own, diffs from the views), the secret box of the server secret, the write side's
 * disabler, the WEBHOOK_* settings and the metrics.
 */
export function webhookWorkerDeps(ctx: {
  readonly config: StrataConfig;
  readonly infra: Infra;
  readonly clock: Clock;
  readonly log: Logger;
  readonly jwtSecret: string;
  readonly metricsRegistry: Registry | null;
}): WebhookWorkerDeps {
  const { config, infra, clock } = ctx;
  const systemState = createSystemStateSource({ eventStore: infra.eventStore });
  const secrets = createWebhookSecretBox(ctx.jwtSecret);
  return {
    changeEvents: createChangeEventSource({
      viewStore: infra.viewStore,
      systemState,
      waiter: createCheckpointWaiter({ viewStore: infra.viewStore }),
    }),
    openSecret: (sealed) => secrets.open(sealed),
    outboundHttp: createOutboundHttp(),
    disable: createWebhookDisabler({ eventStore: infra.eventStore, systemState, clock, log: ctx.log.child({ role: 'projector' }) }),
    config: {
      timeoutMs: config.webhookTimeoutMs,
      retryScheduleMs: config.webhookRetryScheduleMs,
      disableAfterFailures: config.webhookDisableAfterFailures,
      allowPrivateAddresses: config.webhookAllowPrivateAddresses,
      concurrency: config.webhookConcurrency,
    },
    ...(ctx.metricsRegistry ? webhookMetrics(ctx.metricsRegistry) : {}),
  };
}

/** `strata_event_streams_active` (changes.md §7). */
export function activeStreamsGauge(registry: Registry): (count: number) => void {
  const gauge = new Gauge({ name: 'strata_event_streams_active', help: 'Open change-feed streams', registers: [registry] });
  return (count) => gauge.set(count);
}
