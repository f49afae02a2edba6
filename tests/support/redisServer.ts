import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './freePort.ts';

export type RedisServer = {
  readonly url: string;
  stop(): Promise<void>;
  /** SIGKILLs the server (if running) and starts a fresh one (no data: persistence is off) on the same port. */
  restart(): Promise<void>;
  /** SIGKILLs the server and leaves it down until `restart`. */
  kill(): Promise<void>;
};

const START_TIMEOUT_MS = 10_000;

/** Starts Debian's `redis-server` on a free loopback port without persistence; `stop` kills it. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'strata-redis-'));
  let server = await spawnRedis(port, dir).catch(async (err: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw err;
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
    async restart() {
      await server.stop('SIGKILL');
      server = await spawnRedis(port, dir);
    },
    async kill() {
      await server.stop('SIGKILL');
    },
  };
}

type RedisChild = { stop(signal?: NodeJS.Signals): Promise<void> };

async function spawnRedis(port: number, dir: string): Promise<RedisChild> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const failed = new Promise<never>((_resolve, reject) => {
    child.once('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'ENOENT' ? new Error('redis-server is not installed: install the Debian package (apt-get install redis-server)') : err);
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${String(code)}: ${stderr}`)));
  });
  failed.catch(() => undefined);

  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));
  async function stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  }

  try {
    await Promise.race([waitForPong(port), failed]);
  } catch (err) {
    await stop();
    throw err;
  }
  return { stop };
}

async function waitForPong(port: number): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (await pingOnce(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server on port ${port} did not answer PING within ${START_TIMEOUT_MS} ms`);
}

function pingOnce(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}
