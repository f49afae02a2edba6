// operations.md §1 QUERY_TIMEOUT_MS, errors.md QUERY_TIMEOUT: a view read past the budget is cancelled with
// `503 QUERY_TIMEOUT` (Retry-After) and costs only its caller: while clients loop on such reads against a real
// `strata serve`, reads by id keep answering at once.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startBudgetedServer, type BudgetedServer } from '../support/budgetedServer.ts';
import { until } from '../support/strataProcess.ts';

const ROWS = 40_000;
const BUDGET_MS = 100;
let budgeted: BudgetedServer;
let headers: BudgetedServer['headers'];

before(async () => {
  budgeted = await startBudgetedServer({ name: 'query-timeout', rows: ROWS, budgetMs: BUDGET_MS });
  ({ headers } = budgeted);
});

after(() => budgeted?.close());

const rowsUrl = (): string => budgeted.rowsUrl;

/** A filter no index serves, costly per row (case-insensitive tests of several paths), with its totalCount. */
function heavyListUrl(salt: number): string {
  const paths = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? 'name' : 'tag'));
  const where = { OR: paths.map((path, i) => ({ data: { path, string_contains: `zz${salt}-${i}`, mode: 'insensitive' } })) };
  return `${rowsUrl()}?first=20&where=${encodeURIComponent(JSON.stringify(where))}`;
}

test(`a list past QUERY_TIMEOUT_MS (${BUDGET_MS} ms) over ${ROWS.toLocaleString('en-US')} rows answers 503 QUERY_TIMEOUT`, async () => {
  const started = Date.now();
  const res = await fetch(heavyListUrl(0), { headers });
  const waited = Date.now() - started;
  const body = (await res.json()) as { statusCode: number; code: string; message: string };
  assert.equal(res.status, 503, JSON.stringify(body));
  assert.equal(body.code, 'QUERY_TIMEOUT');
  assert.equal(res.headers.get('retry-after'), '1');
  assert.ok(waited < BUDGET_MS + 2000, `answered after ${waited} ms`);
  // A cheap list still answers (on a loaded machine a 100 ms budget may need a second try).
  const edges = await until('a cheap list', 10_000, async () => {
    const light = await fetch(`${rowsUrl()}?first=5`, { headers });
    const body = (await light.json()) as { code?: string; edges?: unknown[] };
    if (light.status === 503 && body.code === 'QUERY_TIMEOUT') return undefined;
    assert.equal(light.status, 200, JSON.stringify(body));
    return body.edges;
  });
  assert.equal(edges?.length, 5);
});

test('while five clients loop on reads past the budget, reads by id keep answering (p99 small)', async (t) => {
  let looping = true;
  const statuses = new Map<number, number>();
  const loops = Array.from({ length: 5 }, async (_, client) => {
    for (let i = 0; looping; i++) {
      const res = await fetch(heavyListUrl(client * 1000 + i), { headers });
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
  });
  const latencies: number[] = [];
  try {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const deadline = Date.now() + 4000;
    for (let i = 0; Date.now() < deadline; i++) {
      const id = `r${(i * 7919) % ROWS}`;
      const started = performance.now();
      const res = await fetch(budgeted.rowUrl(id), { headers });
      const row = (await res.json()) as { id?: string };
      latencies.push(performance.now() - started);
      assert.equal(res.status, 200, JSON.stringify(row));
      assert.equal(row.id, id);
    }
  } finally {
    looping = false;
    await Promise.all(loops);
  }
  latencies.sort((a, b) => a - b);
  const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? Infinity;
  const max = latencies.at(-1) ?? Infinity;
  t.diagnostic(
    `get-by-id while heavy lists loop: n=${latencies.length} p50=${latencies[Math.floor(latencies.length / 2)]?.toFixed(1)} ms p99=${p99.toFixed(1)} ms max=${max.toFixed(1)} ms; heavy list statuses ${JSON.stringify([...statuses])}`,
  );
  assert.ok((statuses.get(503) ?? 0) > 0, `the heavy lists timed out: ${JSON.stringify([...statuses])}`);
  assert.deepEqual(
    [...statuses.keys()].filter((status) => status !== 503 && status !== 200),
    [],
  );
  // Shared, loaded 2-core machines: generous, but far below what five such reads cost when they run to their end on
  // the event loop (issue 30: get-by-id p99 7.3 s).
  assert.ok(p99 < 1000, `get-by-id p99 ${p99.toFixed(1)} ms`);
});
