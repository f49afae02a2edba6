// The distributed shape on one machine (operations.md §2): two command+query processes, one query-only process that
// forwards writes to the first command process, two projector processes, one Redis, and the embedded SQLite stores
// shared through one DATA_DIR. Every process keeps its port across restarts so COMMAND_URL and clients stay valid.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/freePort.ts';
import { startRedisServer, type RedisServer } from '../support/redisServer.ts';
import { startStrataProcess, until, type StrataProcess } from '../support/strataProcess.ts';

export const ADMIN_PASSWORD = 'chaos-admin-password-1';
export type MemberName = 'cmdA' | 'cmdB' | 'query' | 'projA' | 'projB';
export const MEMBER_NAMES: readonly MemberName[] = ['cmdA', 'cmdB', 'query', 'projA', 'projB'];
/** Processes that serve the HTTP API (reads locally, writes locally or forwarded). */
export const API_MEMBERS: readonly MemberName[] = ['cmdA', 'cmdB', 'query'];

export type Member = {
  readonly name: MemberName;
  readonly url: string;
  readonly env: Record<string, string>;
  proc: StrataProcess | null;
  /** Start time of the current incarnation. */
  startedAt: number;
  incarnation: number;
  paused: boolean;
  /** Set while the harness itself stops the process, so an exit is not reported as a crash. */
  expectingExit: boolean;
};

export type Cluster = {
  readonly dataDir: string;
  readonly redis: RedisServer;
  readonly members: ReadonlyMap<MemberName, Member>;
  /** Exits that the harness did not cause (a process crashed on its own). */
  readonly crashes: { name: MemberName; code: number | null; signal: string | null; at: number; stderr: string }[];
  member(name: MemberName): Member;
  isUp(name: MemberName): boolean;
  start(name: MemberName): Promise<void>;
  kill(name: MemberName): Promise<void>;
  stop(name: MemberName): Promise<void>;
  close(): Promise<void>;
};

/** A start on a loaded machine (compiling the TypeScript sources, opening the stores) can take a minute or more. */
const START_TIMEOUT_MS = 180_000;

/** Consistency timeout of the cluster: short, so writes answer `pending` quickly while no projector runs. */
export const CONSISTENCY_TIMEOUT_MS = 3000;

export async function startCluster(): Promise<Cluster> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-chaos-'));
  const dataDir = join(dir, 'data');
  const redis = await startRedisServer();
  const ports = new Map<MemberName, number>();
  for (const name of MEMBER_NAMES) ports.set(name, await freePort());
  const shared = {
    DATA_DIR: dataDir,
    REDIS_URL: redis.url,
    ADMIN_PASSWORD,
    JWT_SECRET: 'chaos-harness-jwt-secret-of-more-than-32-bytes',
    JWT_ACCESS_TOKEN_TTL_SECONDS: '86400',
    API_KEY_MAX_PER_USER: '10000',
    MCP_MAX_SESSIONS: '10000',
    CONSISTENCY_TIMEOUT_MS: String(CONSISTENCY_TIMEOUT_MS),
    LOG_LEVEL: 'info', // startStrataProcess waits for the 'http server listening' info line
  };
  const urlOf = (name: MemberName): string => `http://127.0.0.1:${ports.get(name)}`;
  const envOf: Record<MemberName, Record<string, string>> = {
    cmdA: { ...shared, ROLES: 'command,query' },
    cmdB: { ...shared, ROLES: 'command,query' },
    query: { ...shared, ROLES: 'query', COMMAND_URL: urlOf('cmdA') },
    projA: { ...shared, ROLES: 'projector' },
    projB: { ...shared, ROLES: 'projector' },
  };
  const members = new Map<MemberName, Member>(
    MEMBER_NAMES.map((name) => [
      name,
      {
        name,
        url: urlOf(name),
        env: { ...envOf[name], PORT: String(ports.get(name)) },
        proc: null,
        startedAt: 0,
        incarnation: 0,
        paused: false,
        expectingExit: false,
      },
    ]),
  );
  const crashes: Cluster['crashes'] = [];
  const member = (name: MemberName): Member => {
    const m = members.get(name);
    if (!m) throw new Error(`no member ${name}`);
    return m;
  };

  async function start(name: MemberName): Promise<void> {
    const m = member(name);
    const proc = await startStrataProcess(m.env, { startTimeoutMs: START_TIMEOUT_MS });
    m.proc = proc;
    m.paused = false;
    m.expectingExit = false;
    m.startedAt = Date.now();
    m.incarnation++;
    proc.child.once('exit', (code, signal) => {
      if (m.proc === proc && !m.expectingExit) crashes.push({ name, code, signal, at: Date.now(), stderr: proc.stderr().slice(-2000) });
      if (m.proc === proc) m.proc = null;
    });
    await until(`${name} ready`, START_TIMEOUT_MS, async () => ((await fetch(`${m.url}/health/live`)).ok ? true : undefined));
  }

  /** SIGKILL (`kill`) or graceful SIGTERM (`stop`); a paused process is continued first so it can exit. */
  async function halt(name: MemberName, how: 'kill' | 'stop'): Promise<void> {
    const m = member(name);
    const proc = m.proc;
    if (!proc) return;
    m.expectingExit = true;
    if (m.paused) proc.child.kill('SIGCONT');
    await (how === 'kill' ? proc.kill() : proc.stop());
    m.proc = null;
  }
  const kill = (name: MemberName): Promise<void> => halt(name, 'kill');
  const stop = (name: MemberName): Promise<void> => halt(name, 'stop');

  const cluster: Cluster = {
    dataDir,
    redis,
    members,
    crashes,
    member,
    isUp: (name) => member(name).proc !== null && !member(name).paused,
    start,
    kill,
    stop,
    async close() {
      await Promise.allSettled(MEMBER_NAMES.map((name) => stop(name)));
      await redis.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    // The first projector starts alone and creates the view tables; the second one then stands by on the leases.
    await start('projA');
    await Promise.all([start('cmdA'), start('cmdB'), start('projB')]);
    await start('query');
  } catch (err) {
    await cluster.close();
    throw err;
  }
  return cluster;
}

/** Resident set size of a process in bytes (Linux), or null when it is gone. */
export async function residentBytes(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}
