// The transfer CLI (`strata export|import|bundle`, deploy/transferCli.ts over deploy/transferHttp.ts) against the
// hostile-server kit (tests/support/hostileServer.ts): every case ends with exit 1 and one clear line on stderr, or
// with the documented outcome (a complete 2xx download is written as sent), the process lives on, the kit sees every
// connection closed and no socket or timer is left. The stall deadline is shortened through the CLI's io (`limits`);
// a download or an upload that keeps moving, or that waits on the CLI's own input or output, is not cut by it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { Command } from 'commander';
import { addTransferCommands, type TransferCliIo } from '../../deploy/transferCli.ts';
import {
  activeResources,
  hostileCases,
  settledWithoutLeaks,
  startHostileServer,
  type HostileCase,
  type HostileServer,
} from '../support/hostileServer.ts';

// Long enough for a loopback exchange on a loaded machine (the kit runs in this process); the stall cases take that long.
const STALL_MS = 3000;
const MAX_JSON_BYTES = 5 * 1024;
const BUNDLE = '{"formatVersion":1,"tables":[]}\n';

type Run = { code: number; stdout: string; stderr: string; written: number };

/** Runs one transfer command in this process, with an in-memory io; `dataIn`/`dataOut` stand for stdin/stdout. */
async function cli(args: readonly string[], extra: Partial<TransferCliIo> = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  let written = 0;
  let code = -1;
  const io: TransferCliIo = {
    env: {},
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    progressBar: false,
    dataIn: Readable.from([BUNDLE]),
    dataOut: new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.length;
        done();
      },
    }),
    limits: { stallMs: STALL_MS, maxJsonBytes: MAX_JSON_BYTES },
    ...extra,
  };
  const program = new Command('strata').exitOverride();
  addTransferCommands(program, io, (result) => (code = result));
  await program.parseAsync([...args], { from: 'user' });
  return { code, stdout, stderr, written };
}

/**
 * The one `error:` line of a refused run, without its prefix. Progress lines may come first, but only with a count:
 * a transfer refused before anything passed prints no "0 lines".
 */
function errorOf(run: Run): string {
  const lines = run.stderr.trimEnd().split('\n');
  const last = lines.pop() ?? '';
  for (const line of lines) assert.match(line, /^(bundle export|bundle import|export posts|import posts): [1-9]\d* (lines|bytes)$/, run.stderr);
  assert.match(last, /^error: /, run.stderr);
  return last.slice('error: '.length);
}

const where = ['--org', 'acme', '--project', 'blog'];
/** One command per request shape: a JSON GET first (export, import), a streamed download, an upload. */
const commands = {
  export: (url: string) => ['export', '--url', url, ...where, '--table', 'posts', '--revision', 'r1'],
  import: (url: string) => ['import', '--url', url, ...where, '--table', 'posts', '--branch', 'master'],
  'bundle export': (url: string) => ['bundle', 'export', '--url', url, ...where, '--revision', 'r1'],
  'bundle import': (url: string) => ['bundle', 'import', '--url', url, ...where, '--branch', 'master'],
} as const;
type Shape = 'json' | 'download' | 'upload';
const shapeOf: Record<keyof typeof commands, Shape> = { export: 'json', import: 'json', 'bundle export': 'download', 'bundle import': 'upload' };

