import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { compileErrors, validate } from '@readme/openapi-parser';
import { createOpenApiChecker } from './support/openApiResponses.ts';
import type { Reply } from './support/systemHarness.ts';
import { ADMIN_PASSWORD, startGeneratedSystem, type GeneratedSystem } from './support/generatedHarness.ts';
import { endpointUrl, ok, seedProject, type Project } from './support/generatedFixtures.ts';

// Generated REST (generated-api.md §7-§8): every route, its statuses, and every answer checked against the
// endpoint's own OpenAPI document, which must validate as OpenAPI 3.1.
let sys: GeneratedSystem;
let admin: string;
let blog: Project;
const checkers = new Map<string, (method: string, path: string, reply: Reply) => void>();

before(async () => {
  sys = await startGeneratedSystem();
  admin = await sys.login('admin', ADMIN_PASSWORD);
  blog = await seedProject(sys, admin, 'acme', 'blog', true);
});
after(() => sys.close());

/** Calls `B{path}` and checks the answer against the document's (method, template, status) response schema. */
async function rest(
  segment: string,
  method: string,
  path: string,
  template: string,
  options: { body?: unknown; token?: string | null } = {},
): Promise<Reply> {
  let check = checkers.get(segment);
  if (check === undefined) {
    const document = ok(await sys.call('GET', `${endpointUrl('rest', blog, segment)}/openapi.json`, { token: admin })).body;
    check = createOpenApiChecker(document);
    checkers.set(segment, check);
  }
  const reply = await sys.call(method, `${endpointUrl('rest', blog, segment)}${path}`, { token: admin, ...options });
  check(method, template, reply);
  return reply;
}

describe('OpenAPI documents', () => {
  test('head and draft documents validate as OpenAPI 3.1; head lists reads only', async () => {
    const documents: Record<string, any> = {}; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON
    for (const segment of ['head', 'draft']) {
      const document = ok(await sys.call('GET', `${endpointUrl('rest', blog, segment)}/openapi.json`)).body;
      const result = await validate(structuredClone(document));
      assert.ok(result.valid, result.valid ? '' : compileErrors(result));
      documents[segment] = document;
    }
    assert.equal(documents.head.info.title, 'Strata acme/blog/master (head)');
    assert.equal(documents.head.info.version, blog.headRevisionId);
    assert.deepEqual(documents.head.servers, [{ url: '/endpoint/rest/acme/blog/master/head' }]);
    assert.deepEqual(Object.keys(documents.head.paths['/tables/posts/rows']), ['get']);
    assert.deepEqual(Object.keys(documents.draft.paths['/tables/posts/rows']), ['get', 'post']);
    assert.ok(documents.draft.paths['/tables/posts/rows/bulk'] !== undefined && documents.head.paths['/tables/posts/rows/bulk'] === undefined);
    // Public project: reads also allow anonymous callers.
    assert.ok(documents.head.paths['/tables/posts/rows'].get.security.some((s: object) => Object.keys(s).length === 0));
    const defaultBranch = ok(await sys.call('GET', '/endpoint/rest/acme/blog/$default/head/openapi.json')).body;
    assert.deepEqual(defaultBranch.servers, [{ url: '/endpoint/rest/acme/blog/$default/head' }]);
  });
});

