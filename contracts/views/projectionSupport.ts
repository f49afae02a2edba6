import type { DomainEvent } from '../events/domainEvents.ts';
import type { RecordedEvent } from '../events/envelope.ts';
import type { Filter, Scalar } from '../ports/viewStore.ts';

/** Helpers of the projectors (projection-worker/projectors) and of the content projections shared with the write side. */

/** Largest `in` list put into one filter (keeps statements well under SQLite's parameter limit). */
const MAX_IN_VALUES = 500;

/** The typed domain event of a recorded event (the store upcasts before projectors see it). */
export function domainEventOf(recorded: RecordedEvent): DomainEvent {
  return { type: recorded.type, data: recorded.data } as DomainEvent;
}

/** The entity id after the category prefix: `branch-abc` -> `abc` (ids may contain `-`). */
export function streamEntityId(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash === -1 ? '' : streamId.slice(dash + 1);
}

export function and(...filters: Filter[]): Filter {
  return { kind: 'and', filters };
}

export function compare(field: string, op: 'lt' | 'lte' | 'gt' | 'gte', value: number): Filter {
  return { kind: 'compare', ref: { field }, op, value };
}

/** `field IN values`, split into filters of at most MAX_IN_VALUES values each. */
export function inChunks(field: string, values: readonly Scalar[]): Filter[] {
  const out: Filter[] = [];
  for (let i = 0; i < values.length; i += MAX_IN_VALUES) {
    out.push({ kind: 'in', ref: { field }, values: values.slice(i, i + MAX_IN_VALUES) });
  }
  return out;
}
