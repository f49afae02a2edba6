import type { Logger } from 'pino';
import { END } from '@kurrent/kurrentdb-client';
import type { AllStreamResolvedEvent, AllStreamSubscription } from '@kurrent/kurrentdb-client';
import { comparePositions } from '../../contracts/index.ts';
import type { Position } from '../../contracts/index.ts';
import { toPosition } from './kurrentEventMapping.ts';
import type { KurrentClient } from './kurrentLogReader.ts';
import { userEventsSource } from './kurrentReadFilters.ts';
import { createHeadListeners } from './headListeners.ts';

export type KurrentAppendNotifier = {
  /** Adds a listener; the `$all` subscription runs only while at least one listener exists. */
  subscribe(listener: (head: Position) => void): () => void;
  /** Tells listeners about a head this instance has just appended (no need to wait for the subscription). */
  notify(head: Position): void;
  stop(): void;
};

/**
 * Fans out appends seen by a live `$all` subscription (from the end, system events filtered out by the server).
 * Bursts are merged into one notification per turn of the event loop. A subscription starting from the end misses
 * appends committed before the server confirmed it, so the head is read once confirmed; a dropped subscription is
 * reopened after `retryDelayMs` and catches up the same way.
 */
export function createKurrentAppendNotifier(deps: {
  client: KurrentClient;
  readHead: () => Promise<Position | null>;
  retryDelayMs: number;
  log?: Logger | undefined;
}): KurrentAppendNotifier {
  const heads = createHeadListeners(deps.log);
  const { listeners } = heads;
  const userEvents = userEventsSource();
  let subscription: AllStreamSubscription | null = null;
  let retryTimer: NodeJS.Timeout | undefined;
  let pendingHead: Position | null = null;
  let flushScheduled = false;
  let failures = 0;

  const notify = heads.announce;

  function flush(): void {
    flushScheduled = false;
    const head = pendingHead;
    pendingHead = null;
    if (head !== null) notify(head);
  }

  function onEvent(resolved: AllStreamResolvedEvent): void {
    const event = resolved.event;
    if (event === undefined || !userEvents.keep(event)) return;
    const head = toPosition(event.position);
    if (comparePositions(head, pendingHead) > 0) pendingHead = head;
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(flush);
    }
  }

  function catchUpHead(): void {
    deps.readHead().then(
      (head) => {
        failures = 0;
        if (head !== null) notify(head);
      },
      (err: unknown) => deps.log?.warn({ err }, 'event store head read failed'),
    );
  }

  function close(sub: AllStreamSubscription): void {
    sub.removeAllListeners('data');
    sub.removeAllListeners('confirmation');
    sub.removeAllListeners('error');
    sub.removeAllListeners('close');
    // Late errors of a cancelled stream must not become unhandled 'error' events.
    sub.on('error', () => {});
    sub.unsubscribe().catch((err: unknown) => deps.log?.debug({ err }, 'event store unsubscribe failed'));
  }

  function dropped(sub: AllStreamSubscription, err: unknown): void {
    if (subscription !== sub) return;
    subscription = null;
    close(sub);
    failures += 1;
    // Log the first failure of a row loudly, the retries quietly.
    if (failures === 1) deps.log?.warn({ err }, 'event store subscription dropped, reopening');
    else deps.log?.debug({ err, failures }, 'event store subscription reopen failed');
    if (listeners.size > 0 && retryTimer === undefined) {
      retryTimer = setTimeout(() => {
        retryTimer = undefined;
        if (listeners.size > 0 && subscription === null) open();
      }, deps.retryDelayMs);
      retryTimer.unref();
    }
  }

  function open(): void {
    const sub = deps.client.subscribeToAll({ fromPosition: END, filter: userEvents.filter });
    subscription = sub;
    sub.on('data', onEvent);
    sub.on('confirmation', catchUpHead);
    sub.on('error', (err: unknown) => dropped(sub, err));
    sub.on('close', () => dropped(sub, new Error('subscription closed by the server')));
  }

  function stop(): void {
    if (retryTimer !== undefined) clearTimeout(retryTimer);
    retryTimer = undefined;
    const sub = subscription;
    subscription = null;
    if (sub !== null) close(sub);
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (subscription === null && retryTimer === undefined) open();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) stop();
      };
    },
    notify,
    stop() {
      listeners.clear();
      stop();
    },
  };
}
