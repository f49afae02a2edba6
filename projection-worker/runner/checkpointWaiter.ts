import { comparePositions } from '../../contracts/index.ts';
import type { ConsistencyWaiter, Position, ViewStore } from '../../contracts/index.ts';
import type { ProgressListener } from './projectionRunner.ts';

/**
 * Anything that reports checkpoint moves in this process (a projection runner). While it is its projection's
 * leader (`isLeader`), the position it reported last is that projection's checkpoint.
 */
export type ProgressSource = { onProgress(listener: ProgressListener): () => void; isLeader?(): boolean };

export type CheckpointWaiterDeps = {
  readonly viewStore: ViewStore;
  /** In-process runners: their progress triggers an immediate check instead of waiting for the next poll. */
  readonly runners?: readonly ProgressSource[];
  readonly pollIntervalMs?: number;
};

type Waiting = {
  readonly position: Position;
  readonly projections: readonly string[] | undefined;
  readonly settle: (reached: boolean | Error) => void;
};

/**
 * Read-your-writes (spec operations §4): waits until the ACTIVE version of each projection has a checkpoint at or
 * after a position. All pending waits share one check of the view store, triggered by the poll and by progress.
 */
export function createCheckpointWaiter(deps: CheckpointWaiterDeps): ConsistencyWaiter {
  const { viewStore } = deps;
  const runners = deps.runners ?? [];
  const pollIntervalMs = deps.pollIntervalMs ?? 10;
  const waiting = new Set<Waiting>();
  let checking = false;
  let recheck = false;
  let lastError: unknown = null;
  let pollTimer: NodeJS.Timeout | null = null;
  let listening = false;
  /** The last position each in-process runner reported while listening, with the runner. */
  const progressed = new Map<string, { readonly position: Position; readonly runner: ProgressSource }>();

  /** False when the progress this process saw proves `entry` not reached yet (a leader of one of its projections is behind). */
  function mayBeReached(entry: Waiting): boolean {
    if (entry.projections === undefined) return true;
    return entry.projections.every((name) => {
      const seen = progressed.get(name);
      return seen?.runner.isLeader?.() !== true || comparePositions(seen.position, entry.position) >= 0;
    });
  }

  /**
   * Whether a pending wait names `projection` (or every projection) and may now be reached: progress of a projection
   * no one waits for changes no answer, and a write waiting for catalog, schemas and rows is looked at once the last of
   * them moved, not three times. The poll still looks at everything.
   */
  function worthChecking(projection: string): boolean {
    for (const entry of waiting) {
      if ((entry.projections === undefined || entry.projections.includes(projection)) && mayBeReached(entry)) return true;
    }
    return false;
  }

  // Once a wait came, the runners' progress is followed for good (a Map entry per batch): what a leader reported
  // stays its checkpoint while it leads, also across moments when nothing waits.
  function listen(): void {
    if (listening || runners.length === 0) return;
    listening = true;
    for (const runner of runners) {
      runner.onProgress((name, position) => {
        progressed.set(name, { position, runner });
        if (worthChecking(name)) void check();
      });
    }
  }

  function poll(): void {
    if (waiting.size > 0 && pollTimer === null) {
      pollTimer = setTimeout(() => {
        pollTimer = null;
        void check();
      }, pollIntervalMs);
    }
  }

  function idle(): void {
    if (pollTimer !== null) clearTimeout(pollTimer);
    pollTimer = null;
  }

  function reached(entry: Waiting, positions: ReadonlyMap<string, Position | null>): boolean {
    const names = entry.projections ?? [...positions.keys()];
    return names.every((name) => {
      const position = positions.get(name);
      return position !== undefined && comparePositions(position, entry.position) >= 0;
    });
  }

  async function check(): Promise<void> {
    if (checking) {
      recheck = true;
      return;
    }
    checking = true;
    try {
      do {
        recheck = false;
        const statuses = await viewStore.projectionStatuses();
        lastError = null;
        const positions = new Map(statuses.filter((s) => s.active).map((s) => [s.name, s.position] as const));
        for (const entry of waiting) if (reached(entry, positions)) entry.settle(true);
      } while (recheck && waiting.size > 0);
    } catch (err) {
      lastError = err;
    } finally {
      checking = false;
    }
    poll();
  }

  return {
    waitFor(position, timeoutMs, projections) {
      return new Promise<boolean>((resolve, reject) => {
        const entry: Waiting = {
          position,
          projections,
          settle(result) {
            if (!waiting.delete(entry)) return;
            clearTimeout(timer);
            if (waiting.size === 0) idle();
            if (result instanceof Error) reject(result);
            else resolve(result);
          },
        };
        // A store that keeps failing is reported as its error, not as a consistency timeout.
        const timer = setTimeout(() => entry.settle(lastError instanceof Error ? lastError : false), Math.max(0, timeoutMs));
        waiting.add(entry);
        listen();
        // A leader known to be behind will report its progress (the poll stays the fallback).
        if (mayBeReached(entry)) void check();
        else poll();
      });
    },
  };
}
