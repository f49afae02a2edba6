// The outcome of a run: a one-line summary, the invariants with their check and violation counts, and the figures
// (throughput under faults, latency percentiles, failover times, RSS over time) as JSON.
import type { FaultRecord } from './faults.ts';
import type { LeakCheck, MemoryTrack } from './memory.ts';
import { percentile, type Recorder, type Violation } from './recorder.ts';
import type { ChaosOptions } from './runChaos.ts';
import type { ProjectionDigest } from './viewChecks.ts';

export type ChaosReport = {
  readonly ok: boolean;
  readonly seed: number;
  readonly summary: string;
  readonly durationSeconds: number;
  readonly counts: Record<string, number>;
  readonly violations: readonly Violation[];
  readonly rows: Record<string, number>;
  readonly throughput: { readonly acknowledgedWritesPerSecond: number; readonly requestsPerSecond: number };
  readonly latencyMs: { readonly write: { p50: number; p99: number; max: number }; readonly read: { p50: number; p99: number; max: number } };
  readonly faults: { readonly total: number; readonly byKind: Record<string, number>; readonly records: readonly FaultRecord[] };
  readonly failoverMs: {
    readonly recoveryP50: number;
    readonly recoveryMax: number;
    readonly projectorTakeoverP50: number;
    readonly projectorTakeoverMax: number;
  };
  readonly convergeMs: number | null;
  readonly projections: readonly ProjectionDigest[];
  readonly memory: { readonly leakChecks: readonly LeakCheck[]; readonly rssMb: Record<string, readonly { t: number; mb: number }[]> };
};

type Inputs = {
  readonly options: ChaosOptions;
  readonly recorder: Recorder;
  readonly faults: readonly FaultRecord[];
  readonly workMs: number;
  readonly convergeMs: number | null;
  readonly rows: Record<string, number>;
  readonly projections: readonly ProjectionDigest[];
  readonly leaks: readonly LeakCheck[];
  readonly memory: MemoryTrack;
};

const stats = (values: readonly number[]): { p50: number; p99: number; max: number } => ({
  p50: percentile(values, 50),
  p99: percentile(values, 99),
  max: values.length === 0 ? 0 : Math.max(...values),
});

export function buildReport(inputs: Inputs): ChaosReport {
  const { recorder, faults, workMs } = inputs;
  const counts = Object.fromEntries([...recorder.counts].sort(([a], [b]) => a.localeCompare(b)));
  const byKind: Record<string, number> = {};
  for (const fault of faults) byKind[`${fault.kind}:${fault.target}`] = (byKind[`${fault.kind}:${fault.target}`] ?? 0) + 1;
  const acknowledged = counts['writes:acknowledged'] ?? 0;
  const requests = Object.entries(counts)
    .filter(([k]) => k.startsWith('http:'))
    .reduce((s, [, v]) => s + v, 0);
  const takeovers = faults.flatMap((f) => (f.takeoverMs === null ? [] : [f.takeoverMs]));
  const violated = new Set(recorder.violations.map((v) => v.invariant)).size;
  const seconds = workMs / 1000;
  const summary =
    `${acknowledged} acknowledged writes (${counts['rows:acknowledged'] ?? 0} rows), ${faults.length} faults injected, ` +
    `${inputs.rows.lost ?? 0} lost, ${inputs.rows.duplicated ?? 0} duplicated, ${inputs.rows.refusedSeen ?? 0} refused seen, ` +
    `${inputs.rows.phantom ?? 0} phantom, ${inputs.rows.wrongValue ?? 0} wrong values, ` +
    `${inputs.projections.filter((p) => p.live !== p.rebuilt).length}/${inputs.projections.length} projections differ from a rebuild, ` +
    `${counts['violation:revoked-keys-fail-on-every-replica'] ?? 0} revoked keys accepted, ` +
    `${counts['violation:no-refresh-family-forks'] ?? 0} refresh forks, ${counts['violation:committed-revisions-never-change'] ?? 0} committed revisions changed, ` +
    `${(counts['violation:no-5xx-but-503-in-failover-window'] ?? 0) + (counts['violation:no-errors-outside-failover-window'] ?? 0)} unexpected errors, ` +
    `${counts['violation:memory-within-bound-of-warm-size'] ?? 0} memory bounds exceeded; ` +
    `${
      recorder.violations.length === 0
        ? 'no violations'
        : `${Object.entries(counts)
            .filter(([k]) => k.startsWith('violation:'))
            .reduce((s, [, v]) => s + v, 0)} violations of ${violated} invariants`
    } (seed ${inputs.options.seed})`;
  return {
    ok: recorder.violations.length === 0,
    seed: inputs.options.seed,
    summary,
    durationSeconds: Math.round(seconds),
    counts,
    violations: recorder.violations,
    rows: inputs.rows,
    throughput: { acknowledgedWritesPerSecond: round(acknowledged / seconds), requestsPerSecond: round(requests / seconds) },
    latencyMs: { write: stats(recorder.latencies.write), read: stats(recorder.latencies.read) },
    faults: { total: faults.length, byKind, records: faults },
    failoverMs: {
      recoveryP50: percentile(
        faults.map((f) => f.recoveryMs),
        50,
      ),
      recoveryMax: faults.length === 0 ? 0 : Math.max(...faults.map((f) => f.recoveryMs)),
      projectorTakeoverP50: percentile(takeovers, 50),
      projectorTakeoverMax: takeovers.length === 0 ? 0 : Math.max(...takeovers),
    },
    convergeMs: inputs.convergeMs,
    projections: inputs.projections,
    memory: { leakChecks: inputs.leaks, rssMb: Object.fromEntries(inputs.memory) },
  };
}

const round = (n: number): number => Math.round(n * 10) / 10;
