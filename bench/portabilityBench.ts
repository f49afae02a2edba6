// Portability (portability.md, issue 27): table import and export through the `strata` CLI against a real
// `strata serve`, the server's and the CLI's peak RSS during each (sampled from /proc), a bundle round trip between
// two instances, and `strata backup` of the log while single-row writes go on (backup time, write p99 before and
// during). Each size is imported as one file: up to 100,000 rows one ApplyDraftChanges, above that a staged import
// (versioned-storage.md §6), each one atomic append. Above 100,000 rows, import and export run at two sizes (100,000
// and the given count, each on a fresh instance) so that growth of the peak RSS with the row count shows.
// Run alone: npx tsx bench/portabilityBench.ts [rows]   (default 100,000; the lead runs 1,000,000)
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { ADMIN_PASSWORD, createApiCaller, freePort, startStrata, waitFor } from './strataServer.ts';

export type BenchFigure = { name: string; value: number; unit: string; note?: string };

const DEFAULT_ROWS = 100_000;
/** The smaller of the two sizes (the largest import that is one command). */
const FILE_ROWS = 100_000;
const BUNDLE_ROWS = 100_000;
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'deploy/bin/strata.mjs');

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'n', 'ok', 'address', 'tags'],
  properties: {
    title: { type: 'string', default: '' },
    n: { type: 'number', default: 0 },
    ok: { type: 'boolean', default: false },
    address: {
      type: 'object',
      additionalProperties: false,
      required: ['city', 'zip'],
      properties: { city: { type: 'string', default: '' }, zip: { type: 'string', default: '' } },
    },
    tags: { type: 'array', items: { type: 'string', default: '' } },
  },
};

const rowId = (i: number): string => `r${String(i).padStart(8, '0')}`;
const rowLine = (i: number): string =>
  `${JSON.stringify({ id: rowId(i), data: { title: `Row number ${i}, with some text "quoted" and ünïcode`, n: i * 1.5, ok: i % 2 === 0, address: { city: `City ${i % 97}`, zip: String(10000 + (i % 90000)) }, tags: ['alpha', `t${i % 13}`] } })}\n`;

async function writeRows(file: string, first: number, count: number): Promise<void> {
  const out = createWriteStream(file);
  for (let i = first; i < first + count; i += 1) if (!out.write(rowLine(i))) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
}

/** Peak resident set (MB) of each pid while `run` goes on, sampled every 50 ms from /proc (VmRSS). */
async function peakRss<T>(pids: () => readonly number[], run: () => Promise<T>): Promise<{ result: T; peaks: number[] }> {
  const peaks: number[] = [];
  const sample = async (): Promise<void> => {
    const ids = pids();
    for (const [i, pid] of ids.entries()) {
      try {
        const status = await readFile(`/proc/${pid}/status`, 'utf8');
        const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
        peaks[i] = Math.max(peaks[i] ?? 0, kb / 1024);
      } catch {
        // exited
      }
    }
  };
  const timer = setInterval(() => void sample(), 50);
  try {
    const result = await run();
    await sample();
    return { result, peaks };
  } finally {
    clearInterval(timer);
  }
}

/** Lines of a file (newline-terminated), read as a stream. */
async function countLines(file: string): Promise<number> {
  let count = 0;
  for await (const chunk of createReadStream(file)) for (const byte of chunk as Buffer) if (byte === 10) count += 1;
  return count;
}

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

type Cli = { child: ChildProcess; done: Promise<{ code: number | null; stdout: string; stderr: string }> };

