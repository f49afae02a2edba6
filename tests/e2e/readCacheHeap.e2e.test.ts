// Issue 31 item 9: the read caches are bounded in bytes, not only in entries. An anonymous client asking a public
// project for many distinct large pages (`first=1000` of a 10,000-row table, each a new filter) must not grow the
// server's heap past a fixed bound: every page of a committed revision is kept, so with entry-count bounds alone
// 2,000 such pages held gigabytes. The server runs with a 256 MiB old space, so a cache that keeps what it is asked
// for kills it; the heap is also read from the server's own /metrics (prom-client's default metrics).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedRows } from '../support/seedRows.ts';
import { startStrataProcess, type StrataProcess } from '../support/strataProcess.ts';

const ROWS = 10_000;
/** Distinct REST pages, then distinct GraphQL pages, each of 1,000 rows. */
const REST_PAGES = Number(process.env.HEAP_TEST_REST_PAGES ?? 450);
const GRAPHQL_PAGES = Number(process.env.HEAP_TEST_GRAPHQL_PAGES ?? 100);
const CONCURRENCY = 4;
/** V8's old-space limit of the server (`--max-old-space-size`, MiB). */
const OLD_SPACE_MIB = 256;
/**
 * The bound asserted on `nodejs_heap_size_used_bytes` (old space plus the young generation): the page, row and result
 * caches together may hold ~130 MiB by their estimates (~70 MiB real), the process needs ~100 MiB of its own, and a
 * reading includes garbage not yet collected.
 */
const HEAP_BOUND = (OLD_SPACE_MIB + 64) * 1024 * 1024;
const ADMIN_PASSWORD = 'heap-admin-password';

let dir = '';
let server: StrataProcess;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-heap-'));
  const dataDir = join(dir, 'data');
  await seedRows({ dataDir, adminPassword: ADMIN_PASSWORD, projectName: 'open', rows: ROWS });
  server = await startStrataProcess({
    DATA_DIR: dataDir,
    ADMIN_PASSWORD,
    METRICS_ENABLED: 'true',
    CONSISTENCY_TIMEOUT_MS: '60000',
    NODE_OPTIONS: `--max-old-space-size=${OLD_SPACE_MIB}`,
  });
});

after(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test JSON
async function call(method: string, path: string, token: string | null, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text };
}

async function heapUsed(): Promise<number> {
  const res = await fetch(`${server.url}/metrics`);
  assert.equal(res.status, 200);
  const line = (await res.text()).split('\n').find((l) => l.startsWith('nodejs_heap_size_used_bytes'));
  assert.ok(line, 'nodejs_heap_size_used_bytes is on /metrics');
  return Number(line.split(' ')[1]);
}

/** Runs `count` jobs, `CONCURRENCY` at a time; a server that died meanwhile fails with its exit and last output. */
async function hammer(count: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < count) await job(next++);
      }),
    );
  } catch (err) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { exitCode, signalCode } = server.child;
    if (exitCode === null && signalCode === null) throw err;
    const fatal =
      server
        .stderr()
        .split('\n')
        .find((line) => line.includes('FATAL ERROR')) ?? server.stderr().slice(-600);
    assert.fail(`the server died after ${next} requests (exit ${String(exitCode ?? signalCode)}): ${fatal}`);
  }
}

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

test(`${REST_PAGES} distinct REST and ${GRAPHQL_PAGES} GraphQL pages of 1,000 rows, anonymous: the heap stays under ${mib(HEAP_BOUND)}`, async () => {
  const login = await call('POST', '/api/auth/login', null, { username: 'admin', password: ADMIN_PASSWORD });
  assert.equal(login.status, 200);
  const token = login.body.accessToken as string;
  const project = '/api/organization/admin/project/open';
  assert.equal((await call('PATCH', project, token, { isPublic: true })).status, 200);
  const branchName = (await call('GET', project, token)).body.rootBranchName as string;
  assert.equal((await call('POST', `${project}/branch/${branchName}/revisions`, token, { comment: 'seed' })).status, 201);
  const head = (await call('GET', `${project}/branch/${branchName}`, token)).body.headRevisionId as string;
  for (const type of ['REST_API', 'GRAPHQL']) assert.equal((await call('POST', `/api/revision/${head}/endpoints`, token, { type })).status, 201);

  const rest = `/endpoint/rest/admin/open/${branchName}/head/tables/items/rows`;
  const first = await call('GET', `${rest}?first=1000`, null);
  assert.equal(first.status, 200, JSON.stringify(first.body).slice(0, 500));
  assert.equal(first.body.edges.length, 1000);
  const before = await heapUsed();

  let peak = before;
  const sample = async (i: number): Promise<void> => {
    if (i % 100 === 99) peak = Math.max(peak, await heapUsed());
  };
  // Each filter is new (n >= i keeps at least 1,000 rows for i < 9,000), so every page is read and kept.
  await hammer(REST_PAGES, async (i) => {
    const where = encodeURIComponent(JSON.stringify({ data: { path: 'n', gte: i % 9000 } }));
    const page = await call('GET', `${rest}?first=1000&where=${where}`, null);
    assert.equal(page.status, 200, JSON.stringify(page.body).slice(0, 500));
    assert.equal(page.body.edges.length, 1000);
    await sample(i);
  });
  const graphql = `/endpoint/graphql/admin/open/${branchName}/head`;
  await hammer(GRAPHQL_PAGES, async (i) => {
    const query = `{ items(data: { first: 1000, where: { data: { path: "n", gte: ${i} } } }) { edges { node { id data { name n tag } } } } }`;
    const page = await call('POST', graphql, null, { query });
    assert.equal(page.status, 200, JSON.stringify(page.body).slice(0, 500));
    assert.equal(page.body.data.items.edges.length, 1000);
    await sample(i);
  });
  const end = await heapUsed();
  peak = Math.max(peak, end);
  process.stdout.write(`# heap used: before ${mib(before)}, peak sample ${mib(peak)}, end ${mib(end)} (bound ${mib(HEAP_BOUND)})\n`);
  assert.ok(peak < HEAP_BOUND, `heap reached ${mib(peak)}, over ${mib(HEAP_BOUND)}`);
  // Still serving, in the same process.
  assert.equal((await call('GET', `${rest}?first=1000`, null)).status, 200);
  assert.equal(server.child.exitCode, null);
});
