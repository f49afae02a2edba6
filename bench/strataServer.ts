// Helpers of the benchmarks that run a real Strata server (bench/generatedBench.ts, bench/peersBench.ts): free ports,
// core pinning with taskset, CPU time from /proc, `strata serve` with a temporary data directory and a system API client.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ADMIN_PASSWORD = 'bench-admin-password';
/** Whether `taskset` exists here (servers go to core 0, load generators to core 1). */
export const hasTaskset = spawnSync('taskset', ['-V']).status === 0;
export const pinned = (core: number, argv: string[]): string[] => (hasTaskset ? ['taskset', '-c', String(core), ...argv] : argv);

/** A TCP port free on 127.0.0.1 right now. */
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

/** Spawns argv (stderr shown, stdout dropped, or appended to the file BENCH_SERVER_STDOUT names). */
export function start(argv: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const [cmd, ...args] = argv;
  const stdout = process.env.BENCH_SERVER_STDOUT === undefined ? 'ignore' : openSync(process.env.BENCH_SERVER_STDOUT, 'a');
  return spawn(cmd as string, args, { env, stdio: ['ignore', stdout, 'inherit'] });
}

/** Waits until GET url answers 2xx. */
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

/**
 * `strata serve` (production settings, everything else default) pinned to core 0, with its data in `dir`; the admin
 * signs in with ADMIN_PASSWORD. `root` is the checkout it runs (this one by default; another for A/B runs).
 */
export function startStrata(
  dir: string,
  port: number,
  nodeArgs: readonly string[] = [],
  env: NodeJS.ProcessEnv = {},
  root = fileURLToPath(new URL('..', import.meta.url)),
): ChildProcess {
  return start(pinned(0, [process.execPath, ...nodeArgs, join(root, 'deploy/bin/strata.mjs'), 'serve']), {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    ADMIN_PASSWORD,
    JWT_SECRET: 'a-benchmark-secret-that-is-long-enough-to-pass',
    NODE_ENV: 'production',
    ...env,
  });
}

/** JSON client for a Strata server's system API: throws on any status >= 300 (with the start of the body). */
export function createApiCaller(url: string) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bench JSON
  return async (method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; bytes: Buffer; json: any }> => {
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
}
