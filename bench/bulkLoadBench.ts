// The load and RSS part of `npm run bench -- scale` on its own (issue 29), for before/after comparisons of the bulk
// write path: one `strata serve`, the scale bench's table and ~300-byte rows in bulk writes of 1,000 (sequential),
// then a commit, the projections settled and 200 single-row writes, and the server's RSS after them (the scale
// bench's "RSS after writing to the table"), with where that memory is (/proc smaps_rollup; V8 heap and external
// memory from /metrics), and again after 12 s without requests.
// Usage: npx tsx bench/bulkLoadBench.ts [rows=100000] [checkout=this one]
//   BULK_PROFILE=<dir>  the server runs with --cpu-prof into <dir> (written when it exits).
//   BULK_NODE_ARGS='<flags>' more node flags for the server; BULK_SNAPSHOT=1 sends it SIGUSR2 after the writes
//   (with --heapsnapshot-signal=SIGUSR2: a heap snapshot in the working directory).
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_PASSWORD, cpuSeconds, createApiCaller, freePort, startStrata, waitFor } from './strataServer.ts';
import { indexedSchema } from './scaleQueries.ts';
import { rowData, scaleSchema } from './scaleBench.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- bench JSON

const BULK = 1000;

async function procMemory(pid: number): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
  for (const match of rollup.matchAll(/^(Rss|Anonymous|Private_Dirty|Shared_Clean|Private_Clean):\s+(\d+) kB/gm))
    out[match[1] as string] = Number(match[2]) / 1024;
  return out;
}

/** RSS by kind of mapping (MB): the malloc heap of the main thread, other anonymous mappings by size, files. */
async function smapsSummary(pid: number): Promise<Record<string, number>> {
  const text = await readFile(`/proc/${pid}/smaps`, 'utf8').catch(() => '');
  const out: Record<string, number> = {};
  let kind = '';
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const size = (parseInt(head[2] as string, 16) - parseInt(head[1] as string, 16)) / 1024 / 1024;
      const name = head[3] as string;
      kind =
        name === ''
          ? size >= 60
            ? 'anon>=60M'
            : size >= 1
              ? 'anon1-60M'
              : 'anon<1M'
          : name.startsWith('[')
            ? name
            : name.includes('.node')
              ? 'addons'
              : name.includes('/node')
                ? 'node binary'
                : 'files';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[kind] = (out[kind] ?? 0) + Number(rss[1]) / 1024;
  }
  return out;
}

async function heapMetrics(url: string): Promise<Record<string, number>> {
  const text = await fetch(`${url}/metrics`).then((res) => (res.ok ? res.text() : ''));
  const out: Record<string, number> = {};
  for (const name of ['nodejs_heap_size_total_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_external_memory_bytes']) {
    const match = new RegExp(`^${name} (\\S+)`, 'm').exec(text);
    if (match) out[name.replace(/^nodejs_|_bytes$/g, '')] = Number(match[1]) / 1e6;
  }
  for (const match of text.matchAll(/^nodejs_heap_space_size_(used|total)_bytes\{space="(\w+)"\} (\S+)/gm))
    if (Number(match[3]) > 2e6) out[`${match[1]}:${match[2]}`] = Number(match[3]) / 1e6;
  return out;
}

const mb = (values: Record<string, number>): string =>
  Object.entries(values)
    .map(([key, value]) => `${key} ${value.toFixed(0)}`)
    .join(', ');

