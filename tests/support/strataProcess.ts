// Starts `strata serve` as a child process (the real entrypoint) and waits until it listens.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'deploy', 'bin', 'strata.mjs');

export type StrataProcess = {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the process wrote to stdout so far (JSON log lines). */
  stdout(): string;
  stderr(): string;
  /** SIGTERM and wait for exit (SIGKILL after 15 s); resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL and wait for exit. */
  kill(): Promise<void>;
};

export async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
}

export type StrataRun = {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
};

/** Spawns `strata <args>` with a clean environment (only what node needs) plus `env`, collecting its output. */
export function spawnStrata(args: readonly string[], env: Record<string, string>): StrataRun {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/**
 * Spawns `strata serve` with a clean environment plus `env` (PORT defaults to 0, HOST to 127.0.0.1) and waits up to
 * `startTimeoutMs` (default 60 s) for its listening line.
 */
export async function startStrataProcess(env: Record<string, string>, options: { startTimeoutMs?: number } = {}): Promise<StrataProcess> {
  const { child, stdout, stderr, exited } = spawnStrata(['serve'], { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env });
  // A test process that dies (or times out) must not leave servers running.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));
  let url: string;
  try {
    url = await until('the listening line', options.startTimeoutMs ?? 60_000, async () => {
      if (child.exitCode !== null) throw new Error(`strata exited early:\n${stderr()}${stdout()}`);
      for (const line of stdout().split('\n')) {
        if (!line.startsWith('{')) continue;
        const record = JSON.parse(line) as { msg?: string; url?: string };
        if (record.msg === 'http server listening' && record.url) return record.url;
      }
      return undefined;
    });
  } catch (startError) {
    child.kill('SIGKILL');
    await exited;
    throw new Error(`${(startError as Error).message}\n--- stderr ---\n${stderr().slice(-2000)}\n--- stdout ---\n${stdout().slice(-2000)}`, {
      cause: startError,
    });
  }
  return {
    url,
    child,
    stdout,
    stderr,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
