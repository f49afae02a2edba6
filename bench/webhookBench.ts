// Webhook delivery lag and change-feed fan-out (issue 17, changes.md §5–§7) through a real `strata serve`:
// 1. commits paced at each asked rate (row write + commit, spread over 8 projects) to one webhook on
//    `revision.committed` with a fast loopback receiver: lag from the event's append (payload `timestamp`) to its
//    first 2xx answer; 200/s (more than one server process takes on this machine) and 50/s (a rate it sustains);
// 2. the same load at the first rate with the webhook deleted and 100 open change-feed streams of the project set:
//    events/s received over all streams and lag from append to arrival on a stream.
// Run alone: npx tsx bench/webhookBench.ts
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { percentile } from './embeddedStack.ts';
import { ADMIN_PASSWORD, createApiCaller, freePort, startStrata, waitFor } from './strataServer.ts';

type BenchFigure = { name: string; value: number; unit: string; note?: string };

const PROJECTS = 8;
const STREAMS = 100;

/** `rates`: commits/s offered in the webhook runs (the first also paces the feed run). */
export async function runWebhookBench(rates: readonly number[] = [200, 50], seconds = 15): Promise<BenchFigure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-webhook-bench-'));
  const port = await freePort();
  const env = {
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    EVENT_STREAMS_PER_PRINCIPAL: String(STREAMS + 10),
    WEBHOOK_CONCURRENCY: '10',
  };
  const server = startStrata(dir, port, [], env);
  const url = `http://127.0.0.1:${port}`;
  let firstSuccess = new Map<string, number>(); // webhook-id -> lag ms of its first 2xx
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
      if (!firstSuccess.has(id)) firstSuccess.set(id, Date.now() - Date.parse(body.timestamp));
      res.writeHead(204).end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await new Promise((resolve) => receiver.once('listening', resolve));
  const load = loadavg()[0] ?? Number.NaN;
  try {
    await waitFor(`${url}/health/live`);
    const call = createApiCaller(url);
    const token = (await call('POST', '/api/auth/login', { username: 'admin', password: ADMIN_PASSWORD })).json.accessToken as string;
    const api = (method: string, path: string, body?: unknown) => call(method, `/api${path}`, body, token);
    const schema = { type: 'object', properties: { n: { type: 'number', default: 0 } }, additionalProperties: false, required: ['n'] };
    const projects = Array.from({ length: PROJECTS }, (_, i) => `p${i}`);
    for (const name of projects) {
      await api('POST', '/organization/admin/projects', { projectName: name });
      const draft = (await api('GET', `/organization/admin/project/${name}/branch/master`)).json.draftRevisionId as string;
      await api('POST', `/revision/${draft}/tables`, { tableId: 'items', schema });
      await api('POST', `/revision/${draft}/table/items/rows`, { rowId: 'r', data: { n: 0 } });
    }

    /** Commits at `ratePerSecond` over all projects for `seconds` (each project paced on its own); returns commits made. */
    async function commitLoad(ratePerSecond: number): Promise<{ commits: number; wallSeconds: number }> {
      const perProject = ratePerSecond / PROJECTS;
      const started = Date.now();
      let commits = 0;
      await Promise.all(
        projects.map(async (name) => {
          for (let i = 0; i < perProject * seconds; i++) {
            const due = started + (i * 1000) / perProject;
            if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
            const draft = (await api('GET', `/organization/admin/project/${name}/branch/master`)).json.draftRevisionId as string;
            await api('PUT', `/revision/${draft}/table/items/row/r`, { data: { n: i + 1 } });
            await api('POST', `/organization/admin/project/${name}/branch/master/revisions`, { comment: `c${i}` });
            commits++;
          }
        }),
      );
      return { commits, wallSeconds: (Date.now() - started) / 1000 };
    }

    // 1. Webhook delivery lag, once per rate, each with a fresh webhook.
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const figures: BenchFigure[] = [];
    for (const rate of rates) {
      firstSuccess = new Map();
      const hook = (await api('POST', '/organization/admin/webhooks', { url: receiverUrl, types: ['revision.committed'] })).json.webhook as {
        id: string;
      };
      const hooked = await commitLoad(rate);
      const deadline = Date.now() + 120_000;
      while (firstSuccess.size < hooked.commits && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      const lags = [...firstSuccess.values()].sort((x, y) => x - y);
      await api('DELETE', `/webhook/${hook.id}`);
      const offered = hooked.commits / hooked.wallSeconds;
      const at = `${rate} commits/s asked`;
      figures.push(
        { name: `commits/s reached (${at})`, value: offered, unit: 'commits/s', note: `load average ${loadavg()[0]?.toFixed(1)} after the run` },
        { name: `deliveries received (first success) (${at})`, value: firstSuccess.size, unit: `of ${hooked.commits}` },
        { name: `webhook delivery lag p50, append -> first 2xx (${at})`, value: percentile(lags, 50), unit: 'ms' },
        { name: `webhook delivery lag p99 (${at})`, value: percentile(lags, 99), unit: 'ms' },
      );
    }

    // 2. Change-feed fan-out: 100 streams over the 8 projects (the admin's limit raised for the bench).
    const arrivals: number[] = [];
    let received = 0;
    const controllers: AbortController[] = [];
    await Promise.all(
      Array.from({ length: STREAMS }, async (_, i) => {
        const controller = new AbortController();
        controllers.push(controller);
        const res = await fetch(`${url}/api/organization/admin/project/${projects[i % PROJECTS]}/events?types=revision.committed`, {
          headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
          signal: controller.signal,
        });
        if (res.status !== 200 || res.body === null) throw new Error(`stream ${i}: ${res.status}`);
        void readStream(res.body, (timestamp) => {
          received++;
          arrivals.push(Date.now() - Date.parse(timestamp));
        }).catch(() => undefined);
      }),
    );
    const fedFrom = Date.now();
    const fed = await commitLoad(rates[0] ?? 200);
    const expected = (fed.commits * STREAMS) / PROJECTS;
    const feedDeadline = Date.now() + 60_000;
    while (received < expected && Date.now() < feedDeadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const feedSeconds = (Date.now() - fedFrom) / 1000;
    for (const controller of controllers) controller.abort();
    arrivals.sort((a, b) => a - b);
    return [
      { name: 'load average at start', value: load, unit: '' },
      ...figures,
      { name: `feed: events received over ${STREAMS} streams`, value: received, unit: `of ${expected}` },
      {
        name: `feed: events/s over ${STREAMS} streams`,
        value: received / feedSeconds,
        unit: 'events/s',
        note: `${(fed.commits / fed.wallSeconds).toFixed(0)} commits/s offered`,
      },
      { name: 'feed lag p50 (append -> arrival on a stream)', value: percentile(arrivals, 50), unit: 'ms' },
      { name: 'feed lag p99', value: percentile(arrivals, 99), unit: 'ms' },
    ];
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    receiver.closeAllConnections();
    receiver.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Calls `onEvent` with the payload timestamp of each `data:` line of an SSE body. */
async function readStream(body: ReadableStream<Uint8Array>, onEvent: (timestamp: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let split = buffer.indexOf('\n');
    while (split !== -1) {
      const line = buffer.slice(0, split);
      buffer = buffer.slice(split + 1);
      split = buffer.indexOf('\n');
      if (line.startsWith('data: ')) onEvent((JSON.parse(line.slice(6)) as { timestamp: string }).timestamp);
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const f of await runWebhookBench()) console.log(`${f.name}: ${f.value.toFixed(1)} ${f.unit}${f.note ? ` (${f.note})` : ''}`);
}
