// Generated GraphQL documents run on graphql-js until they repeat, then as graphql-jit compiled queries
// (query-service/generatedApi/serve/compiledOperations.ts). Over HTTP: the same documents answer and log alike on both,
// a document sent once is never compiled, a repeated one is, and compiled operations are bounded.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { ADMIN_PASSWORD, startGeneratedSystem, type GeneratedSystem } from './support/generatedHarness.ts';
import { endpointUrl, ok, seedProject, type Project } from './support/generatedFixtures.ts';

const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});
// Operations are compiled on their second execution, at most three are kept.
const COMPILE_ON = 2;
const MAX_COMPILED = 3;
let compiles = 0;
let declined = 0;
let sys: GeneratedSystem;
let admin: string;
let scopedKey: string;
let blog: Project;

before(async () => {
  sys = await startGeneratedSystem({
    graphqlExecution: { compileOnExecution: COMPILE_ON, maxDocumentsPerSchema: 500, maxCompiledOperations: MAX_COMPILED },
    onGraphqlCompile: (compiled) => void (compiled ? (compiles += 1) : (declined += 1)),
    log: pino({ level: 'info' }, sink),
  });
  admin = await sys.login('admin', ADMIN_PASSWORD);
  blog = await seedProject(sys, admin, 'acme', 'blog');
  scopedKey = await sys.personalKey(admin, { tableIds: ['posts'] });
});
after(() => sys.close());

type Sent = { readonly query: string; readonly variables?: Record<string, unknown>; readonly operationName?: string; readonly key?: true };
type Answer = { readonly status: number; readonly body: unknown; readonly logs: unknown[] };

let sequence = 0;

/** Fields of a log line that differ between two requests by nature. */
function comparable(line: Record<string, unknown>): Record<string, unknown> {
  const { time: _time, durationMs: _duration, reqId: _reqId, pid: _pid, hostname: _hostname, err, ...rest } = line;
  if (err === undefined) return rest;
  const { stack: _stack, ...errFields } = err as Record<string, unknown>;
  return Object.assign(rest, { err: errFields });
}

/** POSTs a document to the draft GraphQL URL (nothing kept there) and collects its answer and log lines. */
async function send(sent: Sent): Promise<Answer> {
  sequence += 1;
  const requestId = `exec-${sequence}`;
  const headers: Record<string, string> = { 'x-request-id': requestId };
  if (sent.key === true) headers['X-Api-Key'] = scopedKey;
  const body = {
    query: sent.query,
    ...(sent.variables ? { variables: sent.variables } : {}),
    ...(sent.operationName ? { operationName: sent.operationName } : {}),
  };
  const reply = await sys.call('POST', endpointUrl('graphql', blog, 'draft'), { body, headers, token: sent.key === true ? null : admin });
  // The request line is written when the response is finished.
  await new Promise((resolve) => setTimeout(resolve, 5));
  return { status: reply.status, body: reply.body, logs: lines.filter((line) => line.reqId === requestId).map(comparable) };
}

const NODE = 'id createdAt updatedAt readonly json data { name age active joined address { city } tags }';
const LIST =
  'query List($d: BlogGetAuthorsInput) { authors(data: $d) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id data { name } } } } }';
