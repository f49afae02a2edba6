import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { networkMessage } from './http/outboundHttp.ts';

/**
 * Bounds of the transfer CLI's requests (docs/reference/portability.md, *CLI*). `stallMs`: how long the server may
 * leave the CLI waiting on it (connecting, taking the upload, answering) without a byte moving; a download or an
 * upload that keeps moving has no total deadline. A body read whole (a JSON answer, an error body) must arrive within
 * `stallMs` of its headers. `maxJsonBytes`: the largest JSON answer read. `maxErrorBytes`: how much of an error body
 * is read and printed.
 */
export const TRANSFER_LIMITS = { stallMs: 120_000, maxJsonBytes: 16 * 1024 * 1024, maxErrorBytes: 64 * 1024 } as const;
export type TransferLimits = { readonly [K in keyof typeof TRANSFER_LIMITS]: number };

/** A request the server refused or that failed: the CLI prints the message and exits with 1. */
export class Refused extends Error {}

/** One Strata instance: its base URL (no trailing slash), the credential headers, the bounds. */
export type TransferTarget = {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly limits: TransferLimits;
  /** Trusted certificates replacing the default ones (tests; in a shell NODE_EXTRA_CA_CERTS adds one). */
  readonly ca?: readonly (string | Buffer)[];
};

/**
 * The upload of a POST, streamed with backpressure, so memory stays flat whatever its size: node:http, not fetch,
 * whose stream bodies are read ahead of the socket (a 200 MB upload to a server reading at 40 MB/s peaked at 272 MB
 * RSS with fetch, 75 MB this way).
 */
export type Upload = { readonly body: Readable; readonly contentType: string };

/** A printable line: control characters (a hostile server's terminal escapes, newlines) become spaces. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
}

const seconds = (ms: number): string => `${ms / 1000} s`;

/** A short line for a socket, TLS or parser error: the outbound client's, with OpenSSL's long line cut to its reason. */
function transferNetworkMessage(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown };
  // OpenSSL's own line (`write EPROTO 80AC…:error:0A000410:SSL routines:ssl3_read_bytes:<reason>:<file>:…`): its reason.
  const openssl = typeof e.message === 'string' ? /SSL routines:[^:]*:([^:]+)/.exec(e.message) : null;
  if (openssl !== null) return `TLS failed: ${openssl[1]}${typeof e.code === 'string' ? ` (${e.code})` : ''}`;
  return networkMessage(err);
}

/**
 * Reads a body whole, at most `max` bytes; `tooLarge` is thrown beyond (or keeps the first `max` bytes when null).
 * Rejects when the connection closes before the body's end.
 */
function readWhole(res: IncomingMessage, max: number, tooLarge: Refused | null, closed: () => Refused): Promise<{ bytes: Buffer; cut: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (cut: boolean): void => resolve({ bytes: Buffer.concat(chunks).subarray(0, max), cut });
    res.on('data', (chunk: Buffer) => {
      // Past the bound nothing more is kept (chunks parsed in the same turn arrive before the destroy).
      if (size > max) return;
      size += chunk.length;
      chunks.push(chunk);
      if (size <= max) return;
      if (tooLarge !== null) reject(tooLarge);
      else done(true);
    });
    res.on('end', () => (res.complete ? done(false) : reject(closed())));
    res.on('error', () => reject(closed()));
    res.on('close', () => reject(closed()));
  });
}

/**
 * One request to the instance, settled exactly once: `read` consumes a 2xx answer (`whole`: a body read whole, which
 * gets one deadline from its headers; else a stream, which gets an idle one). Any other status, a redirect (never
 * followed), a compressed answer (identity was asked for), a network or TLS error, or a stall rejects with `Refused`.
 * Every way out destroys the request and the answer without an error argument, so no 'error' is emitted where nobody
 * listens. Each request has an agent of its own, destroyed with it: nothing is pooled, no socket outlives it. The
 * agent keeps connections alive rather than announcing `Connection: close`: on a closing connection a server that
 * refuses an upload early (404 before reading the file) closes with the body unread, and the reset that follows can
 * destroy its answer before the CLI reads it (`write EPIPE` instead of the refusal, 1 run in 6 against `strata serve`).
 */