describe('read routes', () => {
  test('endpoint info, tables, schema; HTTP HEAD wherever GET works', async () => {
    const info = await rest('head', 'GET', '', '/');
    assert.deepEqual(info.body, {
      organizationId: 'acme',
      projectName: 'blog',
      branchName: 'master',
      mode: 'head',
      revisionId: blog.headRevisionId,
      readOnly: true,
    });
    assert.deepEqual((await rest('draft', 'GET', '/', '/')).body.readOnly, false);
    const tables = await rest('head', 'GET', '/tables', '/tables');
    assert.deepEqual(
      tables.body.tables.map((t: { id: string; count: number; readonly: boolean }) => [t.id, t.count, t.readonly]),
      [
        ['authors', 4, true],
        ['posts', 7, true],
      ],
    );
    const schema = ok(await sys.call('GET', `${endpointUrl('rest', blog)}/tables/posts/schema`));
    assert.equal(schema.body.properties.author.foreignKey, 'authors');
    for (const path of ['', '/tables', '/tables/posts/schema', '/tables/posts/rows?first=1', '/tables/posts/rows/p1', '/openapi.json', '/docs']) {
      const get = await sys.call('GET', `${endpointUrl('rest', blog)}${path}`);
      const head = await sys.call('HEAD', `${endpointUrl('rest', blog)}${path}`);
      assert.deepEqual([head.status, head.body, head.headers.get('content-type')], [200, null, get.headers.get('content-type')], path);
    }
  });

  test('rows: list with URL-encoded where/orderBy across 3 pages, query, get; errors', async () => {
    const where = encodeURIComponent(JSON.stringify({ data: { path: 'views', gte: 1 } }));
    const orderBy = encodeURIComponent(JSON.stringify([{ data: { path: 'views', direction: 'desc', type: 'int' } }]));
    const seen: string[] = [];
    let after = '';
    for (const size of [2, 2, 2]) {
      const page = await rest('head', 'GET', `/tables/posts/rows?first=2&where=${where}&orderBy=${orderBy}${after}`, '/tables/posts/rows');
      assert.equal(page.body.totalCount, 6);
      assert.equal(page.body.edges.length, size);
      seen.push(...page.body.edges.map((e: { node: { id: string } }) => e.node.id));
      after = `&after=${encodeURIComponent(page.body.pageInfo.endCursor)}`;
    }
    assert.deepEqual(seen, ['p6', 'p3', 'p5', 'p2', 'p7', 'p4']);
    const queried = await rest('head', 'POST', '/tables/posts/rows/query', '/tables/posts/rows/query', {
      body: { first: 1, where: { id: { equals: 'p2' } } },
    });
    assert.deepEqual([queried.body.totalCount, queried.body.edges[0].node.data.self], [1, 'p2']);
    const row = await rest('head', 'GET', '/tables/posts/rows/p1', '/tables/posts/rows/{rowId}');
    assert.deepEqual([row.body.readonly, row.body.data.author, row.body.data.self], [true, 'a1', 'p1']);
    const missingRow = await rest('head', 'GET', '/tables/posts/rows/p9', '/tables/posts/rows/{rowId}');
    assert.deepEqual([missingRow.status, missingRow.body.code], [404, 'ROW_NOT_FOUND']);
    const badWhere = await rest('head', 'GET', '/tables/posts/rows?where=%7Bnope', '/tables/posts/rows');
    assert.deepEqual([badWhere.status, badWhere.body.code, badWhere.body.details[0].path], [400, 'BAD_USER_INPUT', '/where']);
    const badFirst = await rest('head', 'GET', '/tables/posts/rows?first=5000', '/tables/posts/rows');
    assert.deepEqual([badFirst.status, badFirst.body.details[0].path], [400, '/first']);
    const unknownTable = await sys.call('GET', `${endpointUrl('rest', blog)}/tables/nope/rows`);
    assert.deepEqual([unknownTable.status, unknownTable.body.code], [404, 'TABLE_NOT_FOUND']);
    const queryBody = await rest('head', 'POST', '/tables/posts/rows/query', '/tables/posts/rows/query', { body: { first: 1, last: 2 } });
    assert.deepEqual([queryBody.status, queryBody.body.details[0].path], [400, '/last']);
  });
});