function cli(args: readonly string[], env: NodeJS.ProcessEnv): Cli {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

/** Runs one CLI command, sampling its RSS and the server's; throws unless it exits 0. */
async function timedCli(server: ChildProcess, args: readonly string[], env: NodeJS.ProcessEnv) {
  const started = performance.now();
  const run = cli(args, env);
  const { result, peaks } = await peakRss(
    () => [server.pid ?? 0, run.child.pid ?? 0],
    () => run.done,
  );
  if (result.code !== 0) throw new Error(`strata ${args.join(' ')}: exit ${result.code}\n${result.stderr.slice(-2000)}`);
  return { seconds: (performance.now() - started) / 1000, serverMb: peaks[0] ?? 0, cliMb: peaks[1] ?? 0, stdout: result.stdout };
}

type Instance = { server: ChildProcess; url: string; token: string; api: ReturnType<typeof createApiCaller>; env: NodeJS.ProcessEnv };

async function startInstance(dir: string): Promise<Instance> {
  const port = await freePort();
  const server = startStrata(dir, port, [], { IMPORT_MAX_BYTES: '4gb' });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/health/ready`, 120_000);
  const api = createApiCaller(url);
  const token = (await api('POST', '/api/auth/login', { username: 'admin', password: ADMIN_PASSWORD })).json.accessToken as string;
  return { server, url, token, api, env: { STRATA_URL: url, STRATA_TOKEN: token } };
}

async function projectWithTable(at: Instance, org: string | null, project: string): Promise<string> {
  if (org !== null) await at.api('POST', '/api/organizations', { organizationId: org }, at.token);
  await at.api('POST', `/api/organization/acme/projects`, { projectName: project }, at.token);
  const branch = (await at.api('GET', `/api/organization/acme/project/${project}/branch/master`, undefined, at.token)).json;
  await at.api('POST', `/api/revision/${branch.draftRevisionId}/tables`, { tableId: 'items', schema: SCHEMA }, at.token);
  return branch.draftRevisionId as string;
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** Single-row writes from `writers` loops until `stop()`; latencies in ms. */
function writeLoad(at: Instance, draft: string, writers: number) {
  const latencies: { at: number; ms: number }[] = [];
  let running = true;
  let next = 0;
  const loops = Array.from({ length: writers }, async () => {
    while (running) {
      const i = next++;
      const started = performance.now();
      await at.api('POST', `/api/revision/${draft}/table/items/rows`, { rowId: `w${i}`, data: JSON.parse(rowLine(i)).data }, at.token);
      latencies.push({ at: performance.now(), ms: performance.now() - started });
    }
  });
  return {
    latencies,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Import `rows` rows (one file) into a fresh instance, then export them as JSON Lines and CSV. */
async function transferFigures(dir: string, rows: number, figures: BenchFigure[]): Promise<Instance> {
  let a = await startInstance(dir);
  await projectWithTable(a, 'acme', 'big');
  const size = `${rows.toLocaleString('en-US')} rows`;

  // Import: one file, one atomic append (staged above 100,000 rows).
  const file = join(dir, 'rows.jsonl');
  await writeRows(file, 0, rows);
  const run = await timedCli(a.server, ['import', '--org', 'acme', '--project', 'big', '--table', 'items', '--file', file], a.env);
  await rm(file);
  const answer = JSON.parse(run.stdout) as { created?: number; invalid?: number };
  if (answer.created !== rows) throw new Error(`the import created ${String(answer.created)} of ${rows} rows: ${run.stdout.slice(0, 500)}`);
  figures.push({ name: `import JSON Lines, ${size} (one file)`, value: rows / run.seconds, unit: 'rows/s' });
  figures.push({ name: `import, ${size}: server peak RSS`, value: run.serverMb, unit: 'MB' });
  figures.push({ name: `import, ${size}: CLI peak RSS`, value: run.cliMb, unit: 'MB' });
  await a.api('POST', '/api/organization/acme/project/big/branch/master/revisions', { comment: 'imported' }, a.token);
  // A fresh server for the exports: V8 keeps the heap the import grew, which would hide whether exports stay flat.
  a.server.kill('SIGTERM');
  await new Promise((resolve) => a.server.once('exit', resolve));
  a = await startInstance(dir);
  figures.push({ name: `server RSS after restart, before the exports of ${size}`, value: await rssOf(a.server.pid ?? 0), unit: 'MB' });

  for (const format of ['jsonl', 'csv'] as const) {
    const file = join(dir, `export.${format}`);
    const run = await timedCli(
      a.server,
      ['export', '--org', 'acme', '--project', 'big', '--table', 'items', '--format', format, '--file', file],
      a.env,
    );
    const lines = await countLines(file);
    // CSV has a header line.
    if (lines !== rows + (format === 'csv' ? 1 : 0)) throw new Error(`the ${format} export has ${lines} lines for ${rows} rows`);
    figures.push({ name: `export ${format === 'jsonl' ? 'JSON Lines' : 'CSV'}, ${size}`, value: rows / run.seconds, unit: 'rows/s' });
    figures.push({ name: `export ${format}, ${size}: server peak RSS`, value: run.serverMb, unit: 'MB' });
    figures.push({ name: `export ${format}, ${size}: CLI peak RSS`, value: run.cliMb, unit: 'MB' });
    await rm(file);
  }
  return a;
}

/**
 * Import and export at two sizes (FILE_ROWS and `rows`, each on a fresh instance, so growth of peak RSS with the row
 * count shows), then a bundle round trip and a backup under write load on the larger instance.
 */
export async function runPortabilityBench(rows = DEFAULT_ROWS): Promise<BenchFigure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-portability-bench-'));
  const figures: BenchFigure[] = [];
  let a: Instance | null = null;
  let b: Instance | null = null;
  try {
    const cliStart = performance.now();
    await cli(['export', '--help'], {}).done;
    figures.push({ name: 'CLI start (strata export --help), included in the rates below', value: (performance.now() - cliStart) / 1000, unit: 's' });
    if (rows > FILE_ROWS) {
      const small = await transferFigures(join(dir, 'small-size'), FILE_ROWS, figures);
      small.server.kill('SIGKILL');
      await new Promise((resolve) => small.server.once('exit', resolve));
      await rm(join(dir, 'small-size'), { recursive: true, force: true });
    }
    a = await transferFigures(join(dir, 'a'), rows, figures);

    // Bundle round trip of BUNDLE_ROWS rows between two instances.
    let bundleProject = 'big';
    if (rows > BUNDLE_ROWS) {
      bundleProject = 'small';
      await projectWithTable(a, null, 'small');
      const file = join(dir, 'small.jsonl');
      await writeRows(file, 0, BUNDLE_ROWS);
      await timedCli(a.server, ['import', '--org', 'acme', '--project', 'small', '--table', 'items', '--file', file], a.env);
      await a.api('POST', '/api/organization/acme/project/small/branch/master/revisions', { comment: 'imported' }, a.token);
    }
    b = await startInstance(join(dir, 'b'));
    await b.api('POST', '/api/organizations', { organizationId: 'acme' }, b.token);
    await b.api('POST', '/api/organization/acme/projects', { projectName: bundleProject }, b.token);
    const bundle = join(dir, 'bundle.jsonl');
    const out = await timedCli(a.server, ['bundle', 'export', '--org', 'acme', '--project', bundleProject, '--file', bundle], a.env);
    const into = await timedCli(b.server, ['bundle', 'import', '--org', 'acme', '--project', bundleProject, '--file', bundle], b.env);
    const bundled = Math.min(rows, BUNDLE_ROWS);
    figures.push({
      name: `bundle round trip, ${bundled.toLocaleString('en-US')} rows (export A + import B)`,
      value: out.seconds + into.seconds,
      unit: 's',
    });
    figures.push({ name: 'bundle import into B', value: bundled / into.seconds, unit: 'rows/s' });

    // Backup of A's log while single-row writes go on.
    const writeDraft = (await a.api('GET', '/api/organization/acme/project/big/branch/master', undefined, a.token)).json.draftRevisionId as string;
    const load = writeLoad(a, writeDraft, 8);
    // A baseline first: at least 3 s and 200 writes (a loaded machine may need longer).
    const warmUntil = Date.now() + 60_000;
    await new Promise((resolve) => setTimeout(resolve, 3000));
    while (load.latencies.length < 200 && Date.now() < warmUntil) await new Promise((resolve) => setTimeout(resolve, 200));
    const backupStart = performance.now();
    const backup = await timedCli(a.server, ['backup', '--data-dir', join(dir, 'a'), '--out', join(dir, 'backup')], {});
    const backupEnd = performance.now();
    await load.stop();
    const during = load.latencies
      .filter((l) => l.at >= backupStart && l.at <= backupEnd)
      .map((l) => l.ms)
      .sort((x, y) => x - y);
    const beforeBackup = load.latencies
      .filter((l) => l.at < backupStart)
      .map((l) => l.ms)
      .sort((x, y) => x - y);
    figures.push({
      name: `backup of the log (${/(\d+) events/.exec(backup.stdout)?.[1] ?? '?'} events) and views while writing`,
      value: backup.seconds,
      unit: 's',
    });
    figures.push({ name: `write p99 before the backup (8 writers, ${beforeBackup.length} writes)`, value: percentile(beforeBackup, 99), unit: 'ms' });
    figures.push({ name: `write p99 during the backup (${during.length} writes)`, value: percentile(during, 99), unit: 'ms' });
    return figures;
  } finally {
    for (const at of [a, b]) at?.server.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = Number(process.argv[2] ?? DEFAULT_ROWS);
  for (const figure of await runPortabilityBench(rows)) console.log(`${figure.name}: ${figure.value.toFixed(1)} ${figure.unit}`);
}
