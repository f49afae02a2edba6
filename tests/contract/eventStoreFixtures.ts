import { randomUUID } from 'node:crypto';
import { comparePositions } from '../../contracts/index.ts';
import type { EventStore, NewEvent, Position } from '../../contracts/index.ts';

/** A stream category no other test (or earlier run against a shared server) uses: letters and digits only. */
export function uniqueCategory(): string {
  return `t${randomUUID().replaceAll('-', '').slice(0, 12)}`;
}

export function sampleEvent(type: string, data: unknown = { n: 1 }): NewEvent {
  return {
    type,
    schemaVersion: 1,
    data,
    metadata: {
      eventId: randomUUID(),
      correlationId: randomUUID(),
      causationId: null,
      principal: 'system',
      time: '2025-03-01T09:30:00.000Z',
    },
  };
}

/** How long a test waits for a notification before failing: a liveness bound, not a speed assertion. */
const NOTIFICATION_DEADLINE_MS = 5000;

/**
 * Subscribes to `store.onAppended` now; `until(position)` resolves with the first notified head at or after
 * `position` (also one notified before the call) and rejects if none arrives within the deadline.
 */
export function appendNotification(store: EventStore): {
  until(position: Position): Promise<Position>;
  stop(): void;
} {
  let latest: Position | null = null;
  const waiters = new Set<{ position: Position; resolve: (head: Position) => void }>();
  const unsubscribe = store.onAppended((head) => {
    if (comparePositions(head, latest) > 0) latest = head;
    for (const waiter of [...waiters]) {
      if (comparePositions(head, waiter.position) >= 0) {
        waiters.delete(waiter);
        waiter.resolve(head);
      }
    }
  });
  return {
    until(position) {
      if (latest !== null && comparePositions(latest, position) >= 0) return Promise.resolve(latest);
      return new Promise<Position>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no onAppended notification reached ${position} within ${NOTIFICATION_DEADLINE_MS} ms`));
        }, NOTIFICATION_DEADLINE_MS);
        const waiter = {
          position,
          resolve: (head: Position) => {
            clearTimeout(timer);
            resolve(head);
          },
        };
        waiters.add(waiter);
      });
    },
    stop: unsubscribe,
  };
}
