import { fieldsEqual } from '../../contracts/index.ts';
import type { NewEvent, RecordedEvent, ViewChange } from '../../contracts/index.ts';
import type { Projector } from '../runner/projector.ts';

/** Event type that creates the `totals` document (append it first). */
export const SETUP_EVENT = 'CountingStarted';

/**
 * Projector used by the runner's tests: one `seen` document per event id (coverage) and a `totals` document whose
 * `events` field is incremented per event, so a batch applied twice shows up as a sum above the event count.
 * `failOn` makes apply throw for an event.
 */
export function createCountingProjector(
  options: {
    name?: string;
    categories?: readonly string[];
    failOn?: (event: RecordedEvent) => boolean;
  } = {},
): Projector {
  return {
    spec: {
      name: options.name ?? 'counting',
      version: 1,
      collections: [
        { name: 'seen', fields: { eventId: 'text', position: 'text' }, key: ['eventId'] },
        { name: 'totals', fields: { id: 'text', events: 'integer' }, key: ['id'] },
      ],
    },
    categories: options.categories ?? ['user'],
    apply(events: readonly RecordedEvent[]): ViewChange[] {
      const changes: ViewChange[] = [];
      for (const event of events) {
        if (options.failOn?.(event)) throw new Error(`cannot project ${event.metadata.eventId}`);
        if (event.type === SETUP_EVENT) {
          changes.push({ op: 'upsert', collection: 'totals', doc: { id: 'all', events: 0 } });
          continue;
        }
        const eventId = event.metadata.eventId;
        changes.push(
          { op: 'upsert', collection: 'seen', doc: { eventId, position: event.position } },
          { op: 'update', collection: 'totals', filter: fieldsEqual({ id: 'all' }), inc: { events: 1 } },
        );
      }
      return changes;
    },
  };
}

let eventCounter = 0;

/** `count` new events of `type` with ids unique in this process, for the counting projector's `user` streams. */
export function countedEvents(count: number, type = 'Happened'): NewEvent[] {
  return Array.from({ length: count }, () => {
    const eventId = `evt-${process.pid}-${++eventCounter}`;
    return {
      type,
      schemaVersion: 1,
      data: {},
      metadata: { eventId, correlationId: eventId, causationId: null, principal: 'system', time: '' },
    };
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `condition` holds; fails after 20 s (a liveness bound, not a speed assertion). */
export async function eventually(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}
