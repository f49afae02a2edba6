/** The operator API of operations.md §5.1 as the Operations screen reads it. */
export type ProjectionRebuild = {
  readonly targetVersion: number;
  readonly position: string | null;
  readonly head: string | null;
  readonly lag: number | null;
  readonly eventsPerSecond: number;
  readonly startedAt: string | null;
};

export type ProjectionStatus = {
  readonly name: string;
  readonly version: number;
  readonly status: string;
  readonly position: string | null;
  readonly head: string | null;
  readonly lag: number;
  readonly updatedAt: string | null;
  readonly error: string | null;
  readonly rebuild: ProjectionRebuild | null;
};

/** How often the screen reads the status rows (live view). */
export const REFRESH_MS = 1000;
