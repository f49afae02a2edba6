// Pure helpers of bench/peersBench.ts: /proc stat parsing, round summaries and the markdown table it writes into
// bench/RESULTS.md. No I/O here (bench/peersReport.unit.test.ts covers them).

/** One load of one server: throughput, latency and CPU spent per request (µs), split by process kind. */
export type Round = {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  /** CPU of the server process per request, µs. */
  readonly serverUs: number;
  /** CPU of all PostgreSQL processes per request, µs (0 for Strata, which uses none). */
  readonly pgUs: number;
  /** Requests that failed without an answer (autocannon's errors: timeouts after 10 s, resets). */
  readonly errors: number;
};

export type SystemColumn = { readonly key: string; readonly label: string; readonly usesPostgres: boolean };
export type ScenarioRow = { readonly key: string; readonly label: string };

/** Name, parent pid and CPU time (utime + stime, clock ticks) of a `/proc/<pid>/stat` line; the name may hold `)`. */
export function parseProcStat(text: string): { comm: string; ppid: number; ticks: number } {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) throw new Error(`not a /proc/<pid>/stat line: ${text.slice(0, 80)}`);
  // Fields after the name start at field 3 (state); ppid is field 4, utime and stime are fields 14 and 15.
  const fields = text.slice(close + 2).split(' ');
  return { comm: text.slice(open + 1, close), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
}

/**
 * CPU seconds spent between two samples of per-pid ticks (100 per second): a process that started meanwhile counts
 * from zero, one that ended meanwhile is lost (its last ticks cannot be read), so the sum never goes negative.
 */
export function cpuDeltaSeconds(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let ticks = 0;
  for (const [pid, now] of after) ticks += Math.max(0, now - (before.get(pid) ?? 0));
  return ticks / 100;
}

/** The median (mean of the two middle values for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** A round from a load's figures: CPU deltas in seconds become µs per request. */
export function toRound(
  load: { requests: number; seconds: number; p50: number; p99: number; errors: number },
  serverCpuS: number,
  pgCpuS: number,
): Round {
  const perRequestUs = (cpuS: number) => (load.requests > 0 ? (cpuS * 1e6) / load.requests : Number.NaN);
  return {
    rps: load.requests / load.seconds,
    p50: load.p50,
    p99: load.p99,
    serverUs: perRequestUs(serverCpuS),
    pgUs: perRequestUs(pgCpuS),
    errors: load.errors,
  };
}

/** Field-wise median of rounds; errors are summed. */
export function summarize(rounds: readonly Round[]): Round {
  const of = (pick: (r: Round) => number) => median(rounds.map(pick));
  const errors = rounds.reduce((sum, r) => sum + r.errors, 0);
  return { rps: of((r) => r.rps), p50: of((r) => r.p50), p99: of((r) => r.p99), serverUs: of((r) => r.serverUs), pgUs: of((r) => r.pgUs), errors };
}

/**
 * Strata's req/s over the fastest peer's in the same round, median over rounds, with the peer that was fastest most
 * often. `peers[k][i]` is peer k's round i; a peer without the scenario is absent.
 */
export function ratioToBestPeer(strata: readonly Round[], peers: ReadonlyMap<string, readonly Round[]>): { ratio: number; best: string | null } {
  const ratios: number[] = [];
  const wins = new Map<string, number>();
  strata.forEach((round, i) => {
    let best: [string, number] | null = null;
    for (const [name, rounds] of peers) {
      const rps = rounds[i]?.rps;
      if (rps !== undefined && (best === null || rps > best[1])) best = [name, rps];
    }
    if (best === null) return;
    ratios.push(round.rps / best[1]);
    wins.set(best[0], (wins.get(best[0]) ?? 0) + 1);
  });
  const best = [...wins].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  return { ratio: median(ratios), best };
}

const fmt = (value: number): string => {
  if (Number.isNaN(value)) return 'n/a';
  if (value >= 100) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(value >= 1 ? 1 : 2);
};

/**
 * One table cell: `2,826/s · p50 17 ms · p99 40 ms · CPU 204 + 90 µs` (server + PostgreSQL for the peers), then the
 * requests that got no answer over all rounds, if any.
 */
export function formatCell(round: Round, usesPostgres: boolean): string {
  const cpu = usesPostgres ? `${fmt(round.serverUs)} + ${fmt(round.pgUs)} µs` : `${fmt(round.serverUs)} µs`;
  const failed = round.errors > 0 ? ` · ${round.errors.toLocaleString('en-US')} unanswered (timeout 10 s)` : '';
  return `${fmt(round.rps)}/s · p50 ${fmt(round.p50)} ms · p99 ${fmt(round.p99)} ms · CPU ${cpu}${failed}`;
}

/**
 * The side-by-side table: one row per scenario, one column per system (`—` where a system has no such API), then
 * Strata ÷ best peer. `results[scenario][system]` holds the rounds; the first system is Strata.
 */
export function renderTable(
  scenarios: readonly ScenarioRow[],
  systems: readonly SystemColumn[],
  results: ReadonlyMap<string, ReadonlyMap<string, readonly Round[]>>,
): string[] {
  const [strata, ...peers] = systems;
  if (strata === undefined) return [];
  const lines = [
    `| scenario | ${systems.map((s) => s.label).join(' | ')} | ${strata.label} ÷ best peer (req/s) |`,
    `|---|${systems.map(() => '---').join('|')}|--:|`,
  ];
  for (const scenario of scenarios) {
    const bySystem = results.get(scenario.key);
    if (bySystem === undefined) continue;
    const cells = systems.map((s) => {
      const rounds = bySystem.get(s.key);
      return rounds === undefined || rounds.length === 0 ? '—' : formatCell(summarize(rounds), s.usesPostgres);
    });
    const peerRounds = new Map(peers.flatMap((p) => (bySystem.has(p.key) ? [[p.label, bySystem.get(p.key) as readonly Round[]] as const] : [])));
    const strataRounds = bySystem.get(strata.key);
    const { ratio, best } = strataRounds === undefined ? { ratio: Number.NaN, best: null } : ratioToBestPeer(strataRounds, peerRounds);
    const ratioCell = best === null ? '—' : `**${fmt(ratio)}** (vs ${best})`;
    lines.push(`| ${scenario.label} | ${cells.join(' | ')} | ${ratioCell} |`);
  }
  return lines;
}

/**
 * `text` with the `## ` section titled `heading` replaced by `section` (whose first line is that heading), or with
 * `section` appended when there is none; every other section is kept as it was.
 */
export function replaceSection(text: string, heading: string, section: readonly string[]): string {
  const lines = text.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) {
    const body = text.replace(/\n+$/, '');
    return `${body}${body.length > 0 ? '\n\n' : ''}${section.join('\n')}\n`;
  }
  let end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  if (end < 0) end = lines.length;
  const after = lines.slice(end);
  const before = lines.slice(0, start);
  return [...before, ...section, ...(after.length > 0 ? ['', ...after] : [''])].join('\n');
}
