import type { OutboundHttp } from '../../contracts/index.ts';

/**
 * A plain OutboundHttp on node's fetch for tests whose receivers are friendly (the product's client, with its
 * address rules and hostile-host guards, is deploy's createOutboundHttp, tested in tests/integration).
 */
export const fetchOutboundHttp: OutboundHttp = {
  async send(request) {
    const started = performance.now();
    try {
      const res = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(request.timeoutMs),
      });
      const body = Buffer.from(await res.arrayBuffer());
      return { ok: true, status: res.status, headers: Object.fromEntries(res.headers), body, durationMs: Math.round(performance.now() - started) };
    } catch (err) {
      const timeout = (err as Error).name === 'TimeoutError';
      return {
        ok: false,
        kind: timeout ? 'timeout' : 'network',
        message: (err as Error).message,
        status: null,
        durationMs: Math.round(performance.now() - started),
      };
    }
  },
};
