import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAfterCommitTasks } from './sqliteViewFiles.ts';

function recorder(delayMs: number, soonMs: number) {
  const runs: { path: string; at: number }[] = [];
  const started = performance.now();
  const tasks = createAfterCommitTasks<void>(
    delayMs,
    async (path) => void runs.push({ path, at: performance.now() - started }),
    () => undefined,
    soonMs,
  );
  return { runs, tasks };
}

test('commits on a file share one run after the delay; other files get their own', async () => {
  const { runs, tasks } = recorder(60, 5);
  tasks.afterCommit('a', undefined);
  tasks.afterCommit('a', undefined);
  tasks.afterCommit('b', undefined);
  await sleep(30);
  assert.equal(runs.length, 0, 'nothing before the delay');
  await sleep(80);
  assert.deepEqual(runs.map((run) => run.path).sort(), ['a', 'b']);
});

test('a commit asking for soon brings the pending run forward, once', async () => {
  const { runs, tasks } = recorder(400, 10);
  tasks.afterCommit('a', undefined);
  tasks.afterCommit('a', undefined, true);
  tasks.afterCommit('a', undefined, true);
  tasks.afterCommit('a', undefined);
  await sleep(150);
  assert.equal(runs.length, 1);
  assert.ok((runs[0]?.at ?? Infinity) < 150, `ran soon: ${runs[0]?.at} ms`);
  await sleep(350);
  assert.equal(runs.length, 1, 'the later run was replaced, not added');
});
