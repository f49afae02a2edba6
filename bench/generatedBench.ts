// Generated-endpoint reads against the ceiling (issue "Generated GraphQL and REST endpoints"): a 100,000-row table
// served by the real server (`strata serve`, child process, pinned to core 0 when `taskset` exists), and in the same
// run a bare node:http server returning the same pre-serialized bytes per scenario. autocannon (this process,
// pinned to core 1) at 50 connections. Figures: req/s, % of bare, requests per server CPU-second (from
// /proc/<pid>/stat), page-1 vs page-50 latency of a cursor walk.
// Run alone: npx tsx bench/generatedBench.ts [rows] [seconds]
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';

type BenchFigure = { name: string; value: number; unit: string; note?: string };
type Req = {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
  /** Another path/body per request (random ids); `path`/`body` are the first request's. */
  readonly vary?: () => { readonly path: string; readonly body?: string };
};
type Load = { readonly rps: number; readonly requests: number; readonly p50: number; readonly cpuS: number };

const ADMIN_PASSWORD = 'bench-admin-password';
const CONNECTIONS = 50;
const hasTaskset = spawnSync('taskset', ['-V']).status === 0;
const pinned = (core: number, argv: string[]): string[] => (hasTaskset ? ['taskset', '-c', String(core), ...argv] : argv);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** utime + stime of a process in seconds (Linux); NaN elsewhere. */
async function cpuSeconds(pid: number): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

function start(argv: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const [cmd, ...args] = argv;
  return spawn(cmd as string, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
}

async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The bare ceiling: answers `/s<i>` with the i-th captured body and the real Content-Type, nothing else. */
const BARE_SERVER = `
const http = require('node:http');
const bodies = JSON.parse(process.env.BODIES).map((b) => Buffer.from(b, 'base64'));
http.createServer((req, res) => {
  const body = bodies[Number(req.url.slice(2))];
  const send = () => { res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length }); res.end(body); };
  if (req.method === 'GET') send(); else { req.resume(); req.on('end', send); }
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

async function load(base: string, req: Req, pid: number, seconds: number, connections = CONNECTIONS): Promise<Load> {
  const cpuBefore = await cpuSeconds(pid);
  const { vary } = req;
  const result = await autocannon({
    url: `${base}${req.path}`,
    method: req.method,
    connections,
    duration: seconds,
    ...(req.body !== undefined ? { body: req.body, headers: { 'content-type': 'application/json' } } : {}),
    ...(vary !== undefined ? { requests: [{ setupRequest: (request: autocannon.Request) => Object.assign(request, vary()) }] } : {}),
  });
  const cpuS = (await cpuSeconds(pid)) - cpuBefore;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${req.path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, requests: result.requests.total, p50: result.latency.p50, cpuS };
}

/** Rounds of alternating bare / strata loads per scenario (each `seconds / ROUNDS` long). */
const ROUNDS = 5;

/**
 * Loads the bare server and strata in alternating rounds: this VM's speed drifts by tens of percent within a minute
 * (other tenants), so each round's ratio compares two loads a few seconds apart; the figure is the median round.
 */
async function alternate(
  bare: { base: string; req: Req; pid: number },
  real: { base: string; req: Req; pid: number },
  seconds: number,
): Promise<{ bare: Load; real: Load; ratio: number }> {
  const bareRuns: Load[] = [];
  const realRuns: Load[] = [];
  const ratios: number[] = [];
  const each = Math.max(1, Math.round(seconds / ROUNDS));
  for (let round = 0; round < ROUNDS; round++) {
    const b = await load(bare.base, bare.req, bare.pid, each);
    const r = await load(real.base, real.req, real.pid, each);
    bareRuns.push(b);
    realRuns.push(r);
    ratios.push(r.rps / b.rps);
  }
  const total = (runs: Load[]): Load => {
    const requests = runs.reduce((sum, run) => sum + run.requests, 0);
    const p50s = runs.map((run) => run.p50).sort((x, y) => x - y);
    return { rps: requests / (each * runs.length), requests, p50: p50s[Math.floor(p50s.length / 2)] ?? Number.NaN, cpuS: runs.reduce((sum, run) => sum + run.cpuS, 0) };
  };
  const sorted = [...ratios].sort((x, y) => x - y);
  return { bare: total(bareRuns), real: total(realRuns), ratio: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN };
}

type Call = (method: string, path: string, body?: unknown, token?: string) => Promise<{ status: number; bytes: Buffer; json: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bench JSON

/** A `strata serve` child process (pinned to core 0) on its own data directory. */
type BenchServer = { readonly url: string; readonly pid: number; readonly dir: string; readonly call: Call; stop(): Promise<void> };

/**
 * Starts `strata serve` from the checkout at `root` (this one, or another for A/B runs) and waits until it listens.
 * STRATA_BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there on exit (node --cpu-prof).
 */
async function startServer(root: string): Promise<BenchServer> {
  // STRATA_BENCH_KEEP_DATA=1: the data directory is kept (its path is printed) for looking at plans afterwards.
  const keepData = process.env.STRATA_BENCH_KEEP_DATA === '1';
  const dir = await mkdtemp(join(tmpdir(), 'strata-generated-bench-'));
  if (keepData) console.error(`data directory: ${dir}`);
  const port = await freePort();
  const profile = process.env.STRATA_BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.STRATA_BENCH_CPU_PROF] : [];
  const server = start(pinned(0, [process.execPath, ...profile, join(root, 'deploy/bin/strata.mjs'), 'serve']), {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    ADMIN_PASSWORD,
    JWT_SECRET: 'a-benchmark-secret-that-is-long-enough-to-pass',
    NODE_ENV: 'production',
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    server.kill('SIGTERM');
    await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once('exit', resolve)));
    if (!keepData) await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(`${url}/health/live`);
  } catch (err) {
    await stop();
    throw err;
  }
  const call: Call = async (method, path, body, token) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const json = bytes.length > 0 ? JSON.parse(bytes.toString('utf8')) : null;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${bytes.toString('utf8').slice(0, 300)}`);
    return { status: res.status, bytes, json };
  };
  return { url, pid: server.pid as number, dir, call, stop };
}

