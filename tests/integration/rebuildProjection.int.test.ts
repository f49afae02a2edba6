import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { pino } from 'pino';
// Integration tests only: the projection worker itself never imports the command service.
import { createSqliteEventStore } from '../../command-service/index.ts';
import { systemClock } from '../../contracts/index.ts';
import type { ViewStore } from '../../contracts/index.ts';
import { createInProcessQueue, createProjectionRunner, createSqliteViewStore, rebuildProjection } from '../../projection-worker/index.ts';
// Test-only projector shared with the runner's unit tests beside the code.
import { countedEvents as events, createCountingProjector, SETUP_EVENT, sleep } from '../../projection-worker/testing/testProjector.ts';

const log = pino({ level: 'silent' });
async function totals(viewStore: ViewStore): Promise<number> {
  return Number((await viewStore.get('counting', 'totals', { id: 'all' }))?.events ?? 0);
}

describe('rebuild on SQLite', () => {
  test('readers keep reading during a rebuild; readers switch, the old copy is dropped, the runner follows', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'strata-rebuild-'));
    const eventsFile = join(dir, 'events.db');
    const viewsFile = join(dir, 'views.db');
    // One connection per "process": live runner, readers, rebuild CLI.
    const live = {
      eventStore: createSqliteEventStore({ file: eventsFile, pollIntervalMs: 10 }),
      viewStore: createSqliteViewStore({ file: viewsFile }),
    };
    const reader = createSqliteViewStore({ file: viewsFile });
    const cli = {
      eventStore: createSqliteEventStore({ file: eventsFile }),
      viewStore: createSqliteViewStore({ file: viewsFile }),
    };
    const runner = createProjectionRunner({
      projector: createCountingProjector(),
      ...live,
      queue: createInProcessQueue(),
      log,
      clock: systemClock,
      owner: 'live',
      pollIntervalMs: 20,
    });
    try {
      await live.eventStore.append('user-setup', events(1, SETUP_EVENT), 'any');
      let expected = 0;
      for (let i = 0; i < 100; i++) await live.eventStore.append(`user-${i % 13}`, events(100), 'any');
      expected += 10_000;
      await runner.start();
      await runner.runOnce();
      assert.equal(await totals(reader), expected);

      let reads = 0;
      const failures: unknown[] = [];
      const versionsSeen = new Set<number | null>();
      let reading = true;
      const readers = (async () => {
        while (reading) {
          try {
            versionsSeen.add(await reader.activeVersion('counting'));
            await totals(reader);
            await reader.count('counting', 'seen');
            await reader.find('counting', 'seen', { limit: 5 });
            reads += 1;
          } catch (err) {
            failures.push(err);
          }
          await sleep(0);
        }
      })();
      // Writes keep arriving during the rebuild; the live runner keeps applying them to version 1.
      let writing = true;
      const writer = (async () => {
        while (writing) {
          await live.eventStore.append('user-w', events(10), 'any');
          expected += 10;
          await sleep(2);
        }
      })();

      const progress: [number, number][] = [];
      const result = await rebuildProjection({
        projector: createCountingProjector(),
        ...cli,
        log,
        batchSize: 500,
        dropDelayMs: 50,
        onProgress: (done, total) => progress.push([done, total]),
      });
      writing = false;
      await writer;
      await sleep(50);
      reading = false;
      await readers;

      assert.deepEqual(failures, []);
      assert.ok(reads > 0);
      assert.deepEqual([...versionsSeen].sort(), [1, 2]);
      assert.equal(result.version, 2);
      assert.equal(result.previousVersion, 1);
      assert.equal(await reader.activeVersion('counting'), 2);
      const statuses = await reader.projectionStatuses();
      assert.deepEqual(
        statuses.map((s) => [s.name, s.version, s.active]),
        [['counting', 2, true]],
      );
      const [done, total] = progress.at(-1) ?? [0, 0];
      assert.equal(done, total);

      // The live runner moved on to version 2 and applies new events there, each exactly once.
      await live.eventStore.append('user-after', events(5), 'any');
      expected += 5;
      const deadline = Date.now() + 20_000;
      while ((await totals(reader)) !== expected && Date.now() < deadline) await sleep(10);
      assert.equal(await totals(reader), expected);
      assert.equal(await reader.count('counting', 'seen'), expected);
      assert.equal(await reader.checkpoint({ name: 'counting', version: 2 }), await live.eventStore.headPosition());
    } finally {
      await runner.stop();
      for (const store of [live.eventStore, live.viewStore, reader, cli.eventStore, cli.viewStore]) {
        await store.close().catch(() => undefined);
      }
      await rm(dir, { recursive: true, force: true });
    }
  });
});