const unreachable = (reason: string): RegExp => new RegExp(`^cannot reach https?://127\\.0\\.0\\.1:\\d+/[a-z-]+: ${reason}$`);
const NOT_HTTP = /^https?:\/\/127\.0\.0\.1:\d+\/[a-z-]+ answered with something that is not HTTP: [A-Za-z -]+ \(HPE_[A-Z_]+\)$/;
const HUNG_UP = unreachable('(socket hang up \\(ECONNRESET\\)|(read|write) (ECONNRESET|EPIPE))');
const TLS_GARBAGE = unreachable('TLS failed: [a-z0-9 ]+ \\(EPROTO\\)');
const TLS_UNTRUSTED = unreachable('self-signed certificate \\(DEPTH_ZERO_SELF_SIGNED_CERT\\)');
const STALLED = new RegExp(`stopped answering: nothing received for ${STALL_MS / 1000} s$`);
const NOT_WHOLE = new RegExp(`did not send its whole answer within ${STALL_MS / 1000} s$`);
const CLOSED = /the connection closed before the answer was complete/;
const TOO_LARGE = /is larger than 5120 bytes$/;
const REDIRECT = /^302 redirect to https?:\/\/127\.0\.0\.1:\d+\/redirect-loop\/\S+ not followed: give --url the instance's own address$/;
/** What each case ends as, by request shape: `0` (exit 0) or the refusal's message (exit 1). */
const expected: Record<HostileCase, Record<Shape, 0 | RegExp | null>> = {
  'oversize-one-chunk': { json: TOO_LARGE, download: 0, upload: TOO_LARGE },
  'oversize-stream': { json: TOO_LARGE, download: 0, upload: TOO_LARGE },
  'oversize-declared': { json: TOO_LARGE, download: STALLED, upload: TOO_LARGE },
  // A download that keeps moving has no total deadline: the drip would run on (see the steady download below).
  drip: { json: NOT_WHOLE, download: null, upload: NOT_WHOLE },
  'never-answer': { json: STALLED, download: STALLED, upload: STALLED },
  'headers-then-silence': { json: NOT_WHOLE, download: STALLED, upload: NOT_WHOLE },
  'reset-mid-body': { json: CLOSED, download: CLOSED, upload: CLOSED },
  'close-at-once': { json: HUNG_UP, download: HUNG_UP, upload: HUNG_UP },
  'short-body': { json: CLOSED, download: CLOSED, upload: CLOSED },
  'redirect-loop': { json: REDIRECT, download: REDIRECT, upload: REDIRECT },
  'invalid-json': { json: /is not JSON: \{"client_id": "https:\/\/x\/y",$/, download: 0, upload: /is not JSON: / },
  'huge-headers': { json: NOT_HTTP, download: NOT_HTTP, upload: NOT_HTTP },
  'gzip-bomb': {
    json: /the answer is compressed \(gzip\), which was not asked for$/,
    download: /compressed \(gzip\)/,
    upload: /compressed \(gzip\)/,
  },
  'invalid-http': { json: NOT_HTTP, download: NOT_HTTP, upload: NOT_HTTP },
  'tls-garbage': { json: TLS_GARBAGE, download: TLS_GARBAGE, upload: TLS_GARBAGE },
  'tls-untrusted': { json: TLS_UNTRUSTED, download: TLS_UNTRUSTED, upload: TLS_UNTRUSTED },
};

describe('the transfer CLI against hostile hosts', { concurrency: false }, () => {
  let kit: HostileServer;
  let baseline: Map<string, number>;
  let dir = '';
  before(async () => {
    kit = await startHostileServer();
    dir = mkdtempSync(join(tmpdir(), 'strata-cli-hostile-'));
    baseline = activeResources();
  });
  after(async () => {
    await kit?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [name, argsOf] of Object.entries(commands)) {
    const shape = shapeOf[name as keyof typeof commands];
    test(`strata ${name}: every case exits as documented, over http and https, and leaks nothing`, { timeout: 60_000 }, async () => {
      const runs = hostileCases.flatMap((hostileCase) =>
        (['http', 'https'] as const)
          .filter((protocol) => (protocol === 'https' || !hostileCase.startsWith('tls-')) && expected[hostileCase][shape] !== null)
          .map(async (protocol) => {
            const file = join(dir, `${name.replace(' ', '-')}-${hostileCase}-${protocol}.jsonl`);
            const args = [...argsOf(kit.urlOf(hostileCase, protocol, '')), ...(shape === 'download' ? ['--file', file] : [])];
            const run = await cli(args, { ca: [kit.ca] });
            const want = expected[hostileCase][shape];
            const label = `${hostileCase} over ${protocol}: exit ${run.code}, stderr ${JSON.stringify(run.stderr)}`;
            if (want === 0) {
              assert.equal(run.code, 0, label);
              assert.ok(readFileSync(file).length > 0, `${label}: the answer is written as sent`);
              return;
            }
            assert.equal(run.code, 1, label);
            assert.match(errorOf(run), want as RegExp, label);
            assert.ok(!existsSync(file), `${label}: no partial file is left`);
          }),
      );
      await Promise.all(runs);
      await settledWithoutLeaks(kit, baseline);
    });
  }

  test('a long error body is read up to 64 KiB and printed on one line without control characters', async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`{"error":{"code":"INTERNAL"}}\u001b[31m\n${'x'.repeat(1024 * 1024)}`);
      },
      async (url) => {
        const run = await cli(commands.export(url));
        assert.equal(run.code, 1);
        assert.match(run.stderr, /^error: 500 \{"error":\{"code":"INTERNAL"\}\} \[31m x+ … \(cut at 65536 bytes\)\n$/);
        assert.ok(run.stderr.length < 66 * 1024);
      },
    );
  });

  test('a server that stops reading the upload is refused after the stall deadline', async () => {
    // Never reads the body: once the socket buffers are full the CLI's writes wait, and the deadline runs.
    await withServer(
      () => undefined,
      async (url) => {
        const chunk = 'x'.repeat(64 * 1024);
        const dataIn = Readable.from(
          (function* () {
            for (let i = 0; i < 1024; i += 1) yield chunk;
          })(),
        );
        const run = await cli(commands['bundle import'](url), { dataIn });
        assert.equal(run.code, 1, run.stderr);
        assert.match(errorOf(run), STALLED);
      },
    );
  });

  test('input and output slower than the stall deadline, and a download dripping for longer, are not cut', async () => {
    const stallMs = 1500;
    const limits = { stallMs, maxJsonBytes: MAX_JSON_BYTES };
    const lines = Array.from({ length: 25 }, (_, i) => `{"line":${i}}\n`);
    await withServer(
      (req, res) => {
        if (req.method === 'POST') {
          let size = 0;
          req.on('data', (chunk: Buffer) => (size += chunk.length));
          req.on('end', () => res.end(JSON.stringify({ received: size })));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        // At once, more than the buffers between the server and the CLI's output hold.
        if (req.url?.startsWith('/big/')) return void res.end(`${'x'.repeat(1023)}\n`.repeat(8 * 1024));
        // 25 lines 150 ms apart: 3.75 s in all, never 1.5 s without a byte.
        let sent = 0;
        const timer = setInterval(() => {
          res.write(lines[sent]);
          sent += 1;
          if (sent === lines.length) {
            clearInterval(timer);
            res.end();
          }
        }, 150);
        res.on('close', () => clearInterval(timer));
      },
      async (url) => {
        const download = await cli(commands['bundle export'](url), { limits });
        assert.equal(download.code, 0, download.stderr);
        assert.equal(download.written, lines.join('').length);
        // The CLI's own input pauses past the deadline: the server is not waiting on it.
        const slowIn = Readable.from(
          (async function* () {
            yield BUNDLE;
            await new Promise((resolve) => setTimeout(resolve, stallMs * 1.5));
            yield BUNDLE;
          })(),
        );
        const upload = await cli(commands['bundle import'](url), { dataIn: slowIn, limits });
        assert.equal(upload.code, 0, upload.stderr);
        assert.deepEqual(JSON.parse(upload.stdout), { received: BUNDLE.length * 2 });
        // The CLI's own output holds the download back past the deadline.
        let first = true;
        const slowOut = new Writable({
          highWaterMark: 1,
          write(_chunk, _encoding, done) {
            if (!first) return done();
            first = false;
            setTimeout(done, stallMs * 1.5);
          },
        });
        const held = await cli(commands['bundle export'](`${url}/big`), { dataOut: slowOut, limits });
        assert.equal(held.code, 0, held.stderr);
        assert.match(held.stderr, /bundle export: 8192 lines\n$/);
      },
    );
  });

  test('after every hostile case the CLI still transfers against a well-behaved instance', async () => {
    await withServer(
      (req, res) => {
        const path = (req.url ?? '').split('?')[0] ?? '';
        const json = (value: unknown): void => void res.end(JSON.stringify(value));
        if (req.method === 'POST') return void req.on('data', () => undefined).on('end', () => json({ processed: 1, created: 1 }));
        if (path.endsWith('/branches')) return json({ edges: [{ node: { name: 'master' } }] });
        if (path.endsWith('/branch/master')) return json({ headRevisionId: 'h1', draftRevisionId: 'd1' });
        if (path === '/api/revision/r1/table/posts') return json({ count: 1 });
        if (path.endsWith('/export') || path.endsWith('/bundle')) return void res.end(JSON.stringify({ id: 'p1', data: {} }) + '\n');
        res.writeHead(404);
        res.end('{"error":{"code":"NOT_FOUND"}}');
      },
      async (url) => {
        const answer = '{"processed":1,"created":1}\n';
        const row = '{"id":"p1","data":{}}\n';
        const outputs: Record<keyof typeof commands, { stdout: string; written: number }> = {
          export: { stdout: '', written: row.length },
          import: { stdout: answer, written: 0 },
          'bundle export': { stdout: '', written: row.length },
          'bundle import': { stdout: answer, written: 0 },
        };
        for (const name of Object.keys(commands) as (keyof typeof commands)[]) {
          const run = await cli(commands[name](url));
          assert.equal(run.code, 0, `${name}: ${run.stderr}`);
          assert.deepEqual({ stdout: run.stdout, written: run.written }, outputs[name], name);
        }
        const refused = await cli(['export', '--url', url, ...where, '--table', 'nope', '--revision', 'r1']);
        assert.deepEqual([refused.code, refused.stderr], [1, 'error: 404 {"error":{"code":"NOT_FOUND"}}\n']);
      },
    );
    await settledWithoutLeaks(kit, baseline);
  });
});

/** A loopback server for one test; closed (with every connection) when `body` is done. */
async function withServer(handle: (req: IncomingMessage, res: ServerResponse) => void, body: (url: string) => Promise<void>): Promise<void> {
  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  try {
    await body(`http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