type Scenario = { readonly key: string; readonly name: string; readonly req: Req };

/** What seeding made: the fixed scenarios, the random-id ones and the draft GraphQL cursor walk. */
type Seeded = {
  readonly seedS: number;
  readonly scenarios: Scenario[];
  /** Random ids of `rows` (cache misses: 100,000 rows against 20,000 kept rows): CPU per request, no bare twin. */
  readonly random: Scenario[];
  readonly draftGql: (after: string | null) => Req;
  readonly draftCursors: (string | null)[];
};

/** The row id a random-id request reads (uniform over the table). */
const randomId = (rows: number): string => `r${Math.floor(Math.random() * rows)}`;

/** Seed: public project bench/items, table `items`, `rows` rows in bulk writes of 1,000, committed, three endpoints. */
async function seed(call: Call, rows: number): Promise<Seeded> {
  const admin = (await call('POST', '/api/auth/login', { username: 'admin', password: ADMIN_PASSWORD })).json.accessToken as string;
  await call('POST', '/api/organizations', { organizationId: 'bench' }, admin);
  await call('POST', '/api/organization/bench/projects', { projectName: 'items', isPublic: true }, admin);
  const branch = '/api/organization/bench/project/items/branch/master';
  const draft = (await call('GET', branch, undefined, admin)).json.draftRevisionId as string;
  const text = { type: 'string', default: '' };
  const schema = { type: 'object', additionalProperties: false, required: ['name', 'n', 'tag'], properties: { name: text, n: { type: 'number', default: 0 }, tag: text } };
  await call('POST', `/api/revision/${draft}/tables`, { tableId: 'items', schema }, admin);
  const seedStarted = performance.now();
  for (let offset = 0; offset < rows; offset += 1000) {
    const batch = Array.from({ length: Math.min(1000, rows - offset) }, (_, i) => {
      const n = offset + i;
      return { rowId: `r${n}`, data: { name: `row ${n}`, n, tag: n % 2 === 0 ? 'even' : 'odd' } };
    });
    await call('POST', `/api/revision/${draft}/table/items/rows/bulk`, { rows: batch }, admin);
  }
  const seedS = (performance.now() - seedStarted) / 1000;
  await call('POST', `${branch}/revisions`, { comment: 'bench' }, admin);
  const head = (await call('GET', branch, undefined, admin)).json.headRevisionId as string;
  for (const type of ['GRAPHQL', 'REST_API']) await call('POST', `/api/revision/${head}/endpoints`, { type }, admin);
  // A draft endpoint too: drafts are always read from the views (nothing kept), which the page-walk latency needs.
  const draftAfterCommit = (await call('GET', branch, undefined, admin)).json.draftRevisionId as string;
  await call('POST', `/api/revision/${draftAfterCommit}/endpoints`, { type: 'GRAPHQL' }, admin);

  // Scenarios (anonymous reads of a public project's HEAD).
  const rest = '/endpoint/rest/bench/items/master/head/tables/items/rows';
  const gqlPath = '/endpoint/graphql/bench/items/master/head';
  const where = { data: { path: 'tag', equals: 'even' } };
  const orderBy = [{ data: { path: 'n', direction: 'desc', type: 'int' } }];
  const listPath = (after: string | null) =>
    `${rest}?first=20&where=${encodeURIComponent(JSON.stringify(where))}&orderBy=${encodeURIComponent(JSON.stringify(orderBy))}` +
    (after === null ? '' : `&after=${encodeURIComponent(after)}`);
  let cursor: string | null = null;
  const cursors: (string | null)[] = [];
  for (let page = 1; page <= 50; page++) {
    cursors.push(cursor);
    cursor = (await call('GET', listPath(cursor))).json.pageInfo.endCursor as string;
  }
  const gql = (query: string, variables?: unknown): Req => ({ method: 'POST', path: gqlPath, body: JSON.stringify(variables === undefined ? { query } : { query, variables }) });
  const gqlList = (count: boolean, after: string | null) =>
    gql(`{ items(data: { first: 20, ${after === null ? '' : `after: ${JSON.stringify(after)}, `}where: { data: { path: "tag", equals: "even" } }, ` +
      `orderBy: [{ data: { path: "n", direction: desc, type: int } }] }) { ${count ? 'totalCount ' : ''}pageInfo { hasNextPage endCursor } ` +
      'edges { cursor node { id createdAt updatedAt readonly data { name n tag } } } } }');
  // The same walk on the draft GraphQL URL (cursors are bound to the URL they came from), without totalCount.
  const draftGql = (after: string | null): Req => ({ method: 'POST', path: gqlPath.replace('/head', '/draft'), body: gqlList(false, after).body as string });
  let draftCursor: string | null = null;
  const draftCursors: (string | null)[] = [];
  for (let page = 1; page <= 50; page++) {
    draftCursors.push(draftCursor);
    const reply = JSON.parse((await call('POST', draftGql(draftCursor).path, draftGql(draftCursor).body)).bytes.toString('utf8'));
    draftCursor = reply.data.items.pageInfo.endCursor as string;
  }
  const gqlPage1 = JSON.parse((await call('POST', gqlPath, gqlList(false, null).body)).bytes.toString('utf8'));
  const gqlAfter = gqlPage1.data.items.pageInfo.endCursor as string;
  const someId = `r${Math.floor(rows * 0.54321)}`;
  const selection = '{ id createdAt updatedAt readonly data { name n tag } }';
  const byVariable = `query Item($id: String!) { item(id: $id) ${selection} }`;
  const inline = (id: string) => gql(`{ item(id: "${id}") ${selection} }`);
  const scenarios: Scenario[] = [
    { key: 'restGet', name: 'REST get-by-id', req: { method: 'GET', path: `${rest}/${someId}` } },
    { key: 'restList', name: 'REST 20-row list, where tag + orderBy n, cursor (page 2; REST lists always carry totalCount)', req: { method: 'GET', path: listPath(cursors[1] ?? null) } },
    { key: 'gqlGet', name: 'GraphQL get-by-id', req: inline(someId) },
    { key: 'gqlList', name: 'GraphQL 20-row list, same filter/sort/cursor, no totalCount', req: gqlList(false, gqlAfter) },
    { key: 'gqlListCount', name: 'GraphQL 20-row list, same, with totalCount', req: gqlList(true, gqlAfter) },
    { key: 'page1', name: 'REST list page 1 (cursor walk)', req: { method: 'GET', path: listPath(null) } },
    { key: 'page50', name: 'REST list page 50 (cursor walk)', req: { method: 'GET', path: listPath(cursors[49] ?? null) } },
  ];
  const varying = (first: Req, next: () => Req): Req => Object.assign({}, first, { vary: () => next() });
  const random: Scenario[] = [
    { key: 'restGetRandom', name: 'REST get-by-id, random ids', req: varying({ method: 'GET', path: `${rest}/${someId}` }, () => ({ method: 'GET', path: `${rest}/${randomId(rows)}` })) },
    { key: 'gqlGetRandomVar', name: 'GraphQL get-by-id, random ids as a variable', req: varying(gql(byVariable, { id: someId }), () => gql(byVariable, { id: randomId(rows) })) },
    { key: 'gqlGetRandomInline', name: 'GraphQL get-by-id, random ids inline (a new query text per request)', req: varying(inline(someId), () => inline(randomId(rows))) },
  ];
  return { seedS, scenarios, random, draftGql, draftCursors };
}

