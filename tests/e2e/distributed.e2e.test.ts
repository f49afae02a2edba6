// Production shape on one machine (operations.md §2): embedded stores shared through one DATA_DIR and a real Redis;
// one command+query process, two projector processes (one stands by on the leases) and one query-only process that
// forwards every write to the command process. The lease holder is SIGKILLed under a steady write load; the
// stand-by takes over, and afterwards every view equals a fresh rebuild from the log.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { comparePositions } from '../../contracts/index.ts';
import type { EventStore, ViewDoc, ViewStore } from '../../contracts/index.ts';
import { createSqliteEventStore } from '../../command-service/index.ts';
import { allProjectors, createSqliteViewStore, rebuildProjection } from '../../projection-worker/index.ts';
import { startRedisServer, type RedisServer } from '../support/redisServer.ts';
import { startStrataProcess, until, type StrataProcess } from '../support/strataProcess.ts';

const ADMIN_PASSWORD = 'distributed-admin-1';
let dir = '';
let redis: RedisServer;
let command: StrataProcess;
let projectors: StrataProcess[] = [];
let queryOnly: StrataProcess;
let auth: Record<string, string> = {};

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-distributed-'));
  redis = await startRedisServer();
  // A short consistency timeout: while no projector runs, writes answer `pending` quickly instead of waiting.
  const shared = { DATA_DIR: join(dir, 'data'), REDIS_URL: redis.url, ADMIN_PASSWORD, CONSISTENCY_TIMEOUT_MS: '3000', LOG_LEVEL: 'warn' };
  // The first projector starts alone so that it takes every lease; the second one then stands by.
  const first = await startStrataProcess({ ...shared, ROLES: 'projector', LOG_LEVEL: 'info' });
  [command, projectors] = await Promise.all([
    startStrataProcess({ ...shared, ROLES: 'command,query', LOG_LEVEL: 'info' }),
    startStrataProcess({ ...shared, ROLES: 'projector', LOG_LEVEL: 'info' }).then((second) => [first, second]),
  ]);
  queryOnly = await startStrataProcess({ ...shared, ROLES: 'query', COMMAND_URL: command.url, LOG_LEVEL: 'info' });
});

after(async () => {
  await Promise.allSettled([queryOnly?.stop(), command?.stop(), ...projectors.map((p) => p.stop())]);
  await redis?.stop();
  await rm(dir, { recursive: true, force: true });
});

type Reply = { status: number; headers: Headers; body: unknown };

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await fetch(`${queryOnly.url}${path}`, {
    method,
    headers: { ...auth, ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? null : (JSON.parse(text) as unknown) };
}

const field = <T>(reply: Reply, name: string): T => (reply.body as Record<string, T>)[name] as T;

test('writes through the query-only process land on the command process and are readable there', async () => {
  const login = await call('POST', '/api/auth/login', { username: 'admin', password: ADMIN_PASSWORD });
  assert.equal(login.status, 200);
  assert.ok(
    login.headers.getSetCookie().some((cookie) => cookie.startsWith('svc_at=')),
    'the cookies come back',
  );
  auth = { authorization: `Bearer ${field<string>(login, 'accessToken')}` };

  const created = await call('POST', '/api/organization/admin/projects', { projectName: 'shop' });
  assert.equal(created.status, 201);
  assert.equal(created.headers.get('x-strata-consistency'), 'projected');
  const position = created.headers.get('x-strata-position') ?? '';
  const read = await call('GET', '/api/organization/admin/project/shop', undefined, { 'x-strata-min-position': position });
  assert.equal(read.status, 200);
  assert.equal(field(read, 'name'), 'shop');

  const branch = await call('GET', '/api/organization/admin/project/shop/branch/$default');
  const draft = field<string>(branch, 'draftRevisionId');
  const schema = { type: 'object', additionalProperties: false, required: ['n'], properties: { n: { type: 'number', default: 0 } } };
  const table = await fetch(`${queryOnly.url}/graphql`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'mutation($schema: JSON!, $r: ID!) { createTable(data: {revisionId: $r, tableId: "orders", schema: $schema}) { id } }',
      variables: { schema, r: draft },
    }),
  });
  const answer = (await table.json()) as { data?: { createTable: { id: string } }; extensions?: { position?: string } };
  assert.deepEqual(answer.data, { createTable: { id: 'orders' } }, JSON.stringify(answer));
  assert.match(answer.extensions?.position ?? '', /^s:\d{20}$/);
  const tables = await call('GET', `/api/revision/${draft}/tables`, undefined, { 'x-strata-min-position': answer.extensions?.position ?? '' });
  assert.equal(tables.status, 200);
  assert.equal(field<unknown[]>(tables, 'edges').length, 1);
});

