// `npm run bench -- scale`: one table at 10,000 / 100,000 / 1,000,000 rows (~300-byte rows) in a real `strata serve`
// (issues 29 and 30): load rows/s, bytes per row on disk (log, views, the write side's decision state), branch
// creation time and view bytes per branch, the first write on a new branch, the first write after a restart, steady
// single-row writes, RSS after touching the table, get-by-id / page 1 / page 50 on HEAD, draft and a child branch,
// and the growth ratio between sizes; then the query rows of scaleQueries.ts (indexed and unindexed filters, get-by-id
// under filter load, the rebuild of `rows`). Sizes: SCALE_SIZES=10000,100000 (default 10000,100000,1000000).
// SCALE_ONLY=rebuild measures the load and the rebuild alone, SCALE_ONLY=writes the load, writes and RSS; SCALE_NODE_ARGS passes node flags to the server.
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { BenchFigure } from './run.ts';
import { ADMIN_PASSWORD, createApiCaller, freePort, startStrata, waitFor } from './strataServer.ts';
import { INDEXED_WHERE, QUERY_FIGURES, indexedSchema, listPath, measureQueries, measureRebuild, memoryBreakdown, rssBytes } from './scaleQueries.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- bench JSON
type Call = ReturnType<typeof createApiCaller>;

const BULK = 1000;
const READS = 300;

/** ~300 bytes of JSON per row: text, numbers, a nested object and an array. */
export function rowData(n: number): Json {
  return {
    name: `Product ${n}`,
    sku: `SKU-${String(n).padStart(8, '0')}`,
    category: `category-${n % 50}`,
    price: Math.round(((n * 7919) % 100_000) / 10) / 10,
    stock: n % 1000,
    description: `A reasonably long description of product number ${n}, written so that each row weighs about three hundred bytes.`,
    address: { city: `City ${n % 200}`, zip: String(10_000 + (n % 89_999)) },
    tags: [`t${n % 7}`, `t${n % 11}`],
  };
}

const text = { type: 'string', default: '' };
const number = { type: 'number', default: 0 };
export const scaleSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'sku', 'category', 'price', 'stock', 'description', 'address', 'tags'],
  properties: {
    name: text,
    sku: text,
    category: text,
    price: number,
    stock: number,
    description: text,
    address: { type: 'object', additionalProperties: false, required: ['city', 'zip'], properties: { city: text, zip: text } },
    tags: { type: 'array', items: text },
  },
};

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function latencies(count: number, run: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  const ms: number[] = [];
  for (let i = 0; i < count; i++) ms.push(await timed(() => run(i)));
  return { p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

/** Sum of the sizes of files whose name starts with `prefix` in `dir` (a SQLite file with its -wal and -shm). */
async function bytesOf(dir: string, prefix: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir)) if (name.startsWith(prefix)) total += (await stat(join(dir, name))).size;
  // The version files of a view store (views.db: views/, projection-worker/adapters/sqlite/sqliteViewFiles.ts).
  const versions = join(dir, prefix.replace(/\.db$/, ''));
  for (const name of await readdir(versions).catch(() => [] as string[])) total += (await stat(join(versions, name))).size;
  return total;
}

/** Bytes of the pages a SQLite file's tables and indexes use (dbstat: free pages and the file's slack excluded). */
async function usedBytes(dir: string, file: string): Promise<number> {
  const { existsSync } = await import('node:fs');
  const { default: Database } = await import('better-sqlite3');
  // The file and the version files of its view store (views.db: views/*.db).
  const versions = join(dir, file.replace(/\.db$/, ''));
  const names = (await readdir(versions).catch(() => [] as string[])).filter((name) => name.endsWith('.db'));
  let total = 0;
  for (const path of [join(dir, file), ...names.map((name) => join(versions, name))]) {
    if (!existsSync(path)) continue;
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      total += (db.prepare('SELECT SUM(pgsize) FROM dbstat').pluck().get() as number | null) ?? 0;
    } finally {
      db.close();
    }
  }
  return total;
}

type Server = { readonly url: string; readonly child: ChildProcess; readonly call: Call; token: string };

/** Extra node arguments of the server (SCALE_NODE_ARGS, space-separated: `--cpu-prof --cpu-prof-dir=/tmp/prof`). */
/** How long the server idles before the second RSS figure (lazy view store threads end after 30 s idle). */
const IDLE_MS = 45_000;
const NODE_ARGS = (process.env.SCALE_NODE_ARGS ?? '').split(' ').filter((arg) => arg.length > 0);

