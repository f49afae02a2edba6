import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { fieldsEqual, sqlitePosition, webhookViews } from '../../contracts/index.ts';
import type { ViewStore } from '../../contracts/index.ts';
import { createSqliteViewStore } from '../adapters/sqlite/sqliteViewStore.ts';
import { DELIVERY_RETENTION_MS, createWebhookSender } from './webhookSender.ts';
import { fetchOutboundHttp } from '../testing/fetchOutboundHttp.ts';

const DAY = 24 * 3600 * 1000;
const received: string[] = [];
const server = createServer((req, res) => {
  received.push(String(req.headers['webhook-id']));
  req.resume().on('end', () => res.writeHead(204).end());
});
server.listen(0, '127.0.0.1');
after(() => server.close());

const url = async (): Promise<string> => {
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
};

const hook = async () => ({
  id: 'wh_1',
  organizationId: 'acme',
  projectName: null,
  branchNames: null,
  types: ['rows.changed'],
  url: await url(),
  active: true,
  sealedSecret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
  previousSealedSecret: null,
  previousSecretExpiresAt: null,
  consecutiveFailures: 0,
  deleted: false,
});

const delivery = (id: string, status: string, appendedAt: number, nextAttemptAt: number | null) => ({
  id,
  webhookId: 'wh_1',
  type: 'rows.changed',
  position: null,
  logPosition: sqlitePosition(Number(id.slice(1))),
  payload: { type: 'rows.changed', position: null, timestamp: new Date(appendedAt).toISOString(), data: {} },
  status,
  attempts: [],
  retries: 0,
  redelivery: false,
  nextAttemptAt,
  createdAt: new Date(appendedAt).toISOString(),
  appendedAt,
  succeededOnce: status === 'succeeded',
});

async function storeWith(docs: ReturnType<typeof delivery>[]): Promise<ViewStore> {
  const views = createSqliteViewStore({ file: ':memory:' });
  await views.ensureProjection(webhookViews);
  const changes = [
    { op: 'upsert' as const, collection: 'webhooks', doc: await hook() },
    ...docs.map((doc) => ({ op: 'upsert' as const, collection: 'deliveries', doc })),
  ];
  assert.ok(await views.applyBatch({ name: webhookViews.name, version: webhookViews.version }, null, sqlitePosition(100), changes));
  return views;
}

function senderOf(views: ViewStore, now: () => number, isLeader: () => boolean) {
  const config = { timeoutMs: 5000, retryScheduleMs: [60_000], disableAfterFailures: 10, allowPrivateAddresses: true, concurrency: 2 };
  return createWebhookSender({
    viewStore: views,
    clock: { now },
    log: pino({ level: 'silent' }),
    config,
    openSecret: (sealed) => sealed,
    disable: async () => true,
    outboundHttp: fetchOutboundHttp,
    isLeader,
  });
}

// A deadline only for a sender that never gets there: 701 deliveries to a receiver answering after 5 ms take ~5 s
// alone and 15 s on a loaded 2-core machine, where a 10 s deadline failed runs whose order, counts and scans were right.
async function eventually(what: string, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('a stand-by that takes the lease over sends the pending deliveries without any new event to wake it', async () => {
  const views = await storeWith([delivery('d1', 'pending', Date.now() - 1000, Date.now() - 1000)]);
  let leader = false;
  const sender = senderOf(
    views,
    () => Date.now(),
    () => leader,
  );
  sender.start();
  try {
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(received, [], 'a stand-by sends nothing');
    leader = true; // the lease is taken over; no dispatcher batch follows, nobody calls wake()
    await eventually(
      'the pending delivery sent',
      async () => (await views.get(webhookViews.name, 'deliveries', { id: 'd1' }))?.status === 'succeeded',
    );
    assert.deepEqual(received, ['d1']);
  } finally {
    await sender.stop();
    await views.close();
  }
});

test('settled deliveries older than the retention are pruned; recent and pending ones are kept', async () => {
  const now = Date.UTC(2026, 0, 31);
  const old = now - DELIVERY_RETENTION_MS - DAY;
  const views = await storeWith([
    delivery('d1', 'succeeded', old, null),
    delivery('d2', 'failed', old, null),
    delivery('d3', 'pending', old, now + DAY), // still retrying: kept until it settles
    delivery('d4', 'succeeded', now - DELIVERY_RETENTION_MS + DAY, null),
  ]);
  assert.equal(DELIVERY_RETENTION_MS, 30 * DAY);
  const sender = senderOf(
    views,
    () => now,
    () => true,
  );
  sender.start();
  try {
    const ids = async (): Promise<string[]> =>
      (await views.find(webhookViews.name, 'deliveries', { filter: fieldsEqual({ webhookId: 'wh_1' }) })).map((d) => d.id as string).sort();
    await eventually('the old settled deliveries pruned', async () => (await ids()).length === 2);
    assert.deepEqual(await ids(), ['d3', 'd4']);
  } finally {
    await sender.stop();
    await views.close();
  }
});

test('a backlog of one webhook is sent in log order without a rescan per attempt, and does not hold back another webhook', async () => {
  const slow = createServer((req, res) => {
    received.push(String(req.headers['webhook-id']));
    req.resume().on('end', () => setTimeout(() => res.writeHead(204).end(), 5));
  });
  slow.listen(0, '127.0.0.1');
  await new Promise((resolve) => slow.once('listening', resolve));
  received.length = 0;
  const now = Date.now();
  // 700 due deliveries of wh_1 (more than one scan page) before one of wh_2 in log order.
  const backlog = Array.from({ length: 700 }, (_, i) => delivery(`d${i + 1}`, 'pending', now - 1000, now - 1000));
  const views = await storeWith([...backlog, { ...delivery('d900', 'pending', now - 1000, now - 1000), webhookId: 'wh_2' }]);
  const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow`;
  const second = { ...(await hook()), id: 'wh_2' };
  assert.ok(
    await views.applyBatch({ name: webhookViews.name, version: webhookViews.version }, sqlitePosition(100), sqlitePosition(101), [
      { op: 'update', collection: 'webhooks', filter: fieldsEqual({ id: 'wh_1' }), set: { url: slowUrl } },
      { op: 'upsert', collection: 'webhooks', doc: second },
    ]),
  );
  let finds = 0;
  const counted: ViewStore = Object.create(views, { find: { value: (...args: Parameters<ViewStore['find']>) => (finds++, views.find(...args)) } });
  const sender = senderOf(
    counted,
    () => Date.now(),
    () => true,
  );
  sender.start();
  try {
    await eventually('the other webhook served', async () => received.includes('d900'));
    assert.ok(received.filter((id) => id !== 'd900').length < 50, `wh_2 waited for ${received.length - 1} attempts of wh_1`);
    await eventually('the backlog sent', async () => received.length === 701);
    const order = received.filter((id) => id !== 'd900');
    assert.deepEqual(
      order,
      backlog.map((d) => d.id),
      'each once, in log order',
    );
    assert.ok(finds < 100, `${finds} scans for 701 attempts`);
  } finally {
    await sender.stop();
    await views.close();
    slow.close();
  }
});