// graphql-jit declines variables of recursive input types (the `where` inputs): those documents stay on graphql-js.
const DOCUMENTS: readonly (Sent & { readonly name: string; readonly declined?: true })[] = [
  { name: 'get by id, inline literal', query: `{ author(id: "a1") { ${NODE} } }` },
  { name: 'get by id, variable', query: `query One($id: String!) { author(id: $id) { ${NODE} } }`, variables: { id: 'a2' } },
  { name: 'row not found: non-null root field', query: '{ author(id: "zz") { id } }' },
  { name: 'row not found beside a found one', query: '{ a: author(id: "a1") { id } b: authorFlat(id: "zz") { name } }' },
  { name: 'variable of the wrong type', query: 'query One($id: String!) { author(id: $id) { id } }', variables: { id: 5 } },
  { name: 'missing required variable', query: 'query One($id: String!) { author(id: $id) { id readonly } }', variables: {} },
  {
    name: 'list: where, orderBy, first',
    query: LIST,
    variables: { d: { where: { data: { path: 'age', gte: 26 } }, orderBy: [{ data: { path: 'name', direction: 'asc' } }], first: 2 } },
    declined: true,
  },
  {
    name: 'list: unknown JSON path (resolver error with details)',
    query: LIST,
    variables: { d: { where: { data: { path: 'nope', equals: 1 } } } },
    declined: true,
  },
  { name: 'list: bad cursor', query: LIST, variables: { d: { first: 1, after: 'not-a-cursor' } }, declined: true },
  { name: 'list: DateTime filter of a bad value', query: LIST, variables: { d: { where: { updatedAt: { equals: 'yesterday' } } } }, declined: true },
  { name: 'list: cost over the limit from a variable', query: LIST, variables: { d: { first: 100_000 } }, declined: true },
  {
    name: 'list: inline where, orderBy, first',
    query:
      '{ authors(data: { where: { data: { path: "age", gte: 26 } }, orderBy: [{ data: { path: "name", direction: asc } }], first: 2 }) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id data { name } } } } }',
  },
  { name: 'list: inline unknown JSON path', query: '{ authors(data: { where: { data: { path: "nope", equals: 1 } } }) { totalCount } }' },
  { name: 'list: inline bad cursor', query: '{ authors(data: { first: 1, after: "not-a-cursor" }) { edges { cursor } } }' },
  {
    name: 'list: inline DateTime filter of a bad value',
    query: '{ authors(data: { where: { updatedAt: { equals: "yesterday" } } }) { totalCount } }',
  },
  { name: 'list: inline cost over the limit', query: '{ authors(data: { first: 100000 }) { edges { node { id data { name age } } } } }' },
  {
    name: 'foreign keys, entity and flat types',
    query:
      '{ posts(data: { first: 7 }) { edges { node { id data { title author { name } reviewers { name address { city } } } } } } postsFlat(data: { first: 2 }) { edges { node { title author { name tags } } } } }',
  },
  {
    name: 'foreign key outside the API key scope',
    query: '{ postsFlat(data: { first: 2 }) { edges { node { title author { name } } } } }',
    key: true,
  },
  { name: 'table outside the API key scope', query: '{ authors { totalCount } }', key: true },
  {
    name: 'fragments, aliases, directives, __typename',
    query: `query F($skip: Boolean!, $id: String!) { x: author(id: $id) { ...A __typename } y: authors(data: { first: 1 }) @skip(if: $skip) { edges { node { ... on BlogAuthorNode { id } } } } }
      fragment A on BlogAuthorNode { id data { name @include(if: $skip) age } }`,
    variables: { skip: true, id: 'a3' },
  },
  {
    name: 'operation chosen by name',
    query: 'query A { author(id: "a1") { id } } query B { author(id: "a4") { id data { name } } }',
    operationName: 'B',
  },
  {
    name: '_entities',
    query:
      '{ _entities(representations: [{ __typename: "BlogPostNode", id: "p1" }, { __typename: "BlogAuthorNode", id: "a9" }]) { ... on BlogPostNode { id data { title } } } }',
  },
  { name: 'introspection', query: '{ __type(name: "BlogAuthorNode") { name fields { name type { kind name ofType { name } } } } }' },
];

describe('interpreted and compiled execution', () => {
  test('every document answers and logs the same on graphql-js (first run) and graphql-jit (second run)', async () => {
    for (const listed of DOCUMENTS) {
      // A comment makes each case its own document (several share a query text).
      const doc = Object.assign({}, listed, { query: `${listed.query}\n# ${listed.name}` });
      const before = { compiles, declined };
      const interpreted = await send(doc);
      assert.deepEqual({ compiles, declined }, before, `${doc.name}: compiled on its first execution`);
      const compiled = await send(doc);
      const expected = doc.declined
        ? { compiles: before.compiles, declined: before.declined + 1 }
        : { compiles: before.compiles + 1, declined: before.declined };
      if (interpreted.status === 200) assert.deepEqual({ compiles, declined }, expected, `${doc.name}: not compiled on its second execution`);
      assert.deepEqual(compiled, interpreted, doc.name);
      assert.ok(interpreted.logs.length > 0, `${doc.name}: no log line`);
    }
    // The cases above must include successes, partial failures and failures before execution.
    const statuses = new Set<number>();
    for (const doc of DOCUMENTS) statuses.add((await send(doc)).status);
    assert.deepEqual([...statuses].sort(), [200, 400]);
  });
});

