import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { createSqliteEventStore } from '../../command-service/index.ts';
import type { NewEvent } from '../../contracts/index.ts';
import { createSqliteViewStore } from '../../projection-worker/index.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/slowProjectorProcess.ts', import.meta.url));
const EVENTS = 20_000;
const RUN_TIMEOUT_MS = 120_000;

function event(type: string, eventId: string): NewEvent {
  return {
    type,
    schemaVersion: 1,
    data: {},
    metadata: { eventId, correlationId: eventId, causationId: null, principal: 'system', time: '' },
  };
}

type Run = { lines: string[]; code: number | null; signal: NodeJS.Signals | null };

/** Runs the fixture; `onLine` may kill it. Resolves with its stdout lines and how it ended. */
function runProjector(args: string[], onLine: (line: string, kill: () => void) => void): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    onLine(line, () => child.kill('SIGKILL'));
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ lines, code, signal });
    });
  });
}

describe('projector crash', () => {
  test('a projector killed in the middle of a batch applies every event exactly once after a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'strata-crash-'));
    const eventsFile = join(dir, 'events.db');
    const viewsFile = join(dir, 'views.db');
    try {
      const eventStore = createSqliteEventStore({ file: eventsFile });
      await eventStore.append('user-setup', [event('CrashTestStarted', 'setup')], 'any');
      for (let i = 0; i < EVENTS / 100; i++) {
        const batch = Array.from({ length: 100 }, (_, j) => event('Happened', `e-${i}-${j}`));
        await eventStore.append(`user-${i % 17}`, batch, 'any');
      }
      const head = await eventStore.headPosition();
      await eventStore.close();

      let batchesStarted = 0;
      const killed = await runProjector([eventsFile, viewsFile, 'first'], (line, kill) => {
        if (line.startsWith('batch started') && ++batchesStarted === 2) kill();
      });
      assert.equal(killed.signal, 'SIGKILL');
      assert.ok(!killed.lines.includes('caught up'), 'the first run finished before it could be killed');

      const viewStore = createSqliteViewStore({ file: viewsFile });
      const ref = { name: 'crash', version: 1 };
      const midway = await viewStore.checkpoint(ref);
      assert.notEqual(midway, head);
      // Only whole batches were committed: the counter matches the documents at the kill point.
      const totalAtKill = Number((await viewStore.get('crash', 'totals', { id: 'all' }))?.events ?? 0);
      assert.equal(await viewStore.count('crash', 'seen'), totalAtKill);
      assert.ok(totalAtKill < EVENTS);

      const restarted = await runProjector([eventsFile, viewsFile, 'second'], () => undefined);
      assert.equal(restarted.code, 0, `restart ended with ${String(restarted.signal ?? restarted.code)}`);
      assert.ok(restarted.lines.includes('caught up'));

      assert.equal(await viewStore.checkpoint(ref), head);
      assert.equal(await viewStore.count('crash', 'seen'), EVENTS);
      assert.equal(Number((await viewStore.get('crash', 'totals', { id: 'all' }))?.events), EVENTS);
      await viewStore.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
