import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ApiKeyWithSecretView, Principal } from '../../contracts/index.ts';
import { formatApiKeyAuditJsonLines, formatApiKeyAuditTable, readApiKeyAudit } from './apiKeyAudit.ts';
import { parseAuditTime } from './auditLog.ts';
import { START_MS, as, openAuthWorld } from '../testing/authWorldFixture.ts';
import type { AuthWorld } from '../testing/authWorldFixture.ts';

const HOUR = 3_600_000;
let world: AuthWorld;
let personal: ApiKeyWithSecretView;
let service: ApiKeyWithSecretView;
let rotated: ApiKeyWithSecretView;

before(async () => {
  world = await openAuthWorld();
  await world.user('u-alice', 'alice');
  await world.user('u-bob', 'bob');
  await world.organization('acme', ['u-alice', 'alice', 'organizationOwner'], ['u-bob', 'bob', 'organizationAdmin']);
  const alice: Principal = world.jwtUser('u-alice', 'alice');
  const bob: Principal = world.jwtUser('u-bob', 'bob');
  const { gateway } = world.service;
  personal = (await gateway.execute('CreatePersonalApiKey', { name: 'ci key', organizationId: 'acme', tableIds: ['posts'] }, as(alice))).result;
  world.clock.ms += HOUR;
  const rules = [{ action: 'read', subject: 'Row' }];
  service = (await gateway.execute('CreateServiceApiKey', { name: 'deploy', organizationId: 'acme', permissions: { rules } }, as(alice))).result;
  world.clock.ms += HOUR;
  rotated = (await gateway.execute('RotateApiKey', { id: personal.apiKey.id }, as(alice))).result;
  world.clock.ms += HOUR;
  await gateway.execute('RevokeApiKey', { id: service.apiKey.id }, as(bob));
});
after(() => world.close());

const at = (hours: number): string => new Date(START_MS + hours * HOUR).toISOString();

