// Copy-on-write branches (docs/reference/versioned-storage.md §1) answer exactly like one branch. A real
// `strata serve` gets the same history twice: in project `chain` on a chain of three branches (master -> child ->
// grand, each created from the last commit of the one before, with writes, renames, deletions, schema changes and
// commits at each level, and the parent moving on after each fork), in project `flat` on one branch. Every answer
// about the corresponding revisions must be equal through system REST and GraphQL: tables, rows by id, lists with
// filters, sorts, pages and counts, readonly flags, hasChanges, diffs and row history (ids and times aside).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStrataProcess, type StrataProcess } from '../support/strataProcess.ts';

const ADMIN_PASSWORD = 'chain-admin-password';
let dir = '';
let server: StrataProcess;
let token = '';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON

/** Position of the last write: every request reads at least that far (operations.md §4.3). */
let lastPosition: string | null = null;

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(lastPosition === null ? {} : { 'x-strata-min-position': lastPosition }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  lastPosition = res.headers.get('x-strata-position') ?? lastPosition;
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text) };
}

async function ok(method: string, path: string, body?: unknown): Promise<Json> {
  const reply = await call(method, `/api${path}`, body);
  assert.ok(reply.status === 200 || reply.status === 201, `${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

async function gql(query: string, variables: Record<string, unknown>): Promise<Json> {
  const reply = await call('POST', '/graphql', { query, variables });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  assert.equal(reply.body.errors, undefined, JSON.stringify(reply.body.errors));
  return reply.body.data;
}

const authorsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'n', 'group'],
  properties: {
    name: { type: 'string', default: '' },
    n: { type: 'number', default: 0 },
    group: { type: 'string', default: '' },
  },
};
const tagsSchema = { type: 'object', additionalProperties: false, required: ['label'], properties: { label: { type: 'string', default: '' } } };
const author = (i: number, name = `author ${i}`) => ({ name, n: i, group: ['a', 'b', 'c'][i % 3] as string });
const P = (project: string) => `/organization/acme/project/${project}`;

/** One project's view of the shared history: where each level writes and commits. */
type World = { readonly project: string; readonly level: readonly [string, string, string] };
const chain: World = { project: 'chain', level: ['master', 'child', 'grand'] };
const flat: World = { project: 'flat', level: ['master', 'master', 'master'] };

async function draftOf(world: World, branch: string): Promise<string> {
  return (await ok('GET', `${P(world.project)}/branch/${branch}`)).draftRevisionId;
}
async function commit(world: World, branch: string, comment: string): Promise<string> {
  return (await ok('POST', `${P(world.project)}/branch/${branch}/revisions`, { comment })).id;
}
const T = (revision: string, table: string) => `/revision/${revision}/table/${table}`;

/** The shared history, level by level, on `world`'s branches; returns the revisions to compare. */
async function writeLevel0(world: World): Promise<string> {
  const d = await draftOf(world, world.level[0]);
  await ok('POST', `/revision/${d}/tables`, { tableId: 'authors', schema: authorsSchema });
  await ok('POST', `/revision/${d}/tables`, { tableId: 'tags', schema: tagsSchema });
  await ok('POST', `${T(d, 'authors')}/rows/bulk`, {
    rows: Array.from({ length: 30 }, (_, i) => ({ rowId: `a${String(i).padStart(2, '0')}`, data: author(i) })),
  });
  await ok('POST', `${T(d, 'tags')}/rows/bulk`, { rows: ['news', 'tech', 'misc'].map((label) => ({ rowId: label, data: { label } })) });
  await ok('PUT', `${T(d, 'authors')}/row/a01`, { data: author(1, 'first') });
  await ok('DELETE', `${T(d, 'authors')}/row/a29`);
  return commit(world, world.level[0], 'level 0');
}

async function writeLevel1(world: World): Promise<string> {
  const d = await draftOf(world, world.level[1]);
  await ok('PUT', `${T(d, 'authors')}/row/a02`, { data: author(102, 'second') });
  await ok('PATCH', `${T(d, 'authors')}/row/a03`, { patches: [{ op: 'replace', path: '/group', value: 'z' }] });
  await ok('DELETE', `${T(d, 'authors')}/rows/bulk`, { rowIds: ['a04', 'a05'] });
  await ok('POST', `${T(d, 'authors')}/row/a06/rename`, { nextRowId: 'a06-renamed' });
  await ok('POST', `${T(d, 'authors')}/rows/bulk`, {
    rows: [
      { rowId: 'b01', data: author(201) },
      { rowId: 'a05', data: author(205, 'back') },
    ],
  });
  // A schema change that touches no row, then a table deleted and one created.
  await ok('PATCH', T(d, 'authors'), { patches: [{ op: 'add', path: '/properties/name/description', value: 'shown name' }] });
  await ok('DELETE', T(d, 'tags'));
  await ok('POST', `/revision/${d}/tables`, { tableId: 'notes', schema: tagsSchema });
  await ok('POST', `${T(d, 'notes')}/rows/bulk`, {
    rows: [
      { rowId: 'n1', data: { label: 'one' } },
      { rowId: 'n2', data: { label: 'two' } },
    ],
  });
  return commit(world, world.level[1], 'level 1');
}

async function writeLevel2(world: World): Promise<string> {
  const d = await draftOf(world, world.level[2]);
  await ok('PUT', `${T(d, 'authors')}/row/a02`, { data: author(302, 'third') });
  await ok('PUT', `${T(d, 'authors')}/row/a07`, { data: author(307) });
  await ok('DELETE', `${T(d, 'authors')}/row/a08`);
  await ok('POST', `${T(d, 'authors')}/row/b01/rename`, { nextRowId: 'b01-renamed' });
  await ok('POST', `${T(d, 'authors')}/row/a06-renamed/rename`, { nextRowId: 'a06' });
  await ok('POST', `${T(d, 'notes')}/rename`, { nextTableId: 'memos' });
  await ok('PATCH', T(d, 'authors'), { patches: [{ op: 'add', path: '/properties/group/description', value: 'a group' }] });
  return commit(world, world.level[2], 'level 2');
}

/** Uncommitted changes on the last level, including a row changed and changed back. */
async function writeDraft(world: World): Promise<string> {
  const d = await draftOf(world, world.level[2]);
  await ok('PUT', `${T(d, 'authors')}/row/a10`, { data: author(410) });
  await ok('DELETE', `${T(d, 'authors')}/row/a11`);
  await ok('POST', `${T(d, 'authors')}/rows`, { rowId: 'c01', data: author(401) });
  await ok('PUT', `${T(d, 'authors')}/row/a12`, { data: author(412) });
  await ok('PUT', `${T(d, 'authors')}/row/a12`, { data: author(12) });
  await ok('POST', `${T(d, 'memos')}/rows`, { rowId: 'n3', data: { label: 'three' } });
  return d;
}

/** The parent moving on after a fork: writes, a deletion, a rename and a commit the child never sees, then a draft. */
async function moveOn(world: World, branch: string): Promise<void> {
  const d = await draftOf(world, branch);
  await ok('PUT', `${T(d, 'authors')}/row/a02`, { data: author(999, 'parent later') });
  await ok('PUT', `${T(d, 'authors')}/row/a07`, { data: author(998, 'parent later') });
  await ok('DELETE', `${T(d, 'authors')}/row/a10`);
  await ok('POST', `${T(d, 'authors')}/row/a12/rename`, { nextRowId: 'a12-parent' });
  await ok('POST', `${T(d, 'authors')}/rows`, { rowId: 'p01', data: author(997) });
  await ok('PATCH', T(d, 'authors'), { patches: [{ op: 'add', path: '/properties/n/description', value: 'parent only' }] });
  await commit(world, branch, 'parent moves on');
  await ok('PUT', `${T(await draftOf(world, branch), 'authors')}/row/a09`, { data: author(996) });
}

/** Pairs of revisions whose answers must be equal: [name, chain revision, flat revision]. */
const pairs: [string, string, string][] = [];
const starts: [string, string, string][] = [];
const chainStarts: string[] = [];

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-chain-'));
  server = await startStrataProcess({ DATA_DIR: join(dir, 'data'), ADMIN_PASSWORD });
  token = (await call('POST', '/api/auth/login', { username: 'admin', password: ADMIN_PASSWORD })).body.accessToken;
  await ok('POST', '/organizations', { organizationId: 'acme' });
  await ok('POST', '/organization/acme/projects', { projectName: 'chain' });
  await ok('POST', '/organization/acme/projects', { projectName: 'flat' });

  const level0 = [await writeLevel0(chain), await writeLevel0(flat)] as const;
  chainStarts.push((await ok('POST', `/revision/${level0[0]}/branches`, { branchName: 'child' })).startRevisionId);
  await moveOn(chain, 'master');
  const level1 = [await writeLevel1(chain), await writeLevel1(flat)] as const;
  chainStarts.push((await ok('POST', `/revision/${level1[0]}/branches`, { branchName: 'grand' })).startRevisionId);
  await moveOn(chain, 'child');
  const level2 = [await writeLevel2(chain), await writeLevel2(flat)] as const;
  const drafts = [await writeDraft(chain), await writeDraft(flat)] as const;
  pairs.push(['level 0', ...level0], ['level 1', ...level1], ['level 2', ...level2], ['draft', ...drafts]);
  // A start revision holds its source's content (its default base is the source itself, so diffs are not compared).
  starts.push(['child start = level 0', chainStarts[0] as string, level0[1]], ['grand start = level 1', chainStarts[1] as string, level1[1]]);
});
after(async () => {
  await server?.stop();
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

/** A row without what differs between projects (times) and without its table (ids are equal by construction). */
const row = (r: Json) => ({ id: r.id, readonly: r.readonly, data: r.data });
const table = (t: Json) => ({ id: t.id, readonly: t.readonly, schema: t.schema, count: t.count });

async function tablesOf(revision: string): Promise<Json[]> {
  return (await ok('GET', `/revision/${revision}/tables?first=100`)).edges.map((e: Json) => table(e.node));
}

/** Every row of a list, page by page (pages of 7), with the first page's totalCount. */
async function listOf(
  revision: string,
  tableId: string,
  query: { where?: unknown; orderBy?: unknown },
): Promise<{ rows: Json[]; totalCount: number }> {
  const rows: Json[] = [];
  let cursor: string | null = null;
  let totalCount = -1;
  for (;;) {
    const page: Json = await ok('POST', `${T(revision, tableId)}/rows/query`, { ...query, first: 7, ...(cursor === null ? {} : { after: cursor }) });
    if (totalCount === -1) totalCount = page.totalCount;
    rows.push(...page.edges.map((e: Json) => row(e.node)));
    if (!page.pageInfo.hasNextPage) return { rows, totalCount };
    cursor = page.pageInfo.endCursor;
  }
}

/** Lists of every table, and lists of `authors` on its data. */
const QUERIES: { where?: unknown; orderBy?: unknown }[] = [
  {},
  { orderBy: [{ id: 'desc' }] },
  { where: { readonly: { equals: false } } },
  { where: { readonly: { equals: true } }, orderBy: [{ createdAt: 'desc' }] },
];
const AUTHOR_QUERIES: { where?: unknown; orderBy?: unknown }[] = [
  { orderBy: [{ data: { path: ['n'], direction: 'desc' } }] },
  { where: { data: { path: 'group', equals: 'a' } }, orderBy: [{ updatedAt: 'asc' }] },
  { where: { OR: [{ data: { path: 'n', gt: 100 } }, { id: { startsWith: 'a1' } }] }, orderBy: [{ data: { path: ['name'], direction: 'asc' } }] },
  { where: { AND: [{ readonly: { equals: true } }, { data: { path: 'n', lt: 20 } }] } },
];

/** Row ids any revision of either project ever had, plus ids no revision has. */
const ROW_IDS = [
  'a00',
  'a01',
  'a02',
  'a03',
  'a04',
  'a05',
  'a06',
  'a06-renamed',
  'a07',
  'a08',
  'a09',
  'a10',
  'a11',
  'a12',
  'a12-parent',
  'a29',
  'b01',
  'b01-renamed',
  'c01',
  'p01',
  'news',
  'n1',
  'n2',
  'n3',
  'nope',
];
const TABLE_IDS = ['authors', 'tags', 'notes', 'memos'];

describe('a chain of copy-on-write branches answers like one branch', () => {
  test('tables, revision flags and rows by id (REST)', async () => {
    for (const [name, c, f] of [...pairs, ...starts]) {
      assert.deepEqual(await tablesOf(c), await tablesOf(f), `${name}: tables`);
      const [cr, fr] = [await ok('GET', `/revision/${c}`), await ok('GET', `/revision/${f}`)];
      assert.deepEqual([cr.hasChanges, cr.isDraft], [fr.hasChanges, fr.isDraft], `${name}: revision flags`);
      for (const tableId of TABLE_IDS) {
        const [ct, ft] = [await call('GET', `/api${T(c, tableId)}`), await call('GET', `/api${T(f, tableId)}`)];
        assert.equal(ct.status, ft.status, `${name}: table ${tableId}`);
        if (ct.status !== 200) continue;
        for (const rowId of ROW_IDS) {
          const [cRow, fRow] = [await call('GET', `/api${T(c, tableId)}/row/${rowId}`), await call('GET', `/api${T(f, tableId)}/row/${rowId}`)];
          assert.equal(cRow.status, fRow.status, `${name}: ${tableId}/${rowId}`);
          if (cRow.status === 200) assert.deepEqual(row(cRow.body), row(fRow.body), `${name}: ${tableId}/${rowId}`);
        }
      }
    }
  });

  test('lists with filters, sorts, keyset pages and counts (REST)', async () => {
    for (const [name, c, f] of [...pairs, ...starts]) {
      for (const { id } of await tablesOf(f)) {
        for (const query of id === 'authors' ? [...QUERIES, ...AUTHOR_QUERIES] : QUERIES) {
          assert.deepEqual(await listOf(c, id, query), await listOf(f, id, query), `${name}: ${id} ${JSON.stringify(query)}`);
        }
      }
    }
  });

  test('revisions, tables and rows through GraphQL', async () => {
    const query = `query($r: ID!) {
      revision(data: {revisionId: $r}) { hasChanges isDraft tables(data: {first: 100}) { totalCount edges { node { id readonly count
        rows(data: {first: 50, orderBy: [{id: desc}]}) { totalCount edges { node { id readonly data } } } } } } }
      authors: rows(data: {revisionId: $r, tableId: "authors", first: 50, where: {data: {path: "n", lt: 300}},
        orderBy: [{data: {path: ["group"], direction: desc}}, {id: asc}]}) { totalCount edges { node { id readonly data } } } }`;
    for (const [name, c, f] of pairs) {
      assert.deepEqual(await gql(query, { r: c }), await gql(query, { r: f }), name);
    }
  });

  test('diffs against the default base and across levels, with row changes', async () => {
    const [level0, , , draft] = pairs;
    const comparisons: [string, string, string, string | null, string | null][] = [
      ...pairs.map(([name, c, f]): [string, string, string, string | null, string | null] => [name, c, f, null, null]),
      ['draft against level 0', draft?.[1] as string, draft?.[2] as string, level0?.[1] as string, level0?.[2] as string],
      ['level 0 against the draft', level0?.[1] as string, level0?.[2] as string, draft?.[1] as string, draft?.[2] as string],
    ];
    for (const [name, c, f, cBase, fBase] of comparisons) {
      const q = (base: string | null) => (base === null ? '' : `?compareWith=${base}`);
      const [cd, fd] = [await ok('GET', `/revision/${c}/changes${q(cBase)}`), await ok('GET', `/revision/${f}/changes${q(fBase)}`)];
      assert.deepEqual([cd.tables, cd.totalRowChanges], [fd.tables, fd.totalRowChanges], `${name}: revision changes`);
      for (const { tableId } of fd.tables) {
        const rowsOf = async (revision: string, base: string | null) =>
          (await ok('GET', `${T(revision, tableId)}/changes${q(base)}${base === null ? '?' : '&'}first=100`)).edges.map((e: Json) => e.node);
        assert.deepEqual(await rowsOf(c, cBase), await rowsOf(f, fBase), `${name}: ${tableId} row changes`);
      }
    }
  });

  test('row history across the chain (REST and GraphQL)', async () => {
    const [, , , draft] = pairs;
    const [c, f] = [draft?.[1] as string, draft?.[2] as string];
    const entry = (e: Json) => ({ change: e.change, rowId: e.rowId, tableId: e.tableId, data: e.data, comment: e.comment });
    for (const tableId of ['authors', 'memos']) {
      for (const rowId of ROW_IDS) {
        const [ch, fh] = [
          await call('GET', `/api${T(c, tableId)}/row/${rowId}/history?first=3`),
          await call('GET', `/api${T(f, tableId)}/row/${rowId}/history?first=3`),
        ];
        assert.equal(ch.status, fh.status, `${tableId}/${rowId}`);
        if (ch.status !== 200) continue;
        assert.deepEqual(
          ch.body.edges.map((e: Json) => entry(e.node)),
          fh.body.edges.map((e: Json) => entry(e.node)),
          `${tableId}/${rowId} page 1`,
        );
        assert.equal(ch.body.totalCount, fh.body.totalCount, `${tableId}/${rowId} totalCount`);
        const all = `query($r: ID!, $t: String!, $id: String!) { rowHistory(data: {revisionId: $r, tableId: $t, rowId: $id, first: 100}) {
          totalCount edges { node { change rowId tableId data comment } } } }`;
        assert.deepEqual(await gql(all, { r: c, t: tableId, id: rowId }), await gql(all, { r: f, t: tableId, id: rowId }), `${tableId}/${rowId} all`);
      }
    }
  });

  test('a branch copies nothing when it is created, and its parent is unchanged by it', async () => {
    const [level0] = pairs;
    const before = await listOf(level0?.[1] as string, 'authors', {});
    await ok('POST', `/revision/${level0?.[1] as string}/branches`, { branchName: 'late' });
    assert.deepEqual(await listOf(level0?.[1] as string, 'authors', {}), before);
    const late = await ok('GET', `${P('chain')}/branch/late`);
    assert.deepEqual(await listOf(late.draftRevisionId, 'authors', {}), before);
    assert.deepEqual(await tablesOf(late.draftRevisionId), await tablesOf(level0?.[2] as string));
  });
});