/** The process holding the lease of every active projection, or undefined while they are split or expired. */
async function leaseHolder(views: ViewStore): Promise<StrataProcess | undefined> {
  const now = Date.now();
  const owners = (await views.projectionStatuses())
    .filter((s) => s.active)
    .map((s) => (s.leaseExpiresAt !== null && s.leaseExpiresAt > now ? s.leaseOwner : null));
  // Every projection of allProjectors, plus those that are not rebuildable (the webhook dispatcher).
  if (owners.length < allProjectors.length || owners.some((o) => o === null)) return undefined;
  const pids = new Set(owners.map((owner) => Number(owner?.split(':')[1])));
  if (pids.size !== 1) return undefined;
  return projectors.find((p) => pids.has(p.child.pid ?? -1));
}

test('killing the projector lease holder under load: the stand-by takes over and the views equal a rebuild', async () => {
  const views = createSqliteViewStore({ file: join(dir, 'data', 'views.db') });
  const events = createSqliteEventStore({ file: join(dir, 'data', 'events.db') });
  try {
    const holder = await until('one process holding every lease', 20_000, () => leaseHolder(views));
    const standBy = projectors.find((p) => p !== holder);
    assert.ok(standBy);
    const draft = field<string>(await call('GET', '/api/organization/admin/project/shop/branch/$default'), 'draftRevisionId');

    // A steady write load through the query-only process, one row per request.
    const outcomes: { status: number; consistency: string | null; at: number }[] = [];
    let writing = true;
    const load = (async () => {
      for (let i = 0; writing; i++) {
        const reply = await call('POST', `/api/revision/${draft}/table/orders/rows`, { rowId: `o${i}`, data: { n: i } });
        outcomes.push({ status: reply.status, consistency: reply.headers.get('x-strata-consistency'), at: Date.now() });
      }
    })();
    const projectedSince = (since: number): number => outcomes.filter((o) => o.at > since && o.consistency === 'projected').length;
    let killedAt = 0;
    try {
      await until('a few projected writes', 20_000, async () => (projectedSince(0) >= 5 ? true : undefined));
      killedAt = Date.now();
      await holder.kill();
      // The lease expires after its TTL (10 s) and the stand-by renews every TTL/3: writes are projected again after.
      await until('projected writes after the takeover', 60_000, async () => (projectedSince(killedAt) >= 5 ? true : undefined));
      assert.equal(await until('the stand-by holding every lease', 20_000, () => leaseHolder(views)), standBy);
    } finally {
      writing = false;
      await load;
    }

    assert.deepEqual(
      outcomes.filter((o) => o.status !== 201),
      [],
      'every write succeeded',
    );
    assert.ok(
      outcomes.some((o) => o.at > killedAt && o.consistency === 'pending'),
      'writes went pending while no projector ran',
    );
    const last = outcomes.slice(-3).map((o) => o.consistency);
    assert.deepEqual(last, ['projected', 'projected', 'projected']);

    const head = await events.headPosition();
    await until('every projection at the log head', 30_000, async () => {
      const statuses = (await views.projectionStatuses()).filter((s) => s.active);
      return statuses.length >= allProjectors.length && statuses.every((s) => comparePositions(s.position, head) >= 0) ? true : undefined;
    });
    const list = await call('GET', `/api/revision/${draft}/table/orders/rows?first=1`);
    assert.equal(field(list, 'totalCount'), outcomes.length);
    await assertViewsEqualRebuild(views, events);
  } finally {
    await views.close();
    await events.close();
  }
});

/** Rebuilds every projection from the log into a temporary store and compares every document of every collection. */
async function assertViewsEqualRebuild(live: ViewStore, eventStore: EventStore): Promise<void> {
  const fresh = createSqliteViewStore({ file: join(dir, 'rebuilt.db') });
  const log = pino({ level: 'silent' });
  try {
    for (const projector of allProjectors) {
      await rebuildProjection({ projector, eventStore, viewStore: fresh, log, dropDelayMs: 0 });
      for (const collection of projector.spec.collections) {
        const orderBy = collection.key.map((name) => ({ ref: { field: name }, direction: 'asc' as const }));
        const dump = (store: ViewStore): Promise<ViewDoc[]> => store.find(projector.spec.name, collection.name, { orderBy });
        const expected = await dump(fresh);
        assert.deepEqual(await dump(live), expected, `${projector.spec.name}.${collection.name}`);
        if (projector.spec.name === 'rows' && collection.name === 'rows') assert.ok(expected.length > 5, 'the rows view is not trivially empty');
      }
    }
  } finally {
    await fresh.close();
  }
}
