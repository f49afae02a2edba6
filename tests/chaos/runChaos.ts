// One chaos run: start the cluster, set up data, drive the workload while injecting faults, then check every
// invariant and build the report.
import { join } from 'node:path';
import { createSqliteEventStore } from '../../command-service/index.ts';
import { createSqliteViewStore } from '../../projection-worker/index.ts';
import { runKeyActor, runMcpActor, runRefreshActor } from './authActors.ts';
import { runBranchActor, type BranchActorState } from './branchActor.ts';
import { createClient } from './client.ts';
import { MEMBER_NAMES, startCluster, type Cluster } from './cluster.ts';
import type { ChaosContext } from './context.ts';
import { runFaults, type FaultRecord } from './faults.ts';
import { checkLog, readWholeLog } from './logChecks.ts';
import { checkMemory, startMemorySampler } from './memory.ts';
import { createRandom } from './random.ts';
import { createRecorder } from './recorder.ts';
import { buildReport, type ChaosReport } from './report.ts';
import { login, setUpData } from './setup.ts';
import { awaitConvergence, checkBranches, checkRebuild } from './viewChecks.ts';

export type ChaosOptions = {
  readonly durationMs: number;
  readonly seed: number;
  readonly maxFaults: number;
  /** Pause between two faults, uniform in this range. */
  readonly faultGapMs: readonly [number, number];
  /** Pause between two operations of one actor (keeps the load modest). */
  readonly pauseMs: number;
  /** Leak bound: end RSS ≤ factor × warm RSS + slack. */
  readonly memoryFactor: number;
  readonly memorySlackMb: number;
  /** Called after the run converged and before the checks: the harness's own test breaks things here. */
  readonly beforeChecks?: (cluster: Cluster) => Promise<void>;
  readonly progress?: (line: string) => void;
};

export const DEFAULT_OPTIONS: Omit<ChaosOptions, 'durationMs' | 'seed'> = {
  maxFaults: 1000,
  faultGapMs: [2000, 6000],
  pauseMs: 60,
  memoryFactor: 1.5,
  memorySlackMb: 64,
};

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const say = options.progress ?? (() => undefined);
  const random = createRandom(options.seed);
  const recorder = createRecorder();
  const cluster = await startCluster();
  const log = createSqliteEventStore({ file: join(cluster.dataDir, 'events.db') });
  const views = createSqliteViewStore({ file: join(cluster.dataDir, 'views.db') });
  const startedAt = Date.now();
  const memory = startMemorySampler(cluster, startedAt);
  let running = true;
  try {
    say(`cluster up: ${MEMBER_NAMES.map((n) => `${n} ${cluster.member(n).url}`).join(', ')}, redis ${cluster.redis.url}`);
    const client = createClient(cluster, recorder);
    const auth = await login(client, 'cmdA');
    const ctx: ChaosContext = { cluster, client, recorder, log, auth, pauseMs: options.pauseMs, running: () => running };
    const models = await setUpData(client, auth);
    const states: BranchActorState[] = models.map((model) => ({ model, refused: new Set(), committed: new Map(), children: [] }));
    const workStart = Date.now();
    const actors = [
      ...states.map((state) => runBranchActor(ctx, random.fork(state.model.name), state)),
      runKeyActor(ctx, random.fork('keys')),
      runRefreshActor(ctx, random.fork('refresh')),
      runMcpActor(ctx, random.fork('mcp')),
    ];
    const faults: Promise<FaultRecord[]> = runFaults(
      cluster,
      views,
      recorder,
      random.fork('faults'),
      { maxFaults: options.maxFaults, gapMs: options.faultGapMs },
      () => running,
    );
    const ticker = setInterval(() => {
      const c = recorder.counts;
      say(
        `${Math.round((Date.now() - workStart) / 1000)}s: ${c.get('writes:acknowledged') ?? 0} acknowledged writes, ${[...c].filter(([k]) => k.startsWith('faults:')).reduce((s, [, v]) => s + v, 0)} faults, ${recorder.violations.length} violations`,
      );
    }, 30_000);
    await new Promise((resolve) => setTimeout(resolve, options.durationMs));
    running = false;
    clearInterval(ticker);
    say('workload stopping');
    const [faultRecords] = await Promise.all([faults, ...actors]);
    const workMs = Date.now() - workStart;
    for (const name of MEMBER_NAMES) if (cluster.member(name).proc === null) await cluster.start(name);

    say('waiting for the projections to converge');
    const convergeMs = await awaitConvergence(views, log, 120_000);
    if (convergeMs === null) recorder.violation('projections-converge-to-lag-0', 'a projection did not reach the log head within 120 s');
    await options.beforeChecks?.(cluster);
    say('checking the views, the log and a fresh rebuild');
    const refused = new Set(states.flatMap((s) => [...s.refused]));
    const allModels = states.flatMap((s) => [s.model, ...s.children]);
    const rows = await checkBranches(ctx, allModels, refused);
    checkLog(await readWholeLog(log), allModels, refused, recorder);
    const projections = await checkRebuild(ctx, views, cluster.dataDir);
    memory.stop();
    const leaks = checkMemory(memory.track, recorder, options.memoryFactor, options.memorySlackMb);
    for (const crash of cluster.crashes)
      recorder.violation('no-unexpected-exits', `${crash.name} exited (${crash.signal ?? crash.code}) on its own: ${crash.stderr.slice(-500)}`);
    return buildReport({ options, recorder, faults: faultRecords, workMs, convergeMs, rows, projections, leaks, memory: memory.track });
  } finally {
    running = false;
    memory.stop();
    await views.close();
    await log.close();
    await cluster.close();
  }
}