async function boot(dir: string): Promise<Server> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = startStrata(dir, port, NODE_ARGS, { METRICS_ENABLED: 'true' });
  await waitFor(`${url}/health/live`, 600_000);
  const call = createApiCaller(url);
  const token = (await call('POST', '/api/auth/login', { username: 'admin', password: ADMIN_PASSWORD })).json.accessToken as string;
  return { url, child, call, token };
}

async function stop(server: Server): Promise<void> {
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.once('exit', resolve));
}

/**
 * Runs `list` until it answers within 50 ms twice in a row (at most 60 s), then waits 10 s more: a list answers that
 * fast through an index as soon as it exists, while the build of another one may still run.
 */
async function afterIndexBuilds(list: () => Promise<number>): Promise<void> {
  const deadline = Date.now() + 60_000;
  let fast = 0;
  while (fast < 2 && Date.now() < deadline) {
    // A list past the read budget (503) counts as slow.
    fast = (await list().catch(() => Number.POSITIVE_INFINITY)) < 50 ? fast + 1 : 0;
    if (fast < 2) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await new Promise((resolve) => setTimeout(resolve, 10_000));
}

/** Waits until every projection has caught up with the log. */
async function settled(server: Server): Promise<void> {
  for (;;) {
    const list = (await server.call('GET', '/api/projections', undefined, server.token)).json as Json[];
    if (list.every((p: Json) => (p.lag ?? 0) === 0)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

type SizeResult = Record<string, number>;

async function measureSize(rows: number, log: (line: string) => void): Promise<SizeResult> {
  const dir = await mkdtemp(join(tmpdir(), `strata-scale-${rows}-`));
  const out: SizeResult = {};
  let server = await boot(dir);
  try {
    const { call } = server;
    const as = <T>(method: string, path: string, body?: unknown): Promise<T> => call(method, path, body, server.token).then((r) => r.json as T);
    await as('POST', '/api/organizations', { organizationId: 'scale' });
    await as('POST', '/api/organization/scale/projects', { projectName: 'shop' });
    const branch = '/api/organization/scale/project/shop/branch/master';
    const draft = (await as<Json>('GET', branch)).draftRevisionId as string;
    // `x-index` on the field of the indexed filter, where the server knows it (domain.md §5.5).
    const indexed = await call(
      'POST',
      `/api/revision/${draft}/tables`,
      { tableId: 'products', schema: indexedSchema(scaleSchema) },
      server.token,
    ).then(
      () => true,
      () => false,
    );
    if (!indexed) await as('POST', `/api/revision/${draft}/tables`, { tableId: 'products', schema: scaleSchema });
    if (!indexed) log('  indexed filter: n/a (x-index not available)');

    // Load.
    const loadMs = await timed(async () => {
      for (let offset = 0; offset < rows; offset += BULK) {
        const batch = Array.from({ length: Math.min(BULK, rows - offset) }, (_, i) => ({ rowId: `p${offset + i}`, data: rowData(offset + i) }));
        await as('POST', `/api/revision/${draft}/table/products/rows/bulk`, { rows: batch });
        if ((offset / BULK) % 100 === 0) log(`  loaded ${offset + batch.length}/${rows}`);
      }
    });
    out.loadRowsPerSecond = rows / (loadMs / 1000);
    await as('POST', `${branch}/revisions`, { comment: 'load' });
    await settled(server);
    const head = (await as<Json>('GET', branch)).headRevisionId as string;
    const masterDraft = (await as<Json>('GET', branch)).draftRevisionId as string;
    out.logBytesPerRow = (await bytesOf(dir, 'events.db')) / rows;
    out.viewBytesPerRow = (await bytesOf(dir, 'views.db')) / rows;
    out.stateBytesPerRow = (await bytesOf(dir, 'state.db')) / rows;

    const rowsPath = (revision: string) => `/api/revision/${revision}/table/products`;
    const randomId = (): string => `p${Math.floor(Math.random() * rows)}`;
    const queryServer = { url: server.url, pid: server.child.pid as number, token: server.token, viewBytes: () => bytesOf(dir, 'views.db') };
    // SCALE_ONLY=rebuild: the load, then the rebuild of `rows` under a write load, nothing else (issue 30).
    if (process.env.SCALE_ONLY === 'rebuild')
      return Object.assign(out, await measureRebuild(queryServer, rowsPath, { head, draft: masterDraft }, rows, log));

    // Steady single-row writes on master's draft.
    const writes = await latencies(200, (i) => as('PUT', `${rowsPath(masterDraft)}/row/p${(i * 7919) % rows}`, { data: rowData(i + rows) }));
    out.singleWriteP50Ms = writes.p50;
    out.singleWriteP99Ms = writes.p99;
    out.rssAfterWritesMB = (await rssBytes(server.child.pid as number)) / 1e6;
    log(`  after the writes: RSS ${out.rssAfterWritesMB.toFixed(0)} MB: ${await memoryBreakdown(server.child.pid as number, server.url)}`);
    // The same process idle: V8 collects the load's garbage (its old space holds 70-140 MB of it right after the
    // writes, varying from run to run) and lazy view store threads end.
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    out.rssIdleAfterWritesMB = (await rssBytes(server.child.pid as number)) / 1e6;
    log(`  idle: RSS ${out.rssIdleAfterWritesMB.toFixed(0)} MB: ${await memoryBreakdown(server.child.pid as number, server.url)}`);
    // SCALE_ONLY=writes: the load, the single-row writes and RSS after them, nothing else (issue 29).
    if (process.env.SCALE_ONLY === 'writes') return out;

    // Branch creation and the child's first write.
    const viewsBefore = await usedBytes(dir, 'views.db');
    const stateBefore = await usedBytes(dir, 'state.db');
    out.branchCreateMs = await timed(() => as('POST', `/api/revision/${head}/branches`, { branchName: 'child' }));
    await settled(server);
    out.viewBytesPerBranch = (await usedBytes(dir, 'views.db')) - viewsBefore;
    out.stateBytesPerBranch = (await usedBytes(dir, 'state.db')) - stateBefore;
    const child = await as<Json>('GET', '/api/organization/scale/project/shop/branch/child');
    out.firstWriteNewBranchMs = await timed(() => as('PUT', `${rowsPath(child.draftRevisionId)}/row/p1`, { data: rowData(-1) }));
    for (let i = 2; i <= 10; i++) await as('PUT', `${rowsPath(child.draftRevisionId)}/row/p${i * 13}`, { data: rowData(-i) });
    await settled(server);
    // The first write of five more new branches (one sample above is at the mercy of whatever the process does then).
    const firsts: number[] = [];
    for (let b = 0; b < 5; b++) {
      const branchName = `sibling${b}`;
      await as('POST', `/api/revision/${head}/branches`, { branchName });
      const sibling = await as<Json>('GET', `/api/organization/scale/project/shop/branch/${branchName}`);
      firsts.push(await timed(() => as('PUT', `${rowsPath(sibling.draftRevisionId)}/row/p${b + 2}`, { data: rowData(-b - 20) })));
    }
    firsts.sort((a, b) => a - b);
    out.firstWriteNewBranchP50Ms = firsts[2] as number;
    out.firstWriteNewBranchMaxMs = firsts[4] as number;
    await settled(server);

    // The table's first list starts the builds of its x-index field's index, and a list in a new order that order's
    // index (on the index thread, at the event loop's priority: ~5 s each at 1,000,000 rows). The reads below are
    // measured after the one-off builds of the lists they and the filters make, not while one shares the core.
    // The filters' list (by id, on the x-index field) asks for both indexes.
    if (indexed) await afterIndexBuilds(() => timed(() => as('GET', listPath(rowsPath(head), INDEXED_WHERE))));

    // Reads: get-by-id, page 1 and page 50 (keyset cursors) on HEAD, master's draft and the child's draft.
    for (const [name, revision] of [
      ['head', head],
      ['draft', masterDraft],
      ['child', child.draftRevisionId as string],
    ] as const) {
      const byId = await latencies(READS, () => as('GET', `${rowsPath(revision)}/row/${randomId()}`));
      out[`getById_${name}_p50Ms`] = byId.p50;
      out[`getById_${name}_p99Ms`] = byId.p99;
      const page1 = await latencies(50, () => as('GET', `${rowsPath(revision)}/rows?first=20`));
      out[`page1_${name}_p50Ms`] = page1.p50;
      let after: string | null = null;
      for (let page = 1; page < 50; page++) {
        const query: string = `${rowsPath(revision)}/rows?first=20${after === null ? '' : `&after=${encodeURIComponent(after)}`}`;
        after = (await as<Json>('GET', query)).pageInfo.endCursor as string;
      }
      const page50Path = `${rowsPath(revision)}/rows?first=20&after=${encodeURIComponent(after as string)}`;
      const page50 = await latencies(50, () => as('GET', page50Path));
      out[`page50_${name}_p50Ms`] = page50.p50;
    }
    out.rssAfterReadsMB = (await rssBytes(server.child.pid as number)) / 1e6;
    // SCALE_QUERIES=0 leaves out the query rows (issue 30) and measures the branch rows (issue 29) alone.
    if (process.env.SCALE_QUERIES !== '0')
      Object.assign(out, await measureQueries(queryServer, rowsPath, { head, draft: masterDraft }, rows, indexed, log));
    await settled(server);

    // Restart: the first write after it, and RSS after it.
    await stop(server);
    const restartMs = await timed(async () => {
      server = await boot(dir);
    });
    out.restartToListeningMs = restartMs;
    out.firstWriteAfterRestartMs = await timed(() => server.call('PUT', `${rowsPath(masterDraft)}/row/p3`, { data: rowData(-3) }, server.token));
    out.rssAfterRestartWriteMB = (await rssBytes(server.child.pid as number)) / 1e6;
    return out;
  } finally {
    await stop(server).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

const FIGURES: readonly (readonly [string, string, string])[] = [
  ['loadRowsPerSecond', 'load (bulk writes of 1,000)', 'rows/s'],
  ['logBytesPerRow', 'log bytes per row', 'B'],
  ['viewBytesPerRow', 'view bytes per row', 'B'],
  ['stateBytesPerRow', 'decision state bytes per row', 'B'],
  ['branchCreateMs', 'branch creation', 'ms'],
  ['viewBytesPerBranch', 'view bytes per branch', 'B'],
  ['stateBytesPerBranch', 'decision state bytes per branch', 'B'],
  ['firstWriteNewBranchMs', 'first write on a new branch', 'ms'],
  ['firstWriteNewBranchP50Ms', 'first write on five more new branches: p50', 'ms'],
  ['firstWriteNewBranchMaxMs', 'first write on five more new branches: max', 'ms'],
  ['restartToListeningMs', 'restart to listening', 'ms'],
  ['firstWriteAfterRestartMs', 'first write after a restart', 'ms'],
  ['singleWriteP50Ms', 'steady single-row write p50', 'ms'],
  ['singleWriteP99Ms', 'steady single-row write p99', 'ms'],
  ['rssAfterWritesMB', 'RSS after writing to the table', 'MB'],
  ['rssIdleAfterWritesMB', 'RSS 45 s after those writes (idle)', 'MB'],
  ['rssAfterRestartWriteMB', 'RSS after a restart and one write', 'MB'],
  ['getById_head_p50Ms', 'get-by-id HEAD p50', 'ms'],
  ['getById_head_p99Ms', 'get-by-id HEAD p99', 'ms'],
  ['getById_draft_p50Ms', 'get-by-id draft p50', 'ms'],
  ['getById_child_p50Ms', 'get-by-id child branch p50', 'ms'],
  ['getById_child_p99Ms', 'get-by-id child branch p99', 'ms'],
  ['page1_head_p50Ms', 'page 1 HEAD p50', 'ms'],
  ['page1_draft_p50Ms', 'page 1 draft p50', 'ms'],
  ['page1_child_p50Ms', 'page 1 child branch p50', 'ms'],
  ['page50_head_p50Ms', 'page 50 HEAD p50', 'ms'],
  ['page50_draft_p50Ms', 'page 50 draft p50', 'ms'],
  ['page50_child_p50Ms', 'page 50 child branch p50', 'ms'],
  ...QUERY_FIGURES,
];

/** Runs every size and reports each figure per size with the growth ratio of the largest size against the smallest. */
export async function runScaleBench(): Promise<BenchFigure[]> {
  const sizes = (process.env.SCALE_SIZES ?? '10000,100000,1000000').split(',').map(Number);
  const bySize = new Map<number, SizeResult>();
  for (const rows of sizes) {
    process.stderr.write(`scale: ${rows} rows\n`);
    bySize.set(rows, await measureSize(rows, (line) => process.stderr.write(`${line}\n`)));
  }
  const smallest = bySize.get(sizes[0] as number) as SizeResult;
  const largest = bySize.get(sizes[sizes.length - 1] as number) as SizeResult;
  const figures: BenchFigure[] = [];
  for (const [key, name, unit] of FIGURES) {
    for (const rows of sizes) {
      const value = bySize.get(rows)?.[key];
      if (key.startsWith('indexedFilter') && value === undefined) {
        figures.push({ name: `${name} @ ${rows.toLocaleString('en-US')} rows`, value: Number.NaN, unit, note: 'n/a (x-index not available)' });
      }
      if (value === undefined || Number.isNaN(value)) continue;
      figures.push({ name: `${name} @ ${rows.toLocaleString('en-US')} rows`, value: Math.round(value * 100) / 100, unit });
    }
    const a = smallest[key];
    const b = largest[key];
    if (sizes.length > 1 && a !== undefined && b !== undefined && a > 0) {
      figures.push({ name: `${name}: growth ${sizes[sizes.length - 1]} / ${sizes[0]}`, value: Math.round((b / a) * 100) / 100, unit: '×' });
    }
  }
  return figures;
}
