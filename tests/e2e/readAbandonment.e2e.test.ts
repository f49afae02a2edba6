// operations.md §1 QUERY_TIMEOUT_MS: reads past the budget are abandoned, and their threads replaced, round after
// round without taking the server down. Filters on data no index serves and no strata_* function touches (plain
// `equals`/`contains` on json paths) cannot be cancelled inside SQLite, so every one that runs past the budget is
// abandoned while its thread is inside a native SQLite call; the scale bench's 1M-row run lost the whole process there.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startBudgetedServer, type BudgetedServer } from '../support/budgetedServer.ts';
import { until } from '../support/strataProcess.ts';

const ROWS = Number(process.env.ABANDON_ROWS ?? 40_000);
const BUDGET_MS = 100;
const CLIENTS = 6;
const LOAD_MS = Number(process.env.ABANDON_LOAD_MS ?? 8000);
let budgeted: BudgetedServer;
let server: BudgetedServer['server'];
let headers: BudgetedServer['headers'];

before(async () => {
  budgeted = await startBudgetedServer({ name: 'read-abandonment', rows: ROWS, budgetMs: BUDGET_MS });
  ({ server, headers } = budgeted);
});

after(() => budgeted?.close());

const rowsUrl = (): string => budgeted.rowsUrl;

/** A filter no index serves and no strata_* SQL function evaluates: SQLite runs it to its end once started. */
function uncancellableListUrl(salt: number): string {
  const where = { OR: Array.from({ length: 40 }, (_, i) => ({ data: { path: i % 2 === 0 ? 'name' : 'tag', string_contains: `zz${salt}-${i}` } })) };
  return `${rowsUrl()}?first=20&where=${encodeURIComponent(JSON.stringify(where))}`;
}

function exitState(): string {
  return `exit code ${server.child.exitCode} signal ${server.child.signalCode}\n--- stderr ---\n${server.stderr().slice(-3000)}`;
}

test(`the server survives ${LOAD_MS} ms of ${CLIENTS} clients whose reads are abandoned past ${BUDGET_MS} ms, and keeps answering reads by id`, async (t) => {
  let looping = true;
  let salt = 0;
  const statuses = new Map<string, number>();
  const count = (key: string): void => void statuses.set(key, (statuses.get(key) ?? 0) + 1);
  const loops = Array.from({ length: CLIENTS }, async () => {
    while (looping && server.child.exitCode === null && server.child.signalCode === null) {
      try {
        const res = await fetch(uncancellableListUrl(salt++), { headers });
        await res.arrayBuffer();
        count(String(res.status));
      } catch (err) {
        count(`error ${(err as { cause?: { code?: string } }).cause?.code ?? String(err)}`);
        return;
      }
    }
  });
  let byId = 0;
  try {
    const deadline = Date.now() + LOAD_MS;
    for (let i = 0; Date.now() < deadline; i++) {
      assert.ok(server.child.exitCode === null && server.child.signalCode === null, `the server died: ${exitState()}`);
      const id = `r${(i * 7919) % ROWS}`;
      let res: Response;
      try {
        res = await fetch(budgeted.rowUrl(id), { headers });
      } catch (err) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        assert.fail(`get-by-id failed (${String((err as { cause?: unknown }).cause ?? err)}): ${exitState()}`);
      }
      const row = (await res.json()) as { id?: string };
      assert.equal(res.status, 200, JSON.stringify(row));
      assert.equal(row.id, id);
      byId += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    looping = false;
    await Promise.all(loops);
  }
  const replaced = server.stdout().split('did not stop when cancelled').length - 1;
  t.diagnostic(`reads by id answered: ${byId}; threads replaced: ${replaced}; heavy list outcomes ${JSON.stringify([...statuses])}`);
  assert.ok((statuses.get('503') ?? 0) >= 5, `reads were abandoned: ${JSON.stringify([...statuses])}`);
  // The reads could not be cancelled inside SQLite: threads were set aside while in a statement, round after round.
  assert.ok(replaced >= 3, `threads replaced: ${replaced}`);
  assert.deepEqual(
    [...statuses.keys()].filter((status) => status !== '503' && status !== '200'),
    [],
    exitState(),
  );
  // Still alive and serving a list after the load.
  const light = await until('a cheap list after the load', 10_000, async () => {
    const res = await fetch(`${rowsUrl()}?first=5`, { headers });
    return res.status === 200 ? ((await res.json()) as { edges: unknown[] }) : undefined;
  });
  assert.equal(light.edges.length, 5);
  assert.equal(server.child.exitCode, null, exitState());
});
