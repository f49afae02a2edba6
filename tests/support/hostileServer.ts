// A loopback server that answers the way a hostile or broken host on the internet can: too much, too slowly, never,
// with a broken TLS or HTTP stream, with a redirect loop, invalid JSON, huge headers or a compression bomb. Every
// outbound HTTP client of the product is driven against each case (the outbound client and metadata documents in
// tests/integration/outboundClients.int.test.ts and tests/e2e/oauthHostileDocuments.e2e.test.ts, the write forwarding
// proxy in deploy/http/httpProxy.int.test.ts, the transfer CLI in tests/integration/transferCliHostile.int.test.ts):
// the process must stay alive and answering, report the failure the documented way and leak nothing. The
// certificate is made now by openssl (never downloaded).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** What each path answers. `tls-garbage` and `tls-untrusted` are separate listeners (see `urlOf`). */
export const hostileCases = [
  'oversize-one-chunk',
  'oversize-stream',
  'oversize-declared',
  'drip',
  'never-answer',
  'headers-then-silence',
  'reset-mid-body',
  'close-at-once',
  'short-body',
  'redirect-loop',
  'invalid-json',
  'huge-headers',
  'gzip-bomb',
  'invalid-http',
  'tls-garbage',
  'tls-untrusted',
] as const;
export type HostileCase = (typeof hostileCases)[number];

/** Cases whose answer has a 2xx status line and a complete, small body a client could accept as it is. */
export const hostileJsonDocument = (selfUrl: string): string =>
  JSON.stringify({ client_id: selfUrl, client_name: 'Hostile', redirect_uris: ['http://127.0.0.1:9/cb'] });

export type HostileServer = {
  /** A URL on the kit for `hostileCase`, over `https` (trusted through `ca`) or `http`. */
  urlOf(hostileCase: HostileCase, protocol: 'http' | 'https', path?: string): string;
  /** The kit's certificate: trust it (`ca` option, NODE_EXTRA_CA_CERTS) to reach the https cases. */
  readonly caPath: string;
  readonly ca: Buffer;
  /** Connections the kit still holds open; a client that let go of everything brings this to 0. */
  openConnections(): number;
  /** Requests the kit received, by case. */
  hits(hostileCase: HostileCase): number;
  stop(): Promise<void>;
};

const DRIP_MS = 200;

/** The TCP socket under a TLS socket (the TLS socket itself when it is plain TCP). */
function rawSocketOf(socket: Socket): Socket {
  return (socket as Socket & { _parent?: Socket | null })._parent ?? socket;
}

function openssl(dir: string, name: string): { key: Buffer; cert: Buffer; certPath: string } {
  const keyPath = join(dir, `${name}.key`);
  const certPath = join(dir, `${name}.pem`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyPath), cert: readFileSync(certPath), certPath };
}

function listen(server: HttpServer | TcpServer): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  });
}

