/**
 * Wake-up queue: only wakes projectors. A lost or duplicated wake-up never loses or duplicates data because
 * projectors always read the log after their checkpoint.
 */
export interface Queue {
  /** Which adapter serves the queue (health reports `disabled` for the in-process one). */
  readonly kind: 'in-process' | 'bullmq';
  /**
   * Requests a wake-up of `topic`. Requests made while a wake-up of that topic is still pending are merged into
   * it (deduplicated). Resolves once the request is recorded, not when it is handled.
   */
  notify(topic: string): Promise<void>;
  /**
   * Starts delivering wake-ups of `topic` to `handler` (one call at a time per topic within this subscriber).
   * A wake-up requested before subscribe may be delivered or dropped. Returns a function that stops delivery.
   */
  subscribe(topic: string, handler: () => Promise<void>): Promise<() => Promise<void>>;
  /** Checks the queue backend is reachable. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
