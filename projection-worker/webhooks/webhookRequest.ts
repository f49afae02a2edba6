import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction, type Socket } from 'node:net';

/** Addresses that are not publicly routable (loopback, private, link-local, CGNAT, documentation, multicast, ...). */
const nonPublic = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) nonPublic.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['100::', 64], ['2001:db8::', 32], ['64:ff9b::', 96],
] as const) nonPublic.addSubnet(net, prefix, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !nonPublic.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export const DISALLOWED_ADDRESS = 'disallowed address';

/**
 * A `lookup` for the HTTP agent that refuses non-public addresses: the socket connects only to an address this
 * function returned, so a DNS answer that changes between a check and the connect (rebinding) cannot reach an
 * internal host.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const allowed = allowPrivate ? addresses : addresses.filter((a) => isPublicAddress(a.address));
      if (allowed.length === 0) return callback(new Error(DISALLOWED_ADDRESS), '', 0);
      if (options.all === true) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      const first = allowed[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}

export type SignedRequest = { readonly url: string; readonly messageId: string; readonly body: string; readonly secrets: readonly string[] };

export type AttemptResult = { readonly ok: boolean; readonly status: number | null; readonly durationMs: number; readonly error: string | null };

/** `v1,<base64 HMAC-SHA256(secret bytes, "{id}.{timestamp}.{body}")>` per secret, space-separated (Standard Webhooks). */
export function signatureHeader(messageId: string, timestamp: number, body: string, secrets: readonly string[]): string {
  const content = `${messageId}.${timestamp}.${body}`;
  return secrets
    .map((secret) => `v1,${createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64')).update(content).digest('base64')}`)
    .join(' ');
}

/**
 * One attempt (changes.md §6.2): POST with the Standard Webhooks headers; success is a 2xx within `timeoutMs`;
 * redirects are not followed (a 3xx fails); the connected address must be public unless `allowPrivate`.
 */
export function sendWebhookRequest(request: SignedRequest, options: { readonly timeoutMs: number; readonly allowPrivate: boolean; readonly nowMs: number }): Promise<AttemptResult> {
  const started = performance.now();
  const timestamp = Math.floor(options.nowMs / 1000);
  const url = new URL(request.url);
  const done = (ok: boolean, status: number | null, error: string | null): AttemptResult => ({
    ok,
    status,
    durationMs: Math.round(performance.now() - started),
    error,
  });
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !options.allowPrivate && !isPublicAddress(host)) return Promise.resolve(done(false, null, DISALLOWED_ADDRESS));
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = client.request(url, {
      method: 'POST',
      agent: false,
      lookup: guardedLookup(options.allowPrivate),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Strata-Webhooks/1',
        'webhook-id': request.messageId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(request.messageId, timestamp, request.body, request.secrets),
        'content-length': Buffer.byteLength(request.body),
      },
    });
    const timer = setTimeout(() => {
      finish(done(false, null, 'timeout'));
      req.destroy();
    }, options.timeoutMs);
    req.on('socket', (socket: Socket) => {
      // The connected address, checked again (covers IP literals and any lookup the agent did not route through us).
      socket.once('connect', () => {
        const remote = socket.remoteAddress ?? '';
        if (!options.allowPrivate && !isPublicAddress(remote)) {
          finish(done(false, null, DISALLOWED_ADDRESS));
          req.destroy();
        }
      });
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      res.resume();
      res.on('end', () => {
        if (status >= 200 && status < 300) finish(done(true, status, null));
        else if (status >= 300 && status < 400) finish(done(false, status, 'redirect not followed'));
        else finish(done(false, status, `HTTP ${status}`));
      });
      res.on('error', (err) => finish(done(false, status, err.message)));
    });
    req.on('error', (err) => finish(done(false, null, err.message === DISALLOWED_ADDRESS ? DISALLOWED_ADDRESS : err.message)));
    req.end(request.body);
  });
}