describe('documents that differ only in literal values', () => {
  // The second and later texts of a shape that passed validation are checked by the rules that read literal values
  // only (documentShape.ts): each bad text must answer as it did when its shape was new.
  const PAIRS: readonly (readonly [name: string, good: string, bad: string])[] = [
    ['Int out of range', '{ authors(data: { first: 2 }) { totalCount } }', '{ authors(data: { first: 3000000000 }) { totalCount } }'],
    ['String where an Int goes', '{ a: authors(data: { first: 1 }) { totalCount } }', '{ a: authors(data: { first: "1" }) { totalCount } }'],
    [
      'DateTime literal',
      '{ authors(data: { where: { updatedAt: { lt: "2999-01-01T00:00:00.000Z" } } }) { totalCount } }',
      '{ authors(data: { where: { updatedAt: { lt: "yesterday" } } }) { totalCount } }',
    ],
    [
      'one response name, other arguments',
      '{ a: author(id: "a1") { id } a: author(id: "a1") { id } }',
      '{ a: author(id: "a1") { id } a: author(id: "a2") { id } }',
    ],
    [
      'cost of a literal first',
      '{ authors(data: { first: 2 }) { edges { node { id } } } }',
      '{ authors(data: { first: 90000 }) { edges { node { id } } } }',
    ],
  ];

  test('a bad text answers and logs the same whether its shape is new or passed before', async () => {
    for (const [name, good, bad] of PAIRS) {
      const fresh = await send({ query: `${bad}\n# fresh` });
      assert.equal(fresh.status, 400, `${name}: ${JSON.stringify(fresh.body)}`);
      const passed = await send({ query: good });
      assert.equal(passed.status, 200, `${name}: ${JSON.stringify(passed.body)}`);
      assert.deepEqual(await send({ query: `${bad}\n# again` }), fresh, name);
      const other = await send({ query: good.replaceAll('a1', 'a3').replace('first: 2', 'first: 3') });
      assert.equal(other.status, 200, name);
    }
  });
});

describe('when documents are compiled', () => {
  test('documents sent once are never compiled; a repeated one is compiled once, on its configured execution', async () => {
    const before = compiles;
    for (let i = 0; i < 20; i++)
      ok(
        await sys.call('POST', endpointUrl('graphql', blog, 'draft'), {
          body: { query: `{ author(id: "a${(i % 4) + 1}") { id n${i}: updatedAt } }` },
          token: admin,
        }),
      );
    assert.equal(compiles, before, 'a single-use document was compiled');
    const repeated = '{ authors(data: { first: 3 }) { edges { node { id } } } } # repeated';
    ok(await sys.call('POST', endpointUrl('graphql', blog, 'draft'), { body: { query: repeated }, token: admin }));
    assert.equal(compiles, before);
    for (let i = 1; i < 5; i++) ok(await sys.call('POST', endpointUrl('graphql', blog, 'draft'), { body: { query: repeated }, token: admin }));
    assert.equal(compiles, before + 1);
  });

  test('mutations stay on graphql-js however often they run', async () => {
    const before = compiles;
    const mutation = 'mutation D($id: String!) { deleteAuthor(id: $id) { id } }';
    for (let i = 0; i < 3; i++)
      await sys.call('POST', endpointUrl('graphql', blog, 'draft'), { body: { query: mutation, variables: { id: 'missing' } }, token: admin });
    assert.equal(compiles, before);
  });

  test('compiled operations are bounded: the least recently used one is compiled again when it comes back', async () => {
    const run = (i: number) =>
      sys.call('POST', endpointUrl('graphql', blog, 'draft'), { body: { query: `{ authors(data: { first: ${i} }) { totalCount } }` }, token: admin });
    const before = compiles;
    for (let i = 1; i <= MAX_COMPILED + 1; i++) for (let n = 0; n < COMPILE_ON; n++) ok(await run(i));
    assert.equal(compiles, before + MAX_COMPILED + 1);
    ok(await run(MAX_COMPILED + 1));
    assert.equal(compiles, before + MAX_COMPILED + 1, 'a kept compiled operation was compiled again');
    ok(await run(1));
    assert.equal(compiles, before + MAX_COMPILED + 2, 'the evicted operation was not compiled again');
  });
});