describe('strata audit api-keys (operations.md §5)', () => {
  test('reads created, rotated and revoked from the log in log order', async () => {
    const entries = await readApiKeyAudit(world.store);
    assert.deepEqual(
      entries.map((e) => [e.time, e.event, e.keyId, e.type, e.userId, e.organizationId, e.actorId]),
      [
        [at(0), 'created', personal.apiKey.id, 'personal', 'u-alice', 'acme', 'u-alice'],
        [at(1), 'created', service.apiKey.id, 'service', null, 'acme', 'u-alice'],
        [at(2), 'rotated', personal.apiKey.id, 'personal', 'u-alice', 'acme', 'u-alice'],
        [at(2), 'created', rotated.apiKey.id, 'personal', 'u-alice', 'acme', 'u-alice'],
        [at(3), 'revoked', service.apiKey.id, 'service', null, 'acme', 'u-bob'],
      ],
    );
    assert.equal(entries[0]?.prefix, personal.apiKey.prefix);
    assert.equal(entries[4]?.prefix, service.apiKey.prefix, 'a revocation shows the prefix of the created key');
    assert.deepEqual(entries[0]?.details, {
      name: 'ci key',
      projectIds: null,
      branchNames: null,
      tableIds: ['posts'],
      readOnly: false,
      expiresAt: personal.apiKey.expiresAt,
      permissions: null,
      rotatedFromId: null,
    });
    assert.deepEqual(entries[2]?.details, { replacedById: rotated.apiKey.id });
    assert.equal(entries[3]?.details.rotatedFromId, personal.apiKey.id);
  });

  test('filters: key, organization, user (owner or actor), since and until (inclusive)', async () => {
    const ids = async (filter: Parameters<typeof readApiKeyAudit>[1]) =>
      (await readApiKeyAudit(world.store, filter)).map((e) => `${e.event}:${e.keyId}`);
    assert.deepEqual(await ids({ keyId: personal.apiKey.id }), [`created:${personal.apiKey.id}`, `rotated:${personal.apiKey.id}`]);
    assert.equal((await ids({ organizationId: 'acme' })).length, 5);
    assert.deepEqual(await ids({ organizationId: 'other' }), []);
    assert.deepEqual(await ids({ userId: 'u-bob' }), [`revoked:${service.apiKey.id}`]);
    assert.equal((await ids({ userId: 'u-alice' })).length, 4, 'everything but bob revoking the service key');
    assert.deepEqual(await ids({ sinceMs: START_MS + 2 * HOUR }), [
      `rotated:${personal.apiKey.id}`,
      `created:${rotated.apiKey.id}`,
      `revoked:${service.apiKey.id}`,
    ]);
    assert.deepEqual(await ids({ untilMs: START_MS + HOUR }), [`created:${personal.apiKey.id}`, `created:${service.apiKey.id}`]);
  });

  test('T is ISO 8601 or a duration back from now', () => {
    const now = START_MS + 10 * HOUR;
    assert.equal(parseAuditTime('7d', now), now - 7 * 24 * HOUR);
    assert.equal(parseAuditTime('12h', now), now - 12 * HOUR);
    assert.equal(parseAuditTime('2026-01-01T02:00:00Z', now), START_MS + 2 * HOUR);
    assert.equal(parseAuditTime('2026-01-01T03:00:00.000+01:00', now), START_MS + 2 * HOUR);
    assert.equal(parseAuditTime('2026-01-02', now), START_MS + 24 * HOUR);
    for (const bad of ['', 'yesterday', '7', 'd7', '7y', '2026-13-45', '1.5h']) assert.equal(parseAuditTime(bad, now), null, bad);
  });

  test('table and JSON Lines output; never secrets or hashes', async () => {
    const entries = await readApiKeyAudit(world.store);
    const table = formatApiKeyAuditTable(entries);
    const lines = table.trimEnd().split('\n');
    assert.equal(lines.length, 6);
    assert.match(lines[0] as string, /^TIME {2,}EVENT {2,}KEY ID {2,}PREFIX {2,}TYPE {2,}OWNER {2,}ACTOR {2,}DETAILS$/);
    const eventColumn = (lines[0] as string).indexOf('EVENT');
    for (const line of lines.slice(1)) assert.match(line.slice(eventColumn), /^(created|rotated|revoked) /);
    assert.ok(lines[1]?.includes(`${personal.apiKey.prefix}  personal  u-alice  u-alice  name="ci key" projectIds=* branchNames=* tableIds=posts`));
    assert.ok(lines[2]?.includes(`service   acme`), lines[2]);
    assert.ok(lines[2]?.includes('rules=[{"action":"read","subject":"Row"}]'));
    assert.ok(lines[3]?.endsWith(`replacedById=${rotated.apiKey.id}`));

    const json = formatApiKeyAuditJsonLines(entries);
    const parsed = json
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(parsed.length, 5);
    for (const object of parsed) {
      assert.deepEqual(Object.keys(object), ['time', 'event', 'keyId', 'prefix', 'type', 'userId', 'organizationId', 'actorId', 'details']);
    }
    assert.deepEqual(parsed[4], {
      time: at(3),
      event: 'revoked',
      keyId: service.apiKey.id,
      prefix: service.apiKey.prefix,
      type: 'service',
      userId: null,
      organizationId: 'acme',
      actorId: 'u-bob',
      details: { replacedById: null },
    });

    const hashes = (await world.store.readAll(null, { categories: ['apikey'], maxCount: 100 })).flatMap((e) => {
      const hash = (e.data as { secretHash?: string }).secretHash;
      return hash ? [hash] : [];
    });
    assert.equal(hashes.length, 3);
    for (const output of [table, json]) {
      for (const secret of [personal.secret, service.secret, rotated.secret, ...hashes]) assert.ok(!output.includes(secret));
      assert.ok(!output.includes('secretHash'));
    }
  });
});
