// The query rows of `npm run bench -- scale` (issue 30 items 3-5), run against the table scaleBench.ts loaded:
// indexed and unindexed filters (p50/p99, totalCount, answers past QUERY_TIMEOUT_MS), get-by-id while five clients
// loop on unindexed filters, and the rebuild of `rows` in the server (rows/s, peak RSS, reader and writer p99/max
// while a write load runs).

import { spawnSync } from 'node:child_process';
import { cpuSeconds, hasTaskset } from './strataServer.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- bench JSON

export type QueryServer = {
  readonly url: string;
  readonly pid: number;
  readonly token: string;
  /** Bytes of the view store on disk (views.db, its version files and their WALs). */
  readonly viewBytes: () => Promise<number>;
};
export type QueryFigures = Record<string, number>;

/** `x-index` (domain.md §5.5) on the field the indexed filter reads; the schema without it when the server refuses it. */
export function indexedSchema(schema: Json): Json {
  return { ...schema, properties: { ...schema.properties, stock: { ...schema.properties.stock, 'x-index': true } } };
}

/** stock = n % 1000: the indexed equality matches rows / 1000 rows (1,000 at a million rows). */
export const INDEXED_WHERE = { data: { path: 'stock', equals: 7 } };
/** address.zip = 10000 + n % 89999: no index serves it; a handful of matches. */
const UNINDEXED_WHERE = { data: { path: 'address.zip', equals: '10007' } };
const BY_ID = [{ id: 'asc' }];

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function get(server: QueryServer, path: string): Promise<{ status: number; json: Json; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${server.token}` } });
  const text = await res.text();
  return { status: res.status, json: text.length > 0 ? JSON.parse(text) : null, ms: performance.now() - started };
}

/** Resident set size of process `pid` (Linux /proc), bytes. */
export async function rssBytes(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const match = /VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/**
 * Where the RSS of process `pid` lives, for the log: anonymous and file-backed memory (/proc smaps_rollup), threads,
 * and V8's heap figures when the server exports metrics (METRICS_ENABLED).
 */
export async function memoryBreakdown(pid: number, url: string): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const kib = (text: string, name: string): number => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(text)?.[1] ?? Number.NaN);
  const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const threads = /Threads:\s+(\d+)/.exec(status)?.[1] ?? '?';
  const metrics = await fetch(`${url}/metrics`).then(
    (res) => (res.ok ? res.text() : ''),
    () => '',
  );
  const metric = (name: string): string => {
    const value = new RegExp(`^${name} (\\S+)`, 'm').exec(metrics)?.[1];
    return value === undefined ? '?' : (Number(value) / 1e6).toFixed(0);
  };
  return (
    `anon ${(kib(rollup, 'Anonymous') / 1024).toFixed(0)} MiB, file ${((kib(rollup, 'Rss') - kib(rollup, 'Anonymous')) / 1024).toFixed(0)} MiB, ` +
    `${threads} threads; heap used/total ${metric('nodejs_heap_size_used_bytes')}/${metric('nodejs_heap_size_total_bytes')} MB, external ${metric('nodejs_external_memory_bytes')} MB`
  );
}

export function listPath(rowsPath: string, where: unknown): string {
  return `${rowsPath}/rows?first=20&where=${encodeURIComponent(JSON.stringify(where))}&orderBy=${encodeURIComponent(JSON.stringify(BY_ID))}`;
}

/** p50/p99 of `runs` sequential lists, their totalCount and how many answered 503 QUERY_TIMEOUT. */
async function filterFigures(server: QueryServer, path: string, runs: number, prefix: string, out: QueryFigures): Promise<void> {
  const ms: number[] = [];
  let timeouts = 0;
  for (let i = 0; i < runs; i++) {
    const reply = await get(server, path);
    ms.push(reply.ms);
    if (reply.status === 503 && reply.json?.code === 'QUERY_TIMEOUT') timeouts += 1;
    else if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${JSON.stringify(reply.json).slice(0, 300)}`);
    else out[`${prefix}TotalCount`] = reply.json.totalCount as number;
  }
  ms.sort((a, b) => a - b);
  out[`${prefix}P50Ms`] = percentile(ms, 50);
  out[`${prefix}P99Ms`] = percentile(ms, 99);
  out[`${prefix}Timeouts`] = timeouts;
}

