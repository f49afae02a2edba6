// Helpers of the generated-endpoint benchmarks: `strata serve` child processes pinned to core 0, autocannon loads
// with the server's CPU time from /proc.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { cpuSeconds, createApiCaller, freePort, startStrata, waitFor } from './strataServer.ts';

export type BenchFigure = { name: string; value: number; unit: string; note?: string };
export type Req = {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
  /** Another path/body per request (random ids); `path`/`body` are the first request's. */
  readonly vary?: () => { readonly path: string; readonly body?: string };
};
export type Load = { readonly rps: number; readonly requests: number; readonly p50: number; readonly cpuS: number };

export const CONNECTIONS = 50;

// The process helpers are shared with the peer and write benches.
export { ADMIN_PASSWORD, cpuSeconds, freePort, hasTaskset, pinned, start, waitFor } from './strataServer.ts';

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
  const server = startStrata(dir, port, profile, {}, root);
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
  const call: Call = createApiCaller(url);
  return { url, pid: server.pid as number, dir, call, stop };
}
