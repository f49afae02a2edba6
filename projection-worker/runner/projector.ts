import type { ProjectionSpec, RecordedEvent, ViewChange } from '../../contracts/index.ts';

/**
 * One view kept from the log. `spec.version` is the FIRST storage version; later versions come from rebuilds and
 * the runner always writes to the version the view store marks active.
 */
export type Projector = {
  readonly spec: ProjectionSpec;
  /** Stream categories consumed (text before the first `-` of a stream id). */
  readonly categories: readonly string[];
  /** Pure and deterministic: the same events always give the same changes, so a replay rebuilds the same view. */
  apply(events: readonly RecordedEvent[]): ViewChange[];
};

/**
 * A checkpointed subscriber of the log run like a projection (lease, batches, checkpoint moved with its changes)
 * that may read while it applies: the webhook dispatcher (projection-worker/webhooks). Never rebuilt, so it is not
 * in `allProjectors`.
 */
export type LogSubscriber = Omit<Projector, 'apply'> & {
  apply(events: readonly RecordedEvent[]): ViewChange[] | Promise<ViewChange[]>;
};

/** Queue topic that wakes the runner of projection `name`. */
export function projectionTopic(name: string): string {
  return `projection:${name}`;
}