/** Latencies of `run` looped until `stop()` says so. */
async function loop(run: () => Promise<number>, stop: () => boolean): Promise<number[]> {
  const ms: number[] = [];
  while (!stop()) ms.push(await run());
  return ms;
}

export async function measureQueries(
  server: QueryServer,
  rowsPath: (revision: string) => string,
  revisions: { readonly head: string; readonly draft: string },
  rows: number,
  indexed: boolean,
  log: (line: string) => void,
): Promise<QueryFigures> {
  const out: QueryFigures = {};
  const path = rowsPath(revisions.head);
  const randomId = (): string => `p${Math.floor(Math.random() * rows)}`;

  if (indexed) await filterFigures(server, listPath(path, INDEXED_WHERE), 30, 'indexedFilter', out);
  await filterFigures(server, listPath(path, UNINDEXED_WHERE), 10, 'unindexedFilter', out);
  log(`  filters: indexed ${indexed ? `${out.indexedFilterP50Ms?.toFixed(1)} ms` : 'n/a'}, unindexed ${out.unindexedFilterP50Ms?.toFixed(1)} ms`);

  // Get-by-id while five clients loop on unindexed filters (each a different value: no cache serves them).
  let stopped = false;
  let salt = 0;
  const heavy = Array.from({ length: 5 }, () =>
    loop(
      async () => (await get(server, listPath(path, { data: { path: 'address.zip', equals: String(10_000 + salt++) } }))).ms,
      () => stopped,
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  const byId: number[] = [];
  for (let i = 0; i < 200; i++) {
    const reply = await get(server, `${path}/row/${randomId()}`);
    if (reply.status !== 200) throw new Error(`get-by-id: ${reply.status} ${JSON.stringify(reply.json).slice(0, 300)}`);
    byId.push(reply.ms);
  }
  stopped = true;
  await Promise.all(heavy);
  byId.sort((a, b) => a - b);
  out.getByIdUnderLoadP99Ms = percentile(byId, 99);
  out.getByIdUnderLoadMaxMs = byId.at(-1) ?? Number.NaN;

  return Object.assign(out, await measureRebuild(server, rowsPath, revisions, rows, log));
}

/**
 * Waits until process `pid` used under 5 % of a core in each of two consecutive half-seconds (at most 60 s): the
 * index builds a table's first lists start (the default order's, the x-index field's: seconds each at 1,000,000 rows)
 * and a dropped version's clean-up end before a rebuild is timed. Without it, a rebuild right after the load shared
 * the pinned core with those builds for its first ~5 s.
 */
async function quiet(pid: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  let calm = 0;
  let last = await cpuSeconds(pid);
  while (calm < 2 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = await cpuSeconds(pid);
    calm = now - last < 0.025 ? calm + 1 : 0;
    last = now;
  }
}

/** The peak RSS of process `pid` from now until `stop()`, sampled every 200 ms. */
async function sampleRss(pid: number): Promise<{ peak(): number; stop(): void }> {
  let peak = await rssBytes(pid);
  const timer = setInterval(() => void rssBytes(pid).then((bytes) => (peak = Math.max(peak, bytes))), 200);
  return { peak: () => peak, stop: () => clearInterval(timer) };
}

/**
 * Starts a rebuild of `rows` in the server and returns the milliseconds until readers switched to its version (the
 * active version passed `version`), polled every 100 ms. It returns once the rebuild has ended: after the switch
 * the old version is dropped after a grace for reads in flight (500 ms), which is not the rebuild's time. Until
 * session 8 the figure ran to that end, ~0.6-0.8 s later at 1,000,000 rows.
 */
async function rebuildRows(server: QueryServer, version: number): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${server.url}/api/projections/rows/rebuild`, { method: 'POST', headers: { authorization: `Bearer ${server.token}` } });
  if (res.status !== 202) throw new Error(`rebuild: ${res.status} ${await res.text()}`);
  let switchedMs: number | null = null;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = (await get(server, '/api/projections')).json.find((p: Json) => p.name === 'rows');
    if (switchedMs === null && now.version > version) switchedMs = performance.now() - started;
    if (switchedMs !== null && now.rebuild === null) return switchedMs;
  }
}

/**
 * The rebuild of `rows` in the server: first alone (the server idle otherwise), then while a reader lists page 1
 * and a writer writes single rows (each in a closed loop: on the bench's one pinned core they take what share of it
 * the scheduler gives them, so the rebuild under load gets about half the core), then under the same load with the
 * server on both cores.
 */
export async function measureRebuild(
  server: QueryServer,
  rowsPath: (revision: string) => string,
  revisions: { readonly head: string; readonly draft: string },
  rows: number,
  log: (line: string) => void,
): Promise<QueryFigures> {
  const out: QueryFigures = {};
  const path = rowsPath(revisions.head);
  // The live version has the indexes readers make on their first lists (the default order's, the x-index one)
  // before the rebuild starts, as after the rows above; otherwise the rebuild would meet their builds.
  await get(server, `${path}/rows?first=20`);
  await get(server, listPath(path, INDEXED_WHERE));
  await quiet(server.pid);
  const idle = (await get(server, '/api/projections')).json.find((p: Json) => p.name === 'rows');
  const idleRss = await sampleRss(server.pid);
  let idleMs: number;
  try {
    idleMs = await rebuildRows(server, idle.version);
  } finally {
    idleRss.stop();
  }
  out.rebuildIdleRowsPerSecond = rows / (idleMs / 1000);
  out.rebuildIdlePeakRssMB = idleRss.peak() / 1e6;
  log(`  rebuild of rows alone: ${out.rebuildIdleRowsPerSecond.toFixed(0)} rows/s, peak RSS ${out.rebuildIdlePeakRssMB.toFixed(0)} MB`);

  const viewBytesBefore = await server.viewBytes();
  Object.assign(out, await rebuildUnderLoad(server, rowsPath, revisions, rows, 'rebuild'));
  // The old version's file is deleted after the switch: the views are back to about their size before.
  out.rebuildViewBytesRatio = (await server.viewBytes()) / viewBytesBefore;
  log(
    `  rebuild of rows (one core): ${out.rebuildRowsPerSecond?.toFixed(0)} rows/s, peak RSS ${out.rebuildPeakRssMB?.toFixed(0)} MB, reader p99/max ${out.rebuildReaderP99Ms?.toFixed(0)}/${out.rebuildReaderMaxMs?.toFixed(0)} ms, writer p99/max ${out.rebuildWriterP99Ms?.toFixed(0)}/${out.rebuildWriterMaxMs?.toFixed(0)} ms (${out.rebuildWrites} writes), views after/before ${out.rebuildViewBytesRatio.toFixed(2)}`,
  );
  if (!hasTaskset) return out;
  // The same with the server on both cores of the machine (every thread of it: `taskset -a`), as `strata serve` runs
  // unpinned: the shadow's writing thread can then take the core the event loop does not use.
  spawnSync('taskset', ['-a', '-p', '-c', '0,1', String(server.pid)]);
  try {
    Object.assign(out, await rebuildUnderLoad(server, rowsPath, revisions, rows, 'rebuildTwoCores'));
  } finally {
    spawnSync('taskset', ['-a', '-p', '-c', '0', String(server.pid)]);
  }
  log(
    `  rebuild of rows (two cores): ${out.rebuildTwoCoresRowsPerSecond?.toFixed(0)} rows/s, reader p99/max ${out.rebuildTwoCoresReaderP99Ms?.toFixed(0)}/${out.rebuildTwoCoresReaderMaxMs?.toFixed(0)} ms, writer p99/max ${out.rebuildTwoCoresWriterP99Ms?.toFixed(0)}/${out.rebuildTwoCoresWriterMaxMs?.toFixed(0)} ms (${out.rebuildTwoCoresWrites} writes)`,
  );
  return out;
}

/** One rebuild of `rows` while a reader lists page 1 and a writer writes single rows (figures named `<prefix>…`). */
async function rebuildUnderLoad(
  server: QueryServer,
  rowsPath: (revision: string) => string,
  revisions: { readonly head: string; readonly draft: string },
  rows: number,
  prefix: string,
): Promise<QueryFigures> {
  const path = rowsPath(revisions.head);
  const randomId = (): string => `p${Math.floor(Math.random() * rows)}`;
  await quiet(server.pid);
  const before = (await get(server, '/api/projections')).json.find((p: Json) => p.name === 'rows');
  let rebuilding = true;
  const rss = await sampleRss(server.pid);
  const reader = loop(
    async () => (await get(server, `${path}/rows?first=20`)).ms,
    () => !rebuilding,
  );
  let w = 0;
  const writer = loop(
    async () => {
      const started = performance.now();
      const res = await fetch(`${server.url}${rowsPath(revisions.draft)}/row/${randomId()}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ patches: [{ op: 'replace', path: '/stock', value: w++ % 1000 }] }),
      });
      await res.arrayBuffer();
      return performance.now() - started;
    },
    () => !rebuilding,
  );
  let rebuildMs: number;
  try {
    rebuildMs = await rebuildRows(server, before.version);
  } catch (err) {
    // Stop the reader and writer before the caller stops the server, so this error is the one reported.
    rebuilding = false;
    rss.stop();
    await Promise.allSettled([reader, writer]);
    throw err;
  }
  rebuilding = false;
  rss.stop();
  const reads = (await reader).sort((a, b) => a - b);
  const writes = (await writer).sort((a, b) => a - b);
  return {
    [`${prefix}RowsPerSecond`]: rows / (rebuildMs / 1000),
    [`${prefix}PeakRssMB`]: rss.peak() / 1e6,
    [`${prefix}ReaderP99Ms`]: percentile(reads, 99),
    [`${prefix}ReaderMaxMs`]: reads.at(-1) ?? Number.NaN,
    [`${prefix}WriterP99Ms`]: percentile(writes, 99),
    [`${prefix}WriterMaxMs`]: writes.at(-1) ?? Number.NaN,
    [`${prefix}Writes`]: writes.length,
  };
}