/** STRATA_BENCH_SCENARIOS=restGet,gqlList: only those (e.g. to profile one). */
function chosen<T extends { key: string }>(list: T[]): T[] {
  const only = process.env.STRATA_BENCH_SCENARIOS?.split(',');
  return only === undefined ? list : list.filter((s) => only.includes(s.key));
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? Number.NaN;
const usPerRequest = (run: Load): number => (run.cpuS / run.requests) * 1e6;

export async function runGeneratedBench(rows = 100_000, seconds = 10): Promise<BenchFigure[]> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  if (hasTaskset) spawnSync('taskset', ['-p', '-c', '1', String(process.pid)]);
  const strata = await startServer(root);
  let bare: ChildProcess | undefined;
  try {
    const { seedS, scenarios: all, random, draftGql, draftCursors } = await seed(strata.call, rows);
    const scenarios = chosen(all);
    const bodies: Buffer[] = [];
    for (const s of scenarios) {
      const reply = await strata.call(s.req.method, s.req.path, s.req.body);
      if (reply.json?.errors !== undefined) throw new Error(`${s.name}: ${JSON.stringify(reply.json.errors)}`);
      bodies.push(reply.bytes);
    }
    const barePort = await freePort();
    const bareUrl = `http://127.0.0.1:${barePort}`;
    if (scenarios.length > 0) {
      bare = start(pinned(0, [process.execPath, '-e', BARE_SERVER]), { ...process.env, PORT: String(barePort), BODIES: JSON.stringify(bodies.map((b) => b.toString('base64'))) });
      await waitFor(`${bareUrl}/s0`);
    }

    const figures: BenchFigure[] = [
      { name: `seed: ${rows.toLocaleString('en-US')} rows by system API bulk writes of 1,000, projected`, value: rows / seedS, unit: 'rows/s' },
    ];
    const results = new Map<string, { real: Load; bare: Load }>();
    for (const [i, s] of scenarios.entries()) {
      const bareReq: Req = { method: s.req.method, path: `/s${i}`, ...(s.req.body !== undefined ? { body: s.req.body } : {}) };
      await load(strata.url, s.req, strata.pid, 1); // warm-up (JIT, caches, index creation)
      const { bare: b, real, ratio } = await alternate(
        { base: bareUrl, req: bareReq, pid: bare?.pid as number },
        { base: strata.url, req: s.req, pid: strata.pid },
        seconds,
      );
      results.set(s.key, { real, bare: b });
      figures.push(
        { name: `${s.name}: bare node:http, same ${bodies[i]?.length ?? 0} bytes`, value: b.rps, unit: 'req/s' },
        { name: `${s.name}: strata`, value: real.rps, unit: 'req/s' },
        { name: `${s.name}: % of bare (median of ${ROUNDS} alternating rounds)`, value: ratio * 100, unit: '%' },
        { name: `${s.name}: per server CPU-second`, value: real.requests / real.cpuS, unit: 'req/cpu-s' },
        { name: `${s.name}: server CPU per request`, value: usPerRequest(real), unit: 'µs' },
        { name: `${s.name}: latency p50 at ${CONNECTIONS} connections`, value: real.p50, unit: 'ms' },
      );
    }
    // Random ids: mostly rows read from SQLite (nothing a bare server could replay byte for byte).
    for (const s of chosen(random)) {
      await load(strata.url, s.req, strata.pid, 1);
      const run = await load(strata.url, s.req, strata.pid, seconds);
      figures.push(
        { name: `${s.name}: strata`, value: run.rps, unit: 'req/s' },
        { name: `${s.name}: server CPU per request`, value: usPerRequest(run), unit: 'µs' },
        { name: `${s.name}: latency p50 at ${CONNECTIONS} connections`, value: run.p50, unit: 'ms' },
      );
    }
    const rps = (key: string) => results.get(key)?.real.rps ?? Number.NaN;
    if (results.has('gqlList') && results.has('gqlListCount')) {
      figures.push({ name: 'GraphQL list with totalCount / without (target >= 50 %)', value: (rps('gqlListCount') / rps('gqlList')) * 100, unit: '%' });
    }
    // Page 50 against page 1 of the cursor walk (GraphQL, no totalCount) on the draft URL (read from the views every
    // time, nothing kept), one request at a time (at 50 connections latency is mostly queueing): mean latency per page
    // in alternating rounds, the median round's ratio.
    const only = process.env.STRATA_BENCH_SCENARIOS?.split(',');
    if (only === undefined || only.includes('page1') || only.includes('page50')) {
      const first = draftGql(null);
      const fiftieth = draftGql(draftCursors[49] ?? null);
      await load(strata.url, fiftieth, strata.pid, 1, 1); // warm-up
      const ratios: number[] = [];
      const means: { page1: number[]; page50: number[] } = { page1: [], page50: [] };
      for (let round = 0; round < ROUNDS; round++) {
        const one = await load(strata.url, first, strata.pid, 1, 1);
        const fifty = await load(strata.url, fiftieth, strata.pid, 1, 1);
        means.page1.push(1000 / one.rps);
        means.page50.push(1000 / fifty.rps);
        ratios.push(one.rps / fifty.rps);
      }
      figures.push(
        { name: 'list page 1 on the draft GraphQL URL (read from the views), one connection: mean latency', value: median(means.page1), unit: 'ms' },
        { name: 'list page 50 on the draft GraphQL URL, one connection: mean latency', value: median(means.page50), unit: 'ms' },
        { name: 'list page 50 / page 1 latency, draft URL, one connection (target <= 2)', value: median(ratios), unit: '×' },
      );
    }
    return figures;
  } finally {
    bare?.kill('SIGTERM');
    await strata.stop();
  }
}

