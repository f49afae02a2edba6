// What a chaos run observes: counters, latencies, failover windows and invariant violations.

export type Violation = { readonly invariant: string; readonly detail: string; readonly at: number };

/** Time range in which a fault and its recovery happen; 503 answers and refused connections are expected in it. */
export type FailoverWindow = { readonly fault: string; readonly start: number; end: number };

/** How long after a recovery the failover window stays open (lease expiry, reconnects, queued retries). */
export const WINDOW_GRACE_MS = 15_000;

export type Recorder = {
  readonly violations: Violation[];
  readonly counts: Map<string, number>;
  readonly latencies: { readonly write: number[]; readonly read: number[] };
  readonly windows: FailoverWindow[];
  violation(invariant: string, detail: string): void;
  /** Increments a named counter (checks performed, outcomes seen). */
  count(name: string, by?: number): void;
  /** True when [start, end] overlaps a failover window (open windows extend to now). */
  inWindow(start: number, end: number): boolean;
  openWindow(fault: string): FailoverWindow;
};

const MAX_VIOLATIONS_KEPT = 200;

export function createRecorder(): Recorder {
  const violations: Violation[] = [];
  const counts = new Map<string, number>();
  const windows: FailoverWindow[] = [];
  return {
    violations,
    counts,
    latencies: { write: [], read: [] },
    windows,
    violation(invariant, detail) {
      counts.set(`violation:${invariant}`, (counts.get(`violation:${invariant}`) ?? 0) + 1);
      if (violations.length < MAX_VIOLATIONS_KEPT) violations.push({ invariant, detail, at: Date.now() });
    },
    count(name, by = 1) {
      counts.set(name, (counts.get(name) ?? 0) + by);
    },
    inWindow(start, end) {
      return windows.some((w) => start <= w.end && end >= w.start);
    },
    openWindow(fault) {
      const window = { fault, start: Date.now(), end: Number.MAX_SAFE_INTEGER };
      windows.push(window);
      return window;
    },
  };
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}
