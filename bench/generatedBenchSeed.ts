// Seeding of the generated-endpoint benchmarks: one public project with a 100,000-row table, its endpoints and the
// request of each scenario.
import { ADMIN_PASSWORD, type Call, type Req } from './benchServers.ts';

export type Scenario = { readonly key: string; readonly name: string; readonly req: Req };

/** What seeding made: the fixed scenarios, the random-id ones and the draft GraphQL cursor walk. */
export type Seeded = {
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
export async function seed(call: Call, rows: number): Promise<Seeded> {
  const admin = (await call('POST', '/api/auth/login', { username: 'admin', password: ADMIN_PASSWORD })).json.accessToken as string;
  await call('POST', '/api/organizations', { organizationId: 'bench' }, admin);
  await call('POST', '/api/organization/bench/projects', { projectName: 'items', isPublic: true }, admin);
  const branch = '/api/organization/bench/project/items/branch/master';
  const draft = (await call('GET', branch, undefined, admin)).json.draftRevisionId as string;
  const text = { type: 'string', default: '' };
  const schema = {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'n', 'tag'],
    properties: { name: text, n: { type: 'number', default: 0 }, tag: text },
  };
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
  const gql = (query: string, variables?: unknown): Req => ({
    method: 'POST',
    path: gqlPath,
    body: JSON.stringify(variables === undefined ? { query } : { query, variables }),
  });
  const gqlList = (count: boolean, after: string | null) =>
    gql(
      `{ items(data: { first: 20, ${after === null ? '' : `after: ${JSON.stringify(after)}, `}where: { data: { path: "tag", equals: "even" } }, ` +
        `orderBy: [{ data: { path: "n", direction: desc, type: int } }] }) { ${count ? 'totalCount ' : ''}pageInfo { hasNextPage endCursor } ` +
        'edges { cursor node { id createdAt updatedAt readonly data { name n tag } } } } }',
    );
  // The same walk on the draft GraphQL URL (cursors are bound to the URL they came from), without totalCount.
  const draftGql = (after: string | null): Req => ({
    method: 'POST',
    path: gqlPath.replace('/head', '/draft'),
    body: gqlList(false, after).body as string,
  });
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
    {
      key: 'restList',
      name: 'REST 20-row list, where tag + orderBy n, cursor (page 2; REST lists always carry totalCount)',
      req: { method: 'GET', path: listPath(cursors[1] ?? null) },
    },
    { key: 'gqlGet', name: 'GraphQL get-by-id', req: inline(someId) },
    { key: 'gqlList', name: 'GraphQL 20-row list, same filter/sort/cursor, no totalCount', req: gqlList(false, gqlAfter) },
    { key: 'gqlListCount', name: 'GraphQL 20-row list, same, with totalCount', req: gqlList(true, gqlAfter) },
    { key: 'page1', name: 'REST list page 1 (cursor walk)', req: { method: 'GET', path: listPath(null) } },
    { key: 'page50', name: 'REST list page 50 (cursor walk)', req: { method: 'GET', path: listPath(cursors[49] ?? null) } },
  ];
  const varying = (first: Req, next: () => Req): Req => Object.assign({}, first, { vary: () => next() });
  const random: Scenario[] = [
    {
      key: 'restGetRandom',
      name: 'REST get-by-id, random ids',
      req: varying({ method: 'GET', path: `${rest}/${someId}` }, () => ({ method: 'GET', path: `${rest}/${randomId(rows)}` })),
    },
    {
      key: 'gqlGetRandomVar',
      name: 'GraphQL get-by-id, random ids as a variable',
      req: varying(gql(byVariable, { id: someId }), () => gql(byVariable, { id: randomId(rows) })),
    },
    {
      key: 'gqlGetRandomInline',
      name: 'GraphQL get-by-id, random ids inline (a new query text per request)',
      req: varying(inline(someId), () => inline(randomId(rows))),
    },
  ];
  return { seedS, scenarios, random, draftGql, draftCursors };
}
