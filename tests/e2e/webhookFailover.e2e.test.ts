import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteEventStore } from '../../command-service/index.ts';
import { createSqliteViewStore } from '../../projection-worker/index.ts';
import type { ViewStore } from '../../contracts/index.ts';
import { startRedisServer, type RedisServer } from '../support/redisServer.ts';
import { startStrataProcess, until, type StrataProcess } from '../support/strataProcess.ts';
import { writeRowsToFailingHook } from './support/webhookCrashSetup.ts';
import { startReceiver, type Receiver } from './support/webhookReceiver.ts';

// At least once across a failover (changes.md §6.2), in the distributed shape of operations.md §2: one command+query
// process and two projector processes sharing the stores and Redis. Deliveries are pending while the receiver fails;
// the holder of the `webhooks` lease is SIGKILLed and nothing is written afterwards, so only the stand-by's own
// takeover can send them. Once the receiver answers again every row event of the log arrives (repeats allowed).
const PASSWORD = 'failover-e2e-admin-password';
let dir = '';
let redis: RedisServer | null = null;
let receiver: Receiver | null = null;
const processes: StrataProcess[] = [];

after(async () => {
  await Promise.allSettled(processes.map((p) => p.kill()));
  await receiver?.close();
  await redis?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The process holding a live `webhooks` lease, if any. */
async function webhooksLeader(views: ViewStore, projectors: readonly StrataProcess[]): Promise<StrataProcess | undefined> {
  const status = (await views.projectionStatuses()).find((s) => s.name === 'webhooks' && s.active);
  if (status?.leaseOwner == null || (status.leaseExpiresAt ?? 0) <= Date.now()) return undefined;
  const pid = Number(status.leaseOwner.split(':')[1]);
  return projectors.find((p) => p.child.pid === pid);
}

test('SIGKILL of the webhooks leader with pending deliveries and a receiver down: the stand-by delivers every event', async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-webhook-failover-'));
  redis = await startRedisServer();
  receiver = await startReceiver();
  const env = {
    DATA_DIR: join(dir, 'data'),
    REDIS_URL: redis.url,
    ADMIN_PASSWORD: PASSWORD,
    JWT_SECRET: 'failover-e2e-secret-that-is-at-least-32-bytes-long',
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    WEBHOOK_RETRY_SCHEDULE_MS: Array(20).fill('2000').join(','),
    CONSISTENCY_TIMEOUT_MS: '3000',
    LOG_LEVEL: 'info',
  };
  // The first projector starts alone so that it takes every lease; the second one then stands by.
  const first = await startStrataProcess({ ...env, ROLES: 'projector' });
  processes.push(first);
  const [command, second] = await Promise.all([
    startStrataProcess({ ...env, ROLES: 'command,query' }),
    startStrataProcess({ ...env, ROLES: 'projector' }),
  ]);
  processes.push(command, second);
  const projectors = [first, second];

  const rowIds = await writeRowsToFailingHook(command.url, PASSWORD, receiver, '/failover');

  const views = createSqliteViewStore({ file: join(dir, 'data', 'views.db') });
  const events = createSqliteEventStore({ file: join(dir, 'data', 'events.db') });
  try {
    // Every row event is dispatched into a pending delivery and has failed at least once.
    await until('every event failed at least once', 30_000, async () => {
      const failed = new Set(
        receiver
          ?.on('/failover')
          .filter((r) => r.answered === 503)
          .flatMap((r) => r.body.data.rowIds as string[]),
      );
      return rowIds.every((id) => failed.has(id)) ? true : undefined;
    });
    const leader = await until('a webhooks lease holder', 20_000, () => webhooksLeader(views, projectors));
    const standBy = projectors.find((p) => p !== leader);
    assert.ok(standBy);
    await leader.kill();
    const heardBefore = receiver.on('/failover').length;
    receiver.reply('/failover', () => ({ status: 204 }));

    // The lease expires after its TTL; the stand-by then takes it and sends what is pending, with no new event.
    const delivered = await until('every event delivered after the failover', 60_000, async () => {
      const accepted = receiver?.on('/failover').filter((r) => r.answered === 204) ?? [];
      const rows = new Set(accepted.flatMap((r) => r.body.data.rowIds as string[]));
      return rowIds.every((id) => rows.has(id)) ? accepted : undefined;
    });
    assert.ok(
      receiver
        .on('/failover')
        .slice(heardBefore)
        .every((r) => r.answered === 204),
    );
    assert.equal(await webhooksLeader(views, projectors), standBy, 'the stand-by holds the webhooks lease');

    // Against the log: one delivered position per row event, each under one stable webhook-id.
    const logged = await events.readAll(null, { eventTypes: ['RowsCreated'], maxCount: 1000 });
    assert.equal(logged.length, rowIds.length);
    assert.deepEqual(new Set(delivered.map((r) => r.body.position)), new Set(logged.map((e) => e.position)));
    const idsByPosition = new Map<string, Set<string>>();
    for (const r of receiver.on('/failover'))
      idsByPosition.set(r.body.position ?? '', (idsByPosition.get(r.body.position ?? '') ?? new Set()).add(r.id));
    assert.ok(
      [...idsByPosition.values()].every((ids) => ids.size === 1),
      'webhook-id stable across attempts and processes',
    );
    assert.equal(new Set(delivered.map((r) => r.id)).size, rowIds.length);
    assert.ok(receiver.on('/failover').every((r) => r.verifiedBy.length === 1));
  } finally {
    await views.close();
    await events.close();
  }
});
