// Two OS processes append concurrently to one SQLite event store file (spec operations §2: several processes may
// share DATA_DIR on one host). Every event must land once, with unique, gap-free positions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createSqliteEventStore } from '../../command-service/index.ts';
import { sqliteGlobalPosition } from '../../contracts/index.ts';
import type { RecordedEvent } from '../../contracts/index.ts';
import { appendNotification } from './eventStoreFixtures.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const worker = fileURLToPath(new URL('./fixtures/appendWorker.ts', import.meta.url));
const ROUNDS = 150;

type Worker = {
  child: ChildProcessByStdio<Writable, Readable, null>;
  lines: string[];
  ready: Promise<void>;
  exited: Promise<number | null>;
};

function startWorker(file: string, id: string): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', worker, file, id, String(ROUNDS)], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const reader = createInterface({ input: child.stdout });
  const ready = new Promise<void>((resolve, reject) => {
    reader.on('line', (line) => {
      lines.push(line);
      if (line === 'ready') resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker ${id} exited with ${code} before it was ready`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, lines, ready, exited };
}

test('two processes append concurrently to one file: unique, gap-free positions', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'strata-shared-events-'));
  const file = join(dir, 'events.db');
  const store = createSqliteEventStore({ file, pollIntervalMs: 10 });
  const seen = appendNotification(store);
  const workers = [startWorker(file, '1'), startWorker(file, '2')];
  try {
    await Promise.all(workers.map((w) => w.ready));
    for (const w of workers) w.child.stdin.end('go\n');
    assert.deepEqual(await Promise.all(workers.map((w) => w.exited)), [0, 0]);
    const summaries = workers.map((w) => JSON.parse(w.lines[w.lines.length - 1] ?? '{}') as { events: number });
    const total = summaries.reduce((sum, s) => sum + s.events, 0);

    const all: RecordedEvent[] = [];
    for (let page = await store.readAll(null, { maxCount: 250 }); page.length > 0;) {
      all.push(...page);
      page = await store.readAll(page[page.length - 1]?.position ?? null, { maxCount: 250 });
    }
    assert.equal(all.length, total);
    assert.deepEqual(
      all.map((e) => sqliteGlobalPosition(e.position)),
      Array.from({ length: total }, (_, i) => i + 1),
    );
    assert.equal(new Set(all.map((e) => e.metadata.eventId)).size, total);
    const shared = await store.readStream('shared-counter');
    assert.equal(shared.length, 2 * ROUNDS);
    assert.deepEqual(
      shared.map((e) => e.revision),
      Array.from({ length: 2 * ROUNDS }, (_, i) => i),
    );
    assert.equal(await store.countAfter(null), total);
    // This process appended nothing itself: the notification can only come from polling the shared file.
    const last = all[all.length - 1];
    assert.ok(last);
    assert.equal(await seen.until(last.position), last.position);
  } finally {
    seen.stop();
    for (const w of workers) w.child.kill();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
});
