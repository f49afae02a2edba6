import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';

/** Headers of one connection, never forwarded (RFC 9110 §7.6.1); `expect` is answered by this process. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
]);

export type HttpProxy = {
  /**
   * Sends `req` (its buffered `body`, else its stream) to the same path at the target and streams the answer back
   * with its status and headers (every Set-Cookie included). Calls `unavailable` when the target cannot be reached
   * before any byte of the answer was sent.
   */
  forward(req: Request, res: Response, body: Buffer | null, unavailable: () => void): void;
  close(): void;
};

/** Header names listed in `Connection` are hop-by-hop too. */
function connectionTokens(value: string | string[] | undefined): Set<string> {
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(
    text
      .split(',')
      .map((token) => token.trim().toLowerCase())
      .filter((token) => token !== ''),
  );
}

/** `[name, value, …]` pairs of `raw` without hop-by-hop headers (and without `drop`), in their order and case. */
function endToEnd(raw: readonly string[], connection: string | string[] | undefined, drop: ReadonlySet<string>): string[] {
  const tokens = connectionTokens(connection);
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || tokens.has(lower) || drop.has(lower)) continue;
    out.push(name, raw[i + 1] as string);
  }
  return out;
}

const REQUEST_DROPS = new Set(['x-forwarded-for', 'x-request-id']);
const NO_DROPS = new Set<string>();

/** A reverse proxy to `baseUrl` on node:http with keep-alive connections (no body or header rewriting). */
export function createHttpProxy(baseUrl: string, log: Logger): HttpProxy {
  const target = new URL(baseUrl);
  const secure = target.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const request = secure ? httpsRequest : httpRequest;
  const basePath = target.pathname.replace(/\/+$/, '');

  function copyResponse(upstream: IncomingMessage, res: Response): void {
    // The answer is the target's: drop what this process set so far (request id, cache headers) and take its own.
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    const pairs = endToEnd(upstream.rawHeaders, upstream.headers.connection, NO_DROPS);
    const grouped = new Map<string, { name: string; values: string[] }>();
    for (let i = 0; i < pairs.length; i += 2) {
      const name = pairs[i] as string;
      const entry = grouped.get(name.toLowerCase()) ?? { name, values: [] };
      entry.values.push(pairs[i + 1] as string);
      grouped.set(name.toLowerCase(), entry);
    }
    for (const { name, values } of grouped.values()) res.setHeader(name, values.length === 1 ? (values[0] as string) : values);
    res.statusCode = upstream.statusCode ?? 502;
    if (upstream.statusMessage) res.statusMessage = upstream.statusMessage;
    // Streams (MCP's SSE) need their headers now, not with the first event.
    res.flushHeaders();
    upstream.on('error', () => res.destroy());
    upstream.pipe(res);
  }

  return {
    forward(req, res, body, unavailable) {
      const headers = endToEnd(req.rawHeaders, req.headers.connection, REQUEST_DROPS);
      const prior = req.headers['x-forwarded-for'];
      const client = req.socket.remoteAddress ?? '';
      // The command process sees this process as its peer: pass the client on (honoured per its TRUST_PROXY).
      headers.push('X-Forwarded-For', typeof prior === 'string' && prior !== '' ? `${prior}, ${client}` : client);
      headers.push('X-Request-Id', String(res.locals.requestId ?? ''));
      const upstream = request({
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: basePath + req.originalUrl,
        headers,
        agent,
      });
      upstream.on('response', (answer) => copyResponse(answer, res));
      upstream.on('error', (err) => {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        req.log?.warn({ err }, 'command process unreachable');
        unavailable();
      });
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
      });
      if (body !== null) upstream.end(body);
      else req.pipe(upstream);
    },
    close() {
      agent.destroy();
      log.debug('command proxy closed');
    },
  };
}