export async function runBulkLoad(rows: number, root?: string): Promise<Record<string, number>> {
  const dir = await mkdtemp(join(tmpdir(), `strata-bulk-${rows}-`));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const profile = process.env.BULK_PROFILE;
  const nodeArgs = [
    ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []),
    ...(process.env.BULK_NODE_ARGS ?? '').split(' ').filter(Boolean),
  ];
  const child = startStrata(dir, port, nodeArgs, { METRICS_ENABLED: 'true' }, root);
  const pid = child.pid as number;
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping) process.stderr.write(`bulk: the server exited (code ${code}, signal ${signal})\n`);
  });
  try {
    await waitFor(`${url}/health/live`, 600_000);
    const call = createApiCaller(url);
    const token = (await call('POST', '/api/auth/login', { username: 'admin', password: ADMIN_PASSWORD })).json.accessToken as string;
    const as = (method: string, path: string, body?: unknown): Promise<Json> => call(method, path, body, token).then((r) => r.json);
    await as('POST', '/api/organizations', { organizationId: 'scale' });
    await as('POST', '/api/organization/scale/projects', { projectName: 'shop' });
    const branch = '/api/organization/scale/project/shop/branch/master';
    const draft = (await as('GET', branch)).draftRevisionId as string;
    await as('POST', `/api/revision/${draft}/tables`, { tableId: 'products', schema: indexedSchema(scaleSchema) });
    process.stderr.write(`bulk: ${rows} rows, RSS before ${mb(await procMemory(pid))} MB\n`);

    const cpuBefore = await cpuSeconds(pid);
    const started = performance.now();
    for (let offset = 0; offset < rows; offset += BULK) {
      const batch = Array.from({ length: Math.min(BULK, rows - offset) }, (_, i) => ({ rowId: `p${offset + i}`, data: rowData(offset + i) }));
      await as('POST', `/api/revision/${draft}/table/products/rows/bulk`, { rows: batch });
    }
    const loadRowsPerSecond = rows / ((performance.now() - started) / 1000);
    // Server CPU (every thread) during the load: comparable between runs when other processes take the cores.
    const rowsPerCpuSecond = rows / ((await cpuSeconds(pid)) - cpuBefore);
    const afterLoad = await procMemory(pid);
    await as('POST', `${branch}/revisions`, { comment: 'load' });
    for (;;) {
      const list = (await as('GET', '/api/projections')) as Json[];
      if (list.every((p: Json) => (p.lag ?? 0) === 0)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const masterDraft = (await as('GET', branch)).draftRevisionId as string;
    for (let i = 0; i < 200; i++)
      await as('PUT', `/api/revision/${masterDraft}/table/products/row/p${(i * 7919) % rows}`, { data: rowData(i + rows) });
    const afterWrites = await procMemory(pid);
    const heap = await heapMetrics(url);
    process.stderr.write(`bulk: ${loadRowsPerSecond.toFixed(0)} rows/s, ${rowsPerCpuSecond.toFixed(0)} rows per server CPU-second\n`);
    process.stderr.write(`  after the load (MB): ${mb(afterLoad)}\n`);
    process.stderr.write(`  after commit + 200 writes (MB): ${mb(afterWrites)}; V8 (MB): ${mb(heap)}\n`);
    // V8 gives back free heap pages when its memory reducer runs, 8 s after a full GC once the process is quiet.
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    const afterIdle = await procMemory(pid);
    const heapIdle = await heapMetrics(url);
    process.stderr.write(`  12 s later, idle (MB): ${mb(afterIdle)}; V8 (MB): ${mb(heapIdle)}\n`);
    if (process.env.BULK_SNAPSHOT === '1') {
      // With BULK_NODE_ARGS=--heapsnapshot-signal=SIGUSR2: a heap snapshot of the server (in its working directory).
      child.kill('SIGUSR2');
      await new Promise((resolve) => setTimeout(resolve, 30_000));
    }
    process.stderr.write(`  RSS by mapping (MB): ${mb(await smapsSummary(pid))}; threads ${(await readdir(`/proc/${pid}/task`)).length}\n`);
    return {
      loadRowsPerSecond,
      rowsPerCpuSecond,
      rssAfterLoadMB: afterLoad.Rss ?? Number.NaN,
      rssAfterWritesMB: afterWrites.Rss ?? Number.NaN,
      rssAfterIdleMB: afterIdle.Rss ?? Number.NaN,
    };
  } finally {
    stopping = true;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = Number(process.argv[2] ?? 100_000);
  const result = await runBulkLoad(rows, process.argv[3]);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