describe('write routes (draft)', () => {
  test('every write route answers its documented status and body', async () => {
    // `joined` holds a valid date-time: the checker asserts `format`, which the documents (and the server) treat as an annotation.
    const data = { name: 'W', age: 1, active: false, joined: '2025-05-05T05:05:05.000Z', address: { city: 'X' }, tags: [] };
    const created = await rest('draft', 'POST', '/tables/authors/rows', '/tables/authors/rows', { body: { id: 'w1', data } });
    assert.equal(created.status, 201);
    assert.equal((await rest('draft', 'PUT', '/tables/authors/rows/w1', '/tables/authors/rows/{rowId}', { body: { data } })).status, 200);
    const patch = { patches: [{ op: 'replace', path: 'address.city', value: 'Y' }] };
    assert.equal(
      (await rest('draft', 'PATCH', '/tables/authors/rows/w1', '/tables/authors/rows/{rowId}', { body: patch })).body.data.address.city,
      'Y',
    );
    const badPatch = await rest('draft', 'PATCH', '/tables/authors/rows/w1', '/tables/authors/rows/{rowId}', {
      body: { patches: [{ op: 'move', path: '/a', value: 1 }] },
    });
    assert.deepEqual([badPatch.status, badPatch.body.code], [400, 'INVALID_PATCH']);
    const exists = await rest('draft', 'POST', '/tables/authors/rows', '/tables/authors/rows', { body: { id: 'w1', data } });
    assert.deepEqual([exists.status, exists.body.code], [409, 'ROW_ALREADY_EXISTS']);
    assert.equal((await rest('draft', 'DELETE', '/tables/authors/rows/w1', '/tables/authors/rows/{rowId}')).status, 200);
    const rows = [
      { id: 'w2', data },
      { id: 'w3', data },
    ];
    assert.equal((await rest('draft', 'POST', '/tables/authors/rows/bulk', '/tables/authors/rows/bulk', { body: { rows } })).status, 201);
    assert.equal((await rest('draft', 'PUT', '/tables/authors/rows/bulk', '/tables/authors/rows/bulk', { body: { rows } })).body.count, 2);
    const patches = rows.map((r) => ({ id: r.id, patches: [{ op: 'replace', path: '/age', value: 2 }] }));
    assert.equal((await rest('draft', 'PATCH', '/tables/authors/rows/bulk', '/tables/authors/rows/bulk', { body: { rows: patches } })).body.count, 2);
    const missing = await rest('draft', 'DELETE', '/tables/authors/rows/bulk', '/tables/authors/rows/bulk', { body: { ids: ['w2', 'nope'] } });
    assert.deepEqual([missing.status, missing.body.code], [404, 'ROW_NOT_FOUND']);
    assert.deepEqual(
      (await rest('draft', 'DELETE', '/tables/authors/rows/bulk', '/tables/authors/rows/bulk', { body: { ids: ['w2', 'w3'] } })).body,
      { success: true, count: 2 },
    );
    const anonymous = await rest('draft', 'POST', '/tables/authors/rows', '/tables/authors/rows', { body: { id: 'w4', data }, token: null });
    assert.deepEqual([anonymous.status, anonymous.headers.get('www-authenticate')], [401, 'Bearer realm="strata"']);
  });
});

describe('methods, routes and documentation pages', () => {
  test("405 with the path's Allow list; unknown paths 404", async () => {
    const cases: [string, string, string, string][] = [
      ['head', 'POST', '', 'GET, HEAD'],
      ['head', 'DELETE', '/tables', 'GET, HEAD'],
      ['draft', 'POST', '/tables/posts/schema', 'GET, HEAD'],
      ['draft', 'GET', '/tables/posts/rows/bulk/x', ''],
      ['draft', 'PATCH', '/tables/posts/rows', 'GET, HEAD, POST'],
      ['head', 'OPTIONS', '/tables/posts/rows/p1', 'GET, HEAD'],
      ['draft', 'OPTIONS', '/tables/posts/rows/bulk', 'GET, HEAD, POST, PUT, PATCH, DELETE'],
    ];
    for (const [segment, method, path, allow] of cases) {
      const reply = await sys.call(method, `${endpointUrl('rest', blog, segment)}${path}`, { token: admin });
      if (allow === '') assert.deepEqual([reply.status, reply.body.code], [404, 'ROUTE_NOT_FOUND'], `${method} ${path}`);
      else assert.deepEqual([reply.status, reply.body.code, reply.headers.get('allow')], [405, 'METHOD_NOT_ALLOWED', allow], `${method} ${path}`);
    }
  });

  test('Swagger UI: a same-origin page loading B/openapi.json, no validator', async () => {
    const page = ok(await sys.call('GET', `${endpointUrl('rest', blog)}/docs`));
    assert.match(page.headers.get('content-security-policy') ?? '', /^default-src 'self'/);
    const html = String(page.body);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    assert.ok(assets.length >= 4 && assets.every((url) => url.startsWith('/endpoint/swagger-ui/')), assets.join(' '));
    for (const asset of assets) ok(await sys.call('GET', asset));
    const init = String(ok(await sys.call('GET', '/endpoint/swagger-ui/strata-docs.js')).body);
    assert.match(init, /validatorUrl: null/);
    assert.match(init, /openapi\.json/);
    assert.equal((await sys.call('GET', '/endpoint/swagger-ui/index.html')).status, 404);
  });
});
