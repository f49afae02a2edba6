import type { Position } from '../events/position.ts';

/** A rebuild in progress (operations.md §5.1): the shadow version being filled and how fast. */
export type ProjectionRebuildView = {
  readonly targetVersion: number;
  /** Checkpoint of the shadow version. */
  readonly position: Position | null;
  readonly head: Position | null;
  /** Events the shadow still has to replay (null before its first checkpoint is known). */
  readonly lag: number | null;
  readonly eventsPerSecond: number;
  /** RFC 3339; null when the rebuild runs in another process that this one did not see start. */
  readonly startedAt: string | null;
};

/** One row of `strata projections status --json` plus the rebuild in progress, if any. */
export type ProjectionStatusView = {
  readonly name: string;
  readonly version: number;
  readonly status: 'running' | 'idle' | 'stalled' | 'failed' | 'building';
  readonly position: Position | null;
  readonly head: Position | null;
  readonly lag: number;
  /** RFC 3339 time of the last checkpoint, or null. */
  readonly updatedAt: string | null;
  readonly error: string | null;
  readonly rebuild: ProjectionRebuildView | null;
};

/** The operator actions of operations.md §5.1; callers check the caller is a systemAdmin first. */
export interface ProjectionOperations {
  /** Every known projection's live version (sorted by name), like `strata projections status`. */
  statuses(): Promise<ProjectionStatusView[]>;
  /**
   * Starts the shadow rebuild of `name` (`all`: every projection, one after another) and resolves once it holds the
   * rebuild lease of each, before any event is replayed. PROJECTION_NOT_FOUND for an unknown name,
   * REBUILD_IN_PROGRESS when any of them is already being rebuilt (by any process). `actor` names who asked (audit).
   */
  startRebuild(name: string, actor: string): Promise<{ readonly names: readonly string[] }>;
}