/** Starts the kit: one http and one https listener serving every case by path, plus the two broken-TLS listeners. */
export async function startHostileServer(): Promise<HostileServer> {
  const dir = mkdtempSync(join(tmpdir(), 'strata-hostile-'));
  const trusted = openssl(dir, 'trusted');
  const untrusted = openssl(dir, 'untrusted');
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const hitCounts = new Map<string, number>();
  const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));

  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  };
  const every = (ms: number, socket: Socket, tick: () => void): void => {
    const timer = setInterval(() => (socket.destroyed ? stopTimer() : tick()), ms);
    const stopTimer = (): void => {
      clearInterval(timer);
      timers.delete(timer);
    };
    timers.add(timer);
    socket.on('close', stopTimer);
  };

  function handle(req: IncomingMessage, res: ServerResponse, protocol: 'http' | 'https', port: () => number): void {
    const hostileCase = (req.url ?? '/').split('/')[1] ?? '';
    hitCounts.set(hostileCase, (hitCounts.get(hostileCase) ?? 0) + 1);
    req.resume();
    const socket = req.socket;
    const self = `${protocol}://127.0.0.1:${port()}${req.url ?? '/'}`;
    switch (hostileCase as HostileCase) {
      case 'oversize-one-chunk':
        // A little over 5 KiB arriving with the end of the answer: the case that killed the server.
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ client_id: self, padding: 'x'.repeat(6000) }));
      case 'oversize-stream': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const pump = (): void => {
          while (sent < 64 && !res.destroyed) {
            sent += 1;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        return pump();
      }
      case 'oversize-declared':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024 * 1024) });
        return void res.write('{');
      case 'drip':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
        return every(DRIP_MS, socket, () => res.write(' '));
      case 'never-answer':
        return;
      case 'headers-then-silence':
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.flushHeaders();
      case 'reset-mid-body':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4000' });
        res.write('{"client_id":"');
        // A TCP reset; under TLS the reset goes to the raw socket beneath (a TLSSocket has no handle to reset).
        return void setTimeout(() => rawSocketOf(socket).resetAndDestroy(), 50);
      case 'close-at-once':
        return void socket.destroy();
      case 'short-body':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"a":');
        return void setTimeout(() => socket.end(), 20);
      case 'redirect-loop':
        res.writeHead(302, { location: self });
        return void res.end();
      case 'invalid-json':
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('{"client_id": "https://x/y", ');
      case 'huge-headers':
        res.writeHead(200, { 'content-type': 'application/json', 'x-padding': 'p'.repeat(96 * 1024) });
        return void res.end('{}');
      case 'gzip-bomb':
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(bomb.length) });
        return void res.end(bomb);
      case 'invalid-http':
        // Not HTTP at all after the status line.
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: nonsense\r\n\0\0\0garbage\r\n\r\n');
        return void socket.destroy();
      default:
        res.writeHead(404);
        return void res.end();
    }
  }

  let httpPort = 0;
  let httpsPort = 0;
  const http = createHttpServer((req, res) => handle(req, res, 'http', () => httpPort));
  const https = createHttpsServer({ key: trusted.key, cert: trusted.cert }, (req, res) => handle(req, res, 'https', () => httpsPort));
  // Handshakes fail on purpose in the TLS cases; the kit must not die of them either.
  https.on('tlsClientError', () => undefined);
  const tlsUntrusted = createHttpsServer({ key: untrusted.key, cert: untrusted.cert }, (_req, res) => res.end('{}'));
  tlsUntrusted.on('tlsClientError', () => undefined);
  // Answers a TLS ClientHello with bytes that are no TLS record.
  const tlsGarbage = createTcpServer((socket) => {
    socket.once('data', () => socket.end(Buffer.from('\x15\x03\x03\x00\x02\x02\x28garbage that is not TLS')));
  });
  for (const server of [http, https, tlsUntrusted]) server.on('connection', track);
  tlsGarbage.on('connection', track);
  for (const server of [http, https]) server.on('clientError', (_err, socket) => socket.destroy());
  httpPort = await listen(http);
  httpsPort = await listen(https);
  const untrustedPort = await listen(tlsUntrusted);
  const garbagePort = await listen(tlsGarbage);

  return {
    caPath: trusted.certPath,
    ca: trusted.cert,
    urlOf(hostileCase, protocol, path = '/doc.json') {
      if (hostileCase === 'tls-garbage') return `https://127.0.0.1:${garbagePort}/${hostileCase}${path}`;
      if (hostileCase === 'tls-untrusted') return `https://127.0.0.1:${untrustedPort}/${hostileCase}${path}`;
      return `${protocol}://127.0.0.1:${protocol === 'https' ? httpsPort : httpPort}/${hostileCase}${path}`;
    },
    openConnections: () => sockets.size,
    hits: (hostileCase) => hitCounts.get(hostileCase) ?? 0,
    async stop() {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      await Promise.all([http, https, tlsUntrusted, tlsGarbage].map((server) => new Promise((resolve) => server.close(resolve))));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until `condition` holds (polling), or fails naming `what` after `timeoutMs`. */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Active handles of this process by kind (sockets, TLS wraps, timers), to compare before and after a case. */
export function activeResources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

/** Sockets, TLS wraps and timers of this process that are not in `baseline` (`kind +n`). */
export function leakedSince(baseline: Map<string, number>): string[] {
  return [...activeResources()]
    .filter(([kind, count]) => count > (baseline.get(kind) ?? 0))
    .map(([kind, count]) => `${kind} +${count - (baseline.get(kind) ?? 0)}`);
}

/** Waits until the kit holds no connection open and this process has no handle `baseline` lacks. */
export async function settledWithoutLeaks(kit: HostileServer, baseline: Map<string, number>): Promise<void> {
  await waitUntil(() => kit.openConnections() === 0, 'the kit to see every connection closed');
  await waitUntil(() => leakedSince(baseline).length === 0, `no leaked handles (${leakedSince(baseline).join(', ')})`);
}
