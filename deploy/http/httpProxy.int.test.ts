// The write-forwarding proxy (a query process forwards writes to COMMAND_URL) is an outbound HTTP client too: driven
// against every case of the hostile-server kit, the proxying process must stay alive and answering, answer 503
// when the target fails before its answer starts, cut the client's connection when it fails later, and let go of
// every upstream connection once the client has gone (tests/integration/outboundClients.int.test.ts runs the same kit
// against the outbound client of webhooks and metadata documents).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { pino } from 'pino';
import { activeResources, hostileCases, startHostileServer, waitUntil, type HostileServer } from '../../tests/support/hostileServer.ts';
import { createHttpProxy, type HttpProxy } from './httpProxy.ts';

let kit: HostileServer;
let proxy: HttpProxy;
let front: Server;
let frontUrl = '';

before(async () => {
  kit = await startHostileServer();
  const target = new URL(kit.urlOf('never-answer', 'http'));
  proxy = createHttpProxy(`http://${target.host}`, pino({ level: 'silent' }));
  const app = express();
  app.use((req, res) => proxy.forward(req, res, null, () => void res.status(503).json({ code: 'SERVICE_UNAVAILABLE' })));
  front = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => front.once('listening', resolve));
  frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise((resolve) => front?.close(resolve));
  await kit?.stop();
});

/**
 * What a client of the proxying process sees within 3 s: a status and whether the body arrived whole. Raw node:http
 * (fetch would inflate the gzip bomb and spend the deadline doing it).
 */
function through(path: string): Promise<string> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(outcome);
    };
    const req = request(`${frontUrl}${path}`, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => done(`${res.statusCode} ${res.complete ? 'complete' : 'cut'}`));
      res.on('error', () => done(`${res.statusCode} cut`));
      res.on('close', () => done(`${res.statusCode} cut`));
    });
    const timer = setTimeout(() => done('no answer in time'), 3000);
    req.on('error', () => done('connection failed'));
    req.end();
  });
}

describe('write forwarding against a hostile target', () => {
  test('every case leaves the proxying process answering, and nothing behind once its client has gone', { timeout: 60_000 }, async () => {
    const baseline = activeResources();
    const seen = await Promise.all(hostileCases.filter((c) => !c.startsWith('tls-')).map(async (c) => `${c}: ${await through(`/${c}/x`)}`));
    const want: Record<string, string> = {
      'oversize-one-chunk': '200 complete',
      'oversize-stream': '200 complete',
      'redirect-loop': '302 complete',
      'invalid-json': '200 complete',
      'gzip-bomb': '200 complete',
      'huge-headers': '503 complete',
      'invalid-http': '503 complete',
      'close-at-once': '503 complete',
    };
    for (const line of seen) {
      const [name, outcome] = line.split(': ') as [string, string];
      if (want[name]) assert.equal(outcome, want[name], line);
      else assert.ok(['no answer in time', '200 cut', 'connection failed'].includes(outcome) || outcome.endsWith(' cut'), line);
    }
    // The proxying process still answers.
    assert.equal(await through('/redirect-loop/again'), '302 complete');
    // Connections whose answer was complete may stay in the keep-alive pool for the next write; every other one closes.
    const pooled = seen.filter((line) => line.endsWith('complete')).length;
    await waitUntil(() => kit.openConnections() <= pooled, 'the proxy to close every upstream connection of an unfinished answer');
    proxy.close();
    await waitUntil(() => kit.openConnections() === 0, 'the pool to close');
    await waitUntil(() => {
      const now = activeResources();
      return ['TCPSocketWrap', 'Timeout'].every((kind) => (now.get(kind) ?? 0) <= (baseline.get(kind) ?? 0) + 2);
    }, 'no leaked sockets or timers');
  });
});
