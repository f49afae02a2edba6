// Faults, one at a time, chosen with the run's seed: SIGKILL of any process (then a restart on the same port),
// SIGSTOP of a projector for longer than its lease (then SIGCONT), a Redis restart (all its state lost) and a
// graceful restart of the query-only replica. Each fault opens a failover window that closes WINDOW_GRACE_MS after
// recovery.
import type { ViewStore } from '../../contracts/index.ts';
import { MEMBER_NAMES, type Cluster, type MemberName } from './cluster.ts';
import { sleep } from './context.ts';
import type { Random } from './random.ts';
import { WINDOW_GRACE_MS, type Recorder } from './recorder.ts';

export type FaultRecord = {
  readonly kind: string;
  readonly target: string;
  readonly at: number;
  /** Fault start until the process (or Redis) is serving again. */
  recoveryMs: number;
  /** Projector faults: fault start until a live, running process holds every projection lease. */
  takeoverMs: number | null;
};

/** Projection lease TTL of the projector role (projectionRunner's default). */
const LEASE_TTL_MS = 10_000;
const FAULT_WEIGHTS = { kill: 50, pause: 20, redis: 12, restartQuery: 18 };

export type FaultOptions = { readonly maxFaults: number; readonly gapMs: readonly [number, number] };

export async function runFaults(
  cluster: Cluster,
  views: ViewStore,
  recorder: Recorder,
  random: Random,
  options: FaultOptions,
  running: () => boolean,
): Promise<FaultRecord[]> {
  const faults: FaultRecord[] = [];
  await sleep(random.int(...options.gapMs));
  while (running() && faults.length < options.maxFaults) {
    const kind = random.weighted(FAULT_WEIGHTS);
    const at = Date.now();
    let target: string;
    let takeover: Promise<number | null> = Promise.resolve(null);
    const window = recorder.openWindow(kind);
    if (kind === 'kill') {
      const name = random.pick(MEMBER_NAMES);
      target = name;
      await cluster.kill(name);
      if (name.startsWith('proj')) takeover = measureTakeover(cluster, views, at);
      await sleep(random.int(200, 2000));
      await restart(cluster, recorder, name);
    } else if (kind === 'pause') {
      const name = (await leaseHolder(cluster, views)) ?? random.pick<MemberName>(['projA', 'projB']);
      target = name;
      const member = cluster.member(name);
      member.proc?.child.kill('SIGSTOP');
      member.paused = true;
      takeover = measureTakeover(cluster, views, at);
      await sleep(LEASE_TTL_MS + random.int(2000, 5000));
      member.proc?.child.kill('SIGCONT');
      member.paused = false;
    } else if (kind === 'redis') {
      target = 'redis';
      await cluster.redis.restart();
    } else {
      target = 'query';
      await cluster.stop('query');
      await restart(cluster, recorder, 'query');
    }
    const record: FaultRecord = { kind, target, at, recoveryMs: Date.now() - at, takeoverMs: await takeover };
    faults.push(record);
    recorder.count(`faults:${kind === 'redis' ? 'redis-restart' : kind}`);
    window.end = Date.now() + WINDOW_GRACE_MS;
    await sleep(random.int(...options.gapMs));
  }
  return faults;
}

async function restart(cluster: Cluster, recorder: Recorder, name: MemberName): Promise<void> {
  try {
    await cluster.start(name);
  } catch (err) {
    recorder.violation('processes-restart', `${name} did not start again: ${String(err).slice(0, 1500)}`);
  }
}

/** The projector process that holds every active projection lease, when one does. */
async function leaseHolder(cluster: Cluster, views: ViewStore): Promise<MemberName | undefined> {
  const owners = await leaseOwnerPids(views);
  if (owners.size !== 1) return undefined;
  const [pid] = owners;
  return (['projA', 'projB'] as const).find((name) => cluster.member(name).proc?.child.pid === pid);
}

async function leaseOwnerPids(views: ViewStore): Promise<Set<number | null>> {
  const now = Date.now();
  const statuses = (await views.projectionStatuses()).filter((s) => s.active);
  return new Set(
    statuses.map((s) => (s.leaseOwner !== null && s.leaseExpiresAt !== null && s.leaseExpiresAt > now ? Number(s.leaseOwner.split(':')[1]) : null)),
  );
}

/** Waits until every lease is held by a process that is up and not paused; null after 60 s. */
async function measureTakeover(cluster: Cluster, views: ViewStore, since: number): Promise<number | null> {
  await sleep(100);
  const deadline = since + 60_000;
  while (Date.now() < deadline) {
    const pids = await leaseOwnerPids(views);
    const live = (['projA', 'projB'] as const).filter((name) => cluster.isUp(name)).map((name) => cluster.member(name).proc?.child.pid);
    if (pids.size > 0 && [...pids].every((pid) => pid !== null && live.includes(pid))) return Date.now() - since;
    await sleep(200);
  }
  return null;
}