function exchange<T>(
  target: TransferTarget,
  request: { readonly method: 'GET' | 'POST'; readonly path: string; readonly upload: Upload | null; readonly whole: boolean },
  read: (res: IncomingMessage, closed: () => Refused) => Promise<T>,
): Promise<T> {
  const where = target.url;
  const { upload } = request;
  let url: URL;
  try {
    url = new URL(`${target.url}${request.path}`);
  } catch {
    return Promise.reject(new Refused(`${where} is not a valid URL`));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new Refused(`${where} is not an http or https URL`));
  const { stallMs, maxErrorBytes } = target.limits;

  return new Promise<T>((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
    let settled = false;
    let req: ClientRequest | null = null;
    let res: IncomingMessage | null = null;
    // The stall deadline runs while the server owes the CLI something: while it connects, while it has not taken the
    // bytes written so far, once it has the whole request, and while its answer is read (not while the CLI's own
    // output holds the answer back, nor while the CLI's input is slow to give the next bytes).
    let connected = false;
    let needDrain = false;
    let sent = upload === null;
    let paused = false;
    let ended = false;
    let whole = false;
    let timer: NodeJS.Timeout | undefined;
    let waiting = false;
    const owed = (): boolean => (res !== null ? !paused && !ended : !connected || needDrain || sent);
    const stalled = (): void =>
      finish(
        whole
          ? new Refused(`${where} did not send its whole answer within ${seconds(stallMs)}`)
          : new Refused(`${where} stopped answering: nothing received for ${seconds(stallMs)}`),
      );
    /** Re-reads what is owed; `moved`: the server just did something, so its deadline starts again. */
    const watch = (moved: boolean): void => {
      if (settled) return;
      const now = owed();
      if (now && (moved || !waiting)) {
        clearTimeout(timer);
        timer = setTimeout(stalled, stallMs);
      } else if (!now) clearTimeout(timer);
      waiting = now;
    };
    function finish(err: Refused | null, value?: T): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      res?.destroy();
      req?.destroy();
      agent.destroy();
      // A server that answered before the end of the upload reads no more of it.
      if (upload !== null && !upload.body.readableEnded) upload.body.destroy();
      if (err !== null) reject(err);
      else resolve(value as T);
    }
    const closed = (): Refused => new Refused(`${where}: the connection closed before the answer was complete`);

    const send = secure ? httpsRequest : httpRequest;
    try {
      req = send(url, {
        method: request.method,
        agent,
        ...(target.ca ? { ca: [...target.ca] } : {}),
        headers: { ...target.headers, 'accept-encoding': 'identity', ...(upload !== null ? { 'content-type': upload.contentType } : {}) },
      });
    } catch (err) {
      // Invalid header values (a credential with a newline) throw synchronously.
      return void finish(new Refused(`cannot send the request to ${where}: ${transferNetworkMessage(err)}`));
    }
    watch(true);
    req.on('error', (err: Error & { code?: unknown }) => {
      if (res !== null) return finish(closed());
      // llhttp's codes: bytes came back, but not an HTTP answer.
      if (typeof err.code === 'string' && err.code.startsWith('HPE_')) {
        return finish(new Refused(`${where} answered with something that is not HTTP: ${transferNetworkMessage(err).replace(/^Parse Error: /, '')}`));
      }
      finish(new Refused(`cannot reach ${where}: ${transferNetworkMessage(err)}`));
    });
    req.on('socket', (socket) => {
      // A late error (after a settle) must find a listener.
      socket.on('error', () => undefined);
      socket.once(secure ? 'secureConnect' : 'connect', () => {
        connected = true;
        watch(true);
      });
    });
    req.on('drain', () => {
      needDrain = false;
      watch(true);
    });
    req.on('response', (answer: IncomingMessage) => {
      res = answer;
      answer.on('error', () => undefined);
      const status = answer.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        const location = oneLine(String(answer.headers.location ?? '')).slice(0, 200);
        return finish(new Refused(`${status} redirect to ${location || '(no location)'} not followed: give --url the instance's own address`));
      }
      const ok = status >= 200 && status < 300;
      const encoding = answer.headers['content-encoding'];
      if (ok && encoding !== undefined && encoding !== 'identity') {
        return finish(new Refused(`${where}: the answer is compressed (${oneLine(encoding)}), which was not asked for`));
      }
      whole = !ok || request.whole;
      watch(true);
      const moved = (): void => watch(!whole);
      answer.on('pause', () => {
        paused = true;
        watch(false);
      });
      answer.on('resume', () => {
        paused = false;
        moved();
      });
      answer.on('end', () => {
        ended = true;
        watch(false);
      });
      const reading = ok
        ? read(answer, closed)
        : readWhole(answer, maxErrorBytes, null, closed).then(({ bytes, cut }) => {
            throw new Refused(`${status} ${oneLine(bytes.toString('utf8'))}${cut ? ` … (cut at ${maxErrorBytes} bytes)` : ''}`);
          });
      // Attached in the tick `read` started reading: no chunk goes by unseen.
      answer.on('data', moved);
      reading.then(
        (value) => finish(null, value),
        (err: unknown) => finish(err instanceof Refused ? err : new Refused(`${closed().message} (${transferNetworkMessage(err)})`)),
      );
    });

    if (upload === null) {
      req.end();
      return;
    }
    const { body } = upload;
    body.on('error', (err) => finish(new Refused(`cannot read the data to send: ${err.message}`)));
    body.on('data', (chunk: Buffer) => {
      if (settled || req === null || req.write(chunk)) return;
      needDrain = true;
      body.pause();
      watch(false);
      req.once('drain', () => body.resume());
    });
    body.on('end', () => {
      sent = true;
      req?.end();
      watch(false);
    });
  });
}

/** A JSON answer (GET, or a POST of `upload`), at most `maxJsonBytes`. */
export function requestJson(target: TransferTarget, method: 'GET' | 'POST', path: string, upload: Upload | null = null): Promise<unknown> {
  const max = target.limits.maxJsonBytes;
  const what = `${target.url}: the answer to ${method} ${path}`;
  return exchange(target, { method, path, upload, whole: true }, async (res, closed) => {
    const tooLarge = new Refused(`${what} is larger than ${max} bytes`);
    if (Number(res.headers['content-length'] ?? 0) > max) throw tooLarge;
    const text = (await readWhole(res, max, tooLarge, closed)).bytes.toString('utf8');
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Refused(`${what} is not JSON: ${oneLine(text).slice(0, 200)}`);
    }
  });
}

/** A GET whose answer `consume` streams (an export): no total deadline, the stall one only. */
export function requestStream(target: TransferTarget, path: string, consume: (body: Readable) => Promise<void>): Promise<void> {
  return exchange(target, { method: 'GET', path, upload: null, whole: false }, (res) => consume(res));
}