export const QUERY_FIGURES: readonly (readonly [string, string, string])[] = [
  ['indexedFilterP50Ms', 'indexed filter page 1 (+ totalCount) p50', 'ms'],
  ['indexedFilterP99Ms', 'indexed filter page 1 (+ totalCount) p99', 'ms'],
  ['indexedFilterTotalCount', 'indexed filter totalCount', 'rows'],
  ['unindexedFilterP50Ms', 'unindexed filter page 1 (+ totalCount) p50', 'ms'],
  ['unindexedFilterP99Ms', 'unindexed filter page 1 (+ totalCount) p99', 'ms'],
  ['unindexedFilterTotalCount', 'unindexed filter totalCount', 'rows'],
  ['unindexedFilterTimeouts', 'unindexed filter answers 503 QUERY_TIMEOUT (of 10)', 'n'],
  ['getByIdUnderLoadP99Ms', 'get-by-id p99 while 5 clients loop on unindexed filters', 'ms'],
  ['getByIdUnderLoadMaxMs', 'get-by-id max while 5 clients loop on unindexed filters', 'ms'],
  ['rebuildIdleRowsPerSecond', "rebuild of rows to the readers' switch (in the server, alone)", 'rows/s'],
  ['rebuildIdlePeakRssMB', 'rebuild of rows alone: peak RSS of the server', 'MB'],
  ['rebuildRowsPerSecond', "rebuild of rows to the readers' switch (in the server, under a write load)", 'rows/s'],
  ['rebuildPeakRssMB', 'rebuild of rows: peak RSS of the server', 'MB'],
  ['rebuildReaderP99Ms', 'rebuild of rows: reader (page 1) p99', 'ms'],
  ['rebuildReaderMaxMs', 'rebuild of rows: reader (page 1) max', 'ms'],
  ['rebuildWriterP99Ms', 'rebuild of rows: single-row writer p99', 'ms'],
  ['rebuildWriterMaxMs', 'rebuild of rows: single-row writer max', 'ms'],
  ['rebuildWrites', 'rebuild of rows: single-row writes during it', 'n'],
  ['rebuildViewBytesRatio', 'rebuild of rows: view store bytes after / before', '×'],
  ['rebuildTwoCoresRowsPerSecond', "rebuild of rows to the readers' switch (in the server on both cores, under a write load)", 'rows/s'],
  ['rebuildTwoCoresPeakRssMB', 'rebuild of rows on both cores: peak RSS of the server', 'MB'],
  ['rebuildTwoCoresReaderP99Ms', 'rebuild of rows on both cores: reader (page 1) p99', 'ms'],
  ['rebuildTwoCoresReaderMaxMs', 'rebuild of rows on both cores: reader (page 1) max', 'ms'],
  ['rebuildTwoCoresWriterP99Ms', 'rebuild of rows on both cores: single-row writer p99', 'ms'],
  ['rebuildTwoCoresWriterMaxMs', 'rebuild of rows on both cores: single-row writer max', 'ms'],
  ['rebuildTwoCoresWrites', 'rebuild of rows on both cores: single-row writes during it', 'n'],
];