/**
 * Paired A/B run: the checkout at `baselineRoot` (A, e.g. `git archive` of main with node_modules linked) and this
 * one (B), each seeded alike, loaded in alternating rounds per scenario (each `seconds / ROUNDS` long). Figures:
 * server CPU per request of each and B ÷ A of the median round, so machine drift cancels out.
 */
export async function runGeneratedAb(baselineRoot: string, rows = 100_000, seconds = 10): Promise<BenchFigure[]> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  if (hasTaskset) spawnSync('taskset', ['-p', '-c', '1', String(process.pid)]);
  const a = await startServer(baselineRoot);
  let b: BenchServer | undefined;
  try {
    b = await startServer(root);
    const seededA = await seed(a.call, rows);
    const seededB = await seed(b.call, rows);
    const figures: BenchFigure[] = [];
    const pairs = chosen([...seededA.scenarios, ...seededA.random]).map((s) => ({ s, twin: [...seededB.scenarios, ...seededB.random].find((t) => t.key === s.key) as Scenario }));
    const each = Math.max(1, Math.round(seconds / ROUNDS));
    for (const { s, twin } of pairs) {
      await load(a.url, s.req, a.pid, 1);
      await load(b.url, twin.req, b.pid, 1);
      const runsA: Load[] = [];
      const runsB: Load[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        runsA.push(await load(a.url, s.req, a.pid, each));
        runsB.push(await load(b.url, twin.req, b.pid, each));
      }
      const ratios = runsA.map((runA, i) => usPerRequest(runsB[i] as Load) / usPerRequest(runA));
      figures.push(
        { name: `${s.name}: A server CPU per request (median round)`, value: median(runsA.map(usPerRequest)), unit: 'µs' },
        { name: `${s.name}: B server CPU per request (median round)`, value: median(runsB.map(usPerRequest)), unit: 'µs' },
        { name: `${s.name}: B ÷ A CPU per request (median of ${ROUNDS} paired rounds)`, value: median(ratios), unit: '×' },
        { name: `${s.name}: A / B req/s (median round)`, value: median(runsA.map((r) => r.rps)), unit: 'req/s', note: `B ${Math.round(median(runsB.map((r) => r.rps)))}` },
      );
    }
    return figures;
  } finally {
    await b?.stop();
    await a.stop();
  }
}

// Run alone: npx tsx bench/generatedBench.ts [rows] [seconds]
// A/B against another checkout: npx tsx bench/generatedBench.ts ab <baseline root> [rows] [seconds]
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const ab = process.argv[2] === 'ab';
  const [rows, seconds] = ab ? [process.argv[4], process.argv[5]] : [process.argv[2], process.argv[3]];
  const figures = ab
    ? await runGeneratedAb(process.argv[3] as string, Number(rows ?? 100_000), Number(seconds ?? 10))
    : await runGeneratedBench(Number(rows ?? 100_000), Number(seconds ?? 6));
  for (const f of figures) console.log(`${f.name}: ${f.value.toFixed(2)} ${f.unit}${f.note ? ` (${f.note})` : ''}`);
}
