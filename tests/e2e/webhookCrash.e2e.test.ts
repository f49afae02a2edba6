import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStrataProcess, until, type StrataProcess } from '../support/strataProcess.ts';
import { writeRowsToFailingHook } from './support/webhookCrashSetup.ts';
import { startReceiver, type Receiver } from './support/webhookReceiver.ts';

// At least once across a crash (changes.md §6.2): SIGKILL while deliveries are pending and the receiver is down;
// after a restart on the same stores every event arrives (duplicates allowed, none missing).
const PASSWORD = 'crash-e2e-admin-password';
const env = (dir: string) => ({
  DATA_DIR: dir,
  ADMIN_PASSWORD: PASSWORD,
  JWT_SECRET: 'crash-e2e-secret-that-is-at-least-32-bytes-long',
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBHOOK_RETRY_SCHEDULE_MS: Array(20).fill('250').join(','),
});
let dir = '';
let strata: StrataProcess | null = null;
let receiver: Receiver | null = null;

after(async () => {
  await strata?.kill();
  await receiver?.close();
  await rm(dir, { recursive: true, force: true });
});

test('SIGKILL with pending deliveries and a receiver down: after restart every event is delivered', async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-webhook-crash-'));
  receiver = await startReceiver();
  strata = await startStrataProcess(env(dir));
  const rowIds = await writeRowsToFailingHook(strata.url, PASSWORD, receiver, '/crash');
  await until('a failed attempt', 15_000, async () => (receiver?.on('/crash').some((r) => r.answered === 503) ? true : undefined));
  await strata.kill();

  receiver.reply('/crash', () => ({ status: 204 }));
  strata = await startStrataProcess(env(dir));
  const delivered = await until('every event delivered', 30_000, async () => {
    const accepted = receiver?.on('/crash').filter((r) => r.answered === 204) ?? [];
    const rows = new Set(accepted.flatMap((r) => r.body.data.rowIds as string[]));
    return rowIds.every((id) => rows.has(id)) ? accepted : undefined;
  });
  // One delivery id per event; a retried or repeated event keeps its id.
  const idsByRow = new Map<string, Set<string>>();
  for (const r of receiver.on('/crash'))
    for (const rowId of r.body.data.rowIds as string[]) idsByRow.set(rowId, (idsByRow.get(rowId) ?? new Set()).add(r.id));
  assert.ok([...idsByRow.values()].every((ids) => ids.size === 1));
  assert.equal(new Set(delivered.map((r) => r.id)).size, 20);
  assert.ok(receiver.on('/crash').every((r) => r.verifiedBy.length === 1));
});
