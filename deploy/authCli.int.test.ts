import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { directoryStreamId, userApiKeysStreamId } from '../contracts/index.ts';
import type { EventStore, NewEvent } from '../contracts/index.ts';
import { createSqliteEventStore, createSystemStateSource, findUserByUsername, hashPassword, verifyPassword } from '../command-service/index.ts';
import { runCli } from './cli.ts';
import type { CliIo } from './cli.ts';
import { apiKeyCreated } from '../contracts/testing/apiKeyEvents.ts';

let dir: string;
let store: EventStore;

function event(type: string, data: unknown, time = '2026-01-01T00:00:00.000Z'): NewEvent {
  return {
    type,
    schemaVersion: 1,
    data,
    metadata: { eventId: crypto.randomUUID(), correlationId: 'c', causationId: null, principal: 'user:u-alice', time },
  };
}

function io(secret?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const cliIo: CliIo = {
    env: { DATA_DIR: dir, LOG_LEVEL: 'silent' },
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
    ...(secret === undefined ? {} : { readSecret: async () => secret }),
  };
  return { cliIo, out: () => out.join(''), err: () => err.join('') };
}

const KEY = apiKeyCreated('key-1', { name: 'ci', prefix: 'svc_AbCdEf', secretHash: 'f'.repeat(64), userId: 'u-alice', createdBy: 'u-alice' });

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-auth-cli-'));
  store = createSqliteEventStore({ file: join(dir, 'events.db') });
  const passwordHash = await hashPassword('old-password-1');
  await store.append(
    directoryStreamId,
    [event('UserCreated', { userId: 'u-alice', username: 'alice', email: null, role: 'systemUser', passwordHash })],
    'no_stream',
  );
  await store.append(
    userApiKeysStreamId('u-alice'),
    [event('ApiKeyCreated', KEY), event('ApiKeyRevoked', { keyId: 'key-1', revokedBy: 'u-alice', replacedById: null }, '2026-01-02T00:00:00.000Z')],
    'no_stream',
  );
});
after(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('strata audit api-keys', () => {
  test('prints the table, or JSON Lines with --json, and filters', async () => {
    const table = io();
    assert.equal(await runCli(['audit', 'api-keys'], table.cliIo), 0);
    const lines = table.out().trimEnd().split('\n');
    assert.match(lines[0] as string, /^TIME +EVENT +KEY ID +PREFIX +TYPE +OWNER +ACTOR +DETAILS$/);
    assert.match(lines[1] as string, /^2026-01-01T00:00:00\.000Z +created +key-1 +svc_AbCdEf +personal +u-alice +u-alice +name="ci" /);
    assert.match(lines[2] as string, /revoked/);
    assert.ok(!table.out().includes('f'.repeat(64)));

    const json = io();
    assert.equal(await runCli(['audit', 'api-keys', '--json', '--key', 'key-1', '--since', '2026-01-01T12:00:00Z'], json.cliIo), 0);
    assert.deepEqual(JSON.parse(json.out()), {
      time: '2026-01-02T00:00:00.000Z',
      event: 'revoked',
      keyId: 'key-1',
      prefix: 'svc_AbCdEf',
      type: 'personal',
      userId: 'u-alice',
      organizationId: null,
      actorId: 'u-alice',
      details: { replacedById: null },
    });
    const none = io();
    assert.equal(await runCli(['audit', 'api-keys', '--json', '--org', 'acme'], none.cliIo), 0);
    assert.equal(none.out(), '');
  });

  test('usage errors exit 2', async () => {
    const badTime = io();
    assert.equal(await runCli(['audit', 'api-keys', '--since', 'last week'], badTime.cliIo), 2);
    assert.match(badTime.err(), /--since/);
    assert.equal(await runCli(['audit', 'api-keys', '--secret'], io().cliIo), 2);
    assert.equal(await runCli(['audit'], io().cliIo), 2);
  });
});

describe('strata users set-password', () => {
  test('unknown user or invalid password exit 1 and change nothing', async () => {
    const head = await store.headPosition();
    const unknown = io('new-password-1');
    assert.equal(await runCli(['users', 'set-password', 'nobody'], unknown.cliIo), 1);
    assert.match(unknown.err(), /not found/);
    assert.equal(await runCli(['users', 'set-password', 'Alice'], io('new-password-1').cliIo), 1, 'usernames are exact');
    const short = io('short');
    assert.equal(await runCli(['users', 'set-password', 'alice'], short.cliIo), 1);
    assert.match(short.err(), /8 to 256/);
    assert.equal(await store.headPosition(), head);
  });

  test('sets the password and increments the token version (revoking every session)', async () => {
    const ok = io('new-password-1');
    assert.equal(await runCli(['users', 'set-password', 'alice'], ok.cliIo), 0);
    assert.match(ok.out(), /alice/);
    assert.ok(!ok.out().includes('new-password-1') && !ok.err().includes('new-password-1'));
    const user = findUserByUsername(await createSystemStateSource({ eventStore: store }).current(), 'alice');
    assert.equal(user?.tokenVersion, 1);
    assert.ok(user && (await verifyPassword('new-password-1', user.passwordHash)));
    const last = (await store.readStream(directoryStreamId)).at(-1);
    assert.deepEqual([last?.type, (last?.data as { reason: string }).reason, last?.metadata.principal], ['UserPasswordChanged', 'cli', 'system']);
  });
});
