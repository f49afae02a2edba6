// Single-row writes through the real server (issue "Write path 10× faster"): `strata serve` (child process, pinned
// to core 0 when `taskset` exists) with the embedded stores and the default WRITE_CONSISTENCY=projected, autocannon
// (this process, core 1) with 50 connections, each request creating one new row (a fresh id per request) on a draft
// REST endpoint. Scenarios: all writers on one draft; writers spread over 10 branches; bulk inserts of 1,000 rows.
// Figures: writes/s, p50/p99 latency, server CPU per write (from /proc/<pid>/stat).
// Run alone: npx tsx bench/writeBench.ts [seconds]
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { ADMIN_PASSWORD, cpuSeconds, createApiCaller, freePort, hasTaskset, startStrata, waitFor } from './strataServer.ts';

type BenchFigure = { name: string; value: number; unit: string; note?: string };
const CONNECTIONS = 50;

type Load = { writes: number; rps: number; p50: number; p99: number; cpuUs: number };

export async function runWriteBench(seconds = 10): Promise<BenchFigure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-write-bench-'));
  const port = await freePort();
  if (hasTaskset) spawnSync('taskset', ['-p', '-c', '1', String(process.pid)]);
  const profile = process.env.STRATA_BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.STRATA_BENCH_CPU_PROF] : [];
  const server = startStrata(dir, port, profile, { LOG_LEVEL: 'warn' });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${url}/health/live`);
    const api = createApiCaller(url);
    const call = async (method: string, path: string, body?: unknown, token?: string) => (await api(method, path, body, token)).json;
    const admin = (await call('POST', '/api/auth/login', { username: 'admin', password: ADMIN_PASSWORD })).accessToken as string;
    await call('POST', '/api/organizations', { organizationId: 'bench' }, admin);
    await call('POST', '/api/organization/bench/projects', { projectName: 'writes', isPublic: true }, admin);
    const project = '/api/organization/bench/project/writes';
    const text = { type: 'string', default: '' };
    const schema = {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'n', 'tag'],
      properties: { name: text, n: { type: 'number', default: 0 }, tag: text },
    };
    const masterDraft = (await call('GET', `${project}/branch/master`, undefined, admin)).draftRevisionId as string;
    await call('POST', `/api/revision/${masterDraft}/tables`, { tableId: 'items', schema }, admin);
    await call('POST', `${project}/branch/master/revisions`, { comment: 'schema' }, admin);
    const head = (await call('GET', `${project}/branch/master`, undefined, admin)).headRevisionId as string;
    const branches = ['master'];
    for (let i = 1; i < 10; i++) {
      await call('POST', `/api/revision/${head}/branches`, { branchName: `b${i}` }, admin);
      branches.push(`b${i}`);
    }
    for (const branch of branches) {
      const draft = (await call('GET', `${project}/branch/${branch}`, undefined, admin)).draftRevisionId as string;
      await call('POST', `/api/revision/${draft}/endpoints`, { type: 'REST_API' }, admin);
    }
    const rowsPath = (branch: string) => `/endpoint/rest/bench/writes/${branch}/draft/tables/items/rows`;
    let seq = 0;
    /** 50 connections, a new row per request; `rate` caps the requests per second (an open load), else closed. */
    const load = async (paths: string[], rate?: number): Promise<Load> => {
      const cpuBefore = await cpuSeconds(server.pid as number);
      const result = await autocannon({
        url,
        connections: CONNECTIONS,
        duration: seconds,
        ...(rate === undefined ? {} : { overallRate: rate }),
        requests: [
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
            setupRequest: (req) => {
              const n = seq++;
              const path = paths[n % paths.length] as string;
              return { ...req, path, body: JSON.stringify({ id: `w${n}-${Date.now()}`, data: { name: `write ${n}`, n, tag: 'w' } }) };
            },
          },
        ],
      });
      const cpuS = (await cpuSeconds(server.pid as number)) - cpuBefore;
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`writes: ${result.non2xx} non-2xx, ${result.errors} errors`);
      const writes = result.requests.total;
      return { writes, rps: writes / seconds, p50: result.latency.p50, p99: result.latency.p99, cpuUs: (cpuS * 1e6) / writes };
    };
    const one = await load([rowsPath('master')]);
    const ten = await load(branches.map(rowsPath));
    // Append -> visible: with WRITE_CONSISTENCY=projected a write is answered once the views show it.
    const steady = await load([rowsPath('master')], 1000);
    // Bulk: 20 requests of 1,000 rows each, one at a time.
    const draft = (await call('GET', `${project}/branch/master`, undefined, admin)).draftRevisionId as string;
    const bulkStarted = performance.now();
    const bulkCpuBefore = await cpuSeconds(server.pid as number);
    const bulkRows = 20_000;
    for (let offset = 0; offset < bulkRows; offset += 1000) {
      const rows = Array.from({ length: 1000 }, (_, i) => ({
        rowId: `bulk${offset + i}`,
        data: { name: `bulk ${offset + i}`, n: offset + i, tag: 'b' },
      }));
      await call('POST', `/api/revision/${draft}/table/items/rows/bulk`, { rows }, admin);
    }
    const bulkS = (performance.now() - bulkStarted) / 1000;
    const bulkCpuUs = (((await cpuSeconds(server.pid as number)) - bulkCpuBefore) * 1e6) / bulkRows;
    const figures = (label: string, l: Load): BenchFigure[] => [
      { name: `single-row creates, 50 writers, ${label}`, value: Math.round(l.rps), unit: 'writes/s' },
      { name: `single-row creates, 50 writers, ${label}: p50 / p99`, value: l.p50, unit: `ms p50, ${l.p99} ms p99` },
      { name: `single-row creates, 50 writers, ${label}: server CPU`, value: Math.round(l.cpuUs), unit: 'µs per write' },
    ];
    return [
      ...figures('one draft', one),
      ...figures('10 branches', ten),
      {
        name: 'append -> visible in the views at 1,000 writes/s (one draft; a write is answered once visible)',
        value: steady.p50,
        unit: `ms p50, ${steady.p99} ms p99 (${Math.round(steady.rps)} writes/s reached)`,
      },
      { name: 'bulk creates, 1,000-row requests', value: Math.round(bulkRows / bulkS), unit: 'rows/s' },
      { name: 'bulk creates, 1,000-row requests: server CPU', value: Math.round(bulkCpuUs), unit: 'µs per row' },
    ];
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await runWriteBench(Number(process.argv[2] ?? 10));
  for (const f of figures) console.log(`${f.name}: ${f.value} ${f.unit}`);
}
