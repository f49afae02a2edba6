import type { EventStore, ViewStore } from '../../contracts/index.ts';

export type ProjectionLag = {
  readonly projection: string;
  /** Events in the log after the active version's checkpoint. */
  readonly lagEvents: number;
  /** Milliseconds since the epoch of the last checkpoint move, or null. */
  readonly updatedAt: number | null;
};

/** Lag of the active version of every projection (for /health/ready and the projection gauges). */
export async function measureProjectionLag(eventStore: EventStore, viewStore: ViewStore): Promise<ProjectionLag[]> {
  const statuses = (await viewStore.projectionStatuses()).filter((s) => s.active);
  return Promise.all(
    statuses.map(async (s) => ({
      projection: s.name,
      lagEvents: await eventStore.countAfter(s.position),
      updatedAt: s.updatedAt,
    })),
  );
}

/** Resolves the probe's answer, or false when it throws or takes longer than `timeoutMs`. */
export async function probe(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([check().catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
