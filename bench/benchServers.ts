// Helpers of the generated-endpoint benchmarks: `strata serve` child processes pinned to core 0, autocannon loads
// with the server's CPU time from /proc.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

export type BenchFigure = { name: string; value: number; unit: string; note?: string };
export type Req = {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
  /** Another path/body per request (random ids); `path`/`body` are the first request's. */
  readonly vary?: () => { readonly path: string; readonly body?: string };
};
export type Load = { readonly rps: number; readonly requests: number; readonly p50: number; readonly cpuS: number };

export const ADMIN_PASSWORD = 'bench-admin-password';
export const CONNECTIONS = 50;
export const hasTaskset = spawnSync('taskset', ['-V']).status === 0;
export const pinned = (core: number, argv: string[]): string[] => (hasTaskset ? ['taskset', '-c', String(core), ...argv] : argv);

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** utime + stime of a process in seconds (Linux); NaN elsewhere. */
export async function cpuSeconds(pid: number): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

export function start(argv: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const [cmd, ...args] = argv;
  return spawn(cmd as string, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
}

export async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}


export async function load(base: string, req: Req, pid: number, seconds: number, connections = CONNECTIONS): Promise<Load> {
  const cpuBefore = await cpuSeconds(pid);
  const { vary } = req;
  const result = await autocannon({
    url: `${base}${req.path}`,
    method: req.method,
    connections,
    duration: seconds,
    ...(req.body !== undefined ? { body: req.body, headers: { 'content-type': 'application/json' } } : {}),
    ...(vary !== undefined ? { requests: [{ setupRequest: (request: autocannon.Request) => Object.assign(request, vary()) }] } : {}),
  });
  const cpuS = (await cpuSeconds(pid)) - cpuBefore;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${req.path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, requests: result.requests.total, p50: result.latency.p50, cpuS };
}

export type Call = (method: string, path: string, body?: unknown, token?: string) => Promise<{ status: number; bytes: Buffer; json: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bench JSON

/** A `strata serve` child process (pinned to core 0) on its own data directory. */
export type BenchServer = { readonly url: string; readonly pid: number; readonly dir: string; readonly call: Call; stop(): Promise<void> };

/**
 * Starts `strata serve` from the checkout at `root` (this one, or another for A/B runs) and waits until it listens.
 * STRATA_BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there on exit (node --cpu-prof).
 */
export async function startServer(root: string): Promise<BenchServer> {
  // STRATA_BENCH_KEEP_DATA=1: the data directory is kept (its path is printed) for looking at plans afterwards.
  const keepData = process.env.STRATA_BENCH_KEEP_DATA === '1';
  const dir = await mkdtemp(join(tmpdir(), 'strata-generated-bench-'));
  if (keepData) console.error(`data directory: ${dir}`);
  const port = await freePort();
  const profile = process.env.STRATA_BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.STRATA_BENCH_CPU_PROF] : [];
  const server = start(pinned(0, [process.execPath, ...profile, join(root, 'deploy/bin/strata.mjs'), 'serve']), {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    ADMIN_PASSWORD,
    JWT_SECRET: 'a-benchmark-secret-that-is-long-enough-to-pass',
    NODE_ENV: 'production',
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    server.kill('SIGTERM');
    await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once('exit', resolve)));
    if (!keepData) await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(`${url}/health/live`, 300_000); // a busy shared machine starts slowly
  } catch (err) {
    await stop();
    throw err;
  }
  const call: Call = async (method, path, body, token) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const json = bytes.length > 0 ? JSON.parse(bytes.toString('utf8')) : null;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${bytes.toString('utf8').slice(0, 300)}`);
    return { status: res.status, bytes, json };
  };
  return { url, pid: server.pid as number, dir, call, stop };
}

