import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';

/**
 * jongodb: a MongoDB-wire-compatible in-memory server shipped as an npm binary. It is a partial-fidelity test
 * stand-in, not MongoDB (no drop/create/listCollections, few aggregation expressions, UTF-16 string order, no write
 * conflicts between transactions); the view-store contract suite names what it skips there.
 */
export type JongodbServer = { readonly url: string; stop(): Promise<void> };

const PACKAGE = '@jongodb/memory-server-bin-linux-x64-gnu';
const READY = 'JONGODB_URI=';
const START_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 5000;

function binaryPath(): string {
  const require = createRequire(import.meta.url);
  let manifest: string;
  try {
    manifest = require.resolve(`${PACKAGE}/package.json`);
  } catch {
    throw new Error(`${PACKAGE} is not installed (a devDependency for linux-x64 with glibc): run npm install`);
  }
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { jongodb?: { binary?: string } };
  return join(dirname(manifest), pkg.jongodb?.binary ?? 'bin/jongodb');
}

/** Starts jongodb as a single-node replica set (transactions need one) on a free loopback port; `stop` kills it. */
export async function startJongodb(): Promise<JongodbServer> {
  // Port 0: the server binds a free port itself and prints its URI, so no other process can take the port meanwhile.
  const child = spawn(binaryPath(), ['--host=127.0.0.1', '--port=0', '--topology-profile=singleNodeReplicaSet'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A test process that ends without calling stop() must not leave the server running.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);

  async function stop(): Promise<void> {
    process.off('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  const uri = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`jongodb did not start within ${START_TIMEOUT_MS} ms: ${output}`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-4000);
      const line = output.split('\n').find((l) => l.startsWith(READY));
      if (line !== undefined && output.includes('\n', output.indexOf(READY))) {
        clearTimeout(timer);
        resolve(line.slice(READY.length).trim());
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`jongodb exited with ${String(code)}: ${output}`));
    });
  });
  uri.catch(() => undefined);

  try {
    const url = await uri;
    await waitForConnection(new URL(url).port);
    return { url, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function waitForConnection(port: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      socket.setTimeout(1000, () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(false));
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`jongodb on port ${port} did not accept connections within ${START_TIMEOUT_MS} ms`);
}
