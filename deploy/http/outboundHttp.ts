import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { addressLiteralOf, isPublicAddress } from '../../contracts/index.ts';
import type { OutboundFailureKind, OutboundHttp, OutboundRequest, OutboundResult } from '../../contracts/index.ts';

const DISALLOWED = 'the host is not a public address';

/**
 * A `lookup` that refuses non-public answers: the socket connects only to an address this function returned, so a
 * DNS answer that changes between a check and the connect (rebinding) cannot reach an internal host.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { family: options.family ?? 0, hints: options.hints ?? 0, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const usable = allowPrivate ? addresses : addresses.filter((a) => isPublicAddress(a.address));
      if (usable.length === 0) return callback(Object.assign(new Error(DISALLOWED), { code: 'STRATA_DISALLOWED' }), '', 0);
      if (options.all === true) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      const first = usable[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}

function headersOf(res: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** A short, user-presentable line for a socket, TLS or parser error (never a stack). */
export function networkMessage(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown };
  const message = typeof e.message === 'string' && e.message !== '' ? e.message : 'connection failed';
  return typeof e.code === 'string' && !message.includes(e.code) ? `${message} (${e.code})` : message;
}

/**
 * The one client for hosts outside the deployment (contracts/ports/outboundHttp.ts). Every exchange runs under a
 * single deadline; it settles exactly once, and every way out destroys the request without an error argument, so no
 * 'error' event is ever emitted where nobody listens (a destroy with an error after the response had started used to
 * reach the TLS socket after the client had stopped listening, and killed the process). Each request gets its own
 * connection (`agent: false`): nothing is pooled with a host that may be hostile. Answers are taken as sent
 * (`Accept-Encoding: identity`; a compressed body is not inflated, so a compression bomb is just bytes counted
 * against `maxBodyBytes`).
 *
 * `ca`: certificates trusted in addition to the system's (a private deployment's own CA; tests).
 */
export function createOutboundHttp(options: { readonly ca?: readonly (string | Buffer)[] } = {}): OutboundHttp {
  return {
    send(request: OutboundRequest): Promise<OutboundResult> {
      const started = performance.now();
      const elapsed = (): number => Math.round(performance.now() - started);
      const fail = (kind: OutboundFailureKind, message: string, status: number | null = null): OutboundResult => ({
        ok: false,
        kind,
        message,
        status,
        durationMs: elapsed(),
      });
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        return Promise.resolve(fail('network', 'the URL is not valid'));
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.resolve(fail('network', 'only http and https URLs are fetched'));
      const literal = addressLiteralOf(url);
      // An address literal is connected to without a lookup: check it here (and again on connect).
      if (literal !== null && !request.allowPrivateAddresses && !isPublicAddress(literal)) {
        return Promise.resolve(fail('disallowed_address', DISALLOWED));
      }

      return new Promise<OutboundResult>((resolve) => {
        let settled = false;
        let req: ClientRequest | null = null;
        let res: IncomingMessage | null = null;
        const timer = setTimeout(
          () => settle(fail('timeout', `no complete answer within ${request.timeoutMs} ms`, res?.statusCode ?? null)),
          request.timeoutMs,
        );
        function settle(result: OutboundResult): void {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          // Destroyed without an error argument: nothing is emitted, whatever state the exchange was in.
          res?.destroy();
          req?.destroy();
          resolve(result);
        }
        const onError = (err: unknown): void => {
          const code = (err as { code?: unknown }).code;
          if (code === 'STRATA_DISALLOWED') settle(fail('disallowed_address', DISALLOWED));
          else settle(fail('network', networkMessage(err), res?.statusCode ?? null));
        };

        const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
        const body = request.body === undefined ? null : Buffer.from(request.body);
        try {
          req = send(url, {
            method: request.method,
            agent: false,
            lookup: guardedLookup(request.allowPrivateAddresses),
            ...(options.ca ? { ca: [...options.ca] } : {}),
            headers: Object.assign(
              {},
              request.headers,
              { 'accept-encoding': 'identity' },
              body !== null ? { 'content-length': String(body.length) } : {},
            ),
          });
        } catch (err) {
          // Invalid header values and the like throw synchronously.
          settle(fail('network', networkMessage(err)));
          return;
        }
        req.on('error', onError);
        req.on('socket', (socket: Socket) => {
          // A late error on the socket (after the response ended, or after a settle) must find a listener.
          socket.on('error', () => undefined);
          // The connected address, checked again (covers any lookup that did not go through ours).
          socket.once('connect', () => {
            if (!request.allowPrivateAddresses && !isPublicAddress(socket.remoteAddress ?? '')) settle(fail('disallowed_address', DISALLOWED));
          });
        });
        req.on('response', (answer: IncomingMessage) => {
          res = answer;
          const status = answer.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let size = 0;
          answer.on('error', onError);
          const declared = Number(answer.headers['content-length'] ?? Number.NaN);
          if (request.bodyHandling === 'keep' && declared > request.maxBodyBytes) {
            settle(fail('too_large', `the answer is larger than ${request.maxBodyBytes} bytes`, status));
            return;
          }
          answer.on('aborted', () => settle(fail('network', 'the connection closed before the answer was complete', status)));
          answer.on('data', (chunk: Buffer) => {
            if (settled || request.bodyHandling === 'discard') return;
            size += chunk.length;
            if (size > request.maxBodyBytes) {
              settle(fail('too_large', `the answer is larger than ${request.maxBodyBytes} bytes`, status));
              return;
            }
            chunks.push(chunk);
          });
          answer.on('end', () => {
            if (!answer.complete) {
              settle(fail('network', 'the connection closed before the answer was complete', status));
              return;
            }
            settle({ ok: true, status, headers: headersOf(answer), body: Buffer.concat(chunks), durationMs: elapsed() });
          });
          answer.on('close', () => settle(fail('network', 'the connection closed before the answer was complete', status)));
        });
        req.end(body ?? undefined);
      });
    },
  };
}
