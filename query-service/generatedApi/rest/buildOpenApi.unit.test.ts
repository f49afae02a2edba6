import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileErrors, validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { blogTables } from '../../testing/blogFixture.ts';
import { buildOpenApi, type BuildOpenApiOptions, type OpenApiDocument } from './buildOpenApi.ts';

type Operation = { operationId: string; security?: unknown[]; responses: Record<string, unknown> };
type Doc = OpenApiDocument & {
  info: { title: string; version: string };
  servers: { url: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>> };
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function build(overrides: Partial<BuildOpenApiOptions> = {}): Doc {
  return buildOpenApi({
    org: 'acme',
    projectName: 'blog',
    branchName: 'master',
    segment: 'draft',
    revisionId: 'rev1',
    mode: 'draft',
    isPublic: false,
    tables: blogTables,
    ...overrides,
  }) as Doc;
}

function operations(doc: Doc): [path: string, method: string, operation: Operation][] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]): [string, string, Operation] => [path, method, operation]),
  );
}

const isRead = (path: string, method: string) => method === 'get' || path.endsWith('/rows/query');

describe('buildOpenApi', () => {
  test('every mode validates as OpenAPI 3.1', async () => {
    const variants: Partial<BuildOpenApiOptions>[] = [
      { mode: 'draft', segment: 'draft' },
      { mode: 'head', segment: 'head', isPublic: true },
      { mode: 'pinned', segment: 'rev1' },
      { tables: [] },
    ];
    for (const variant of variants) {
      const result = await validate(structuredClone(build(variant)));
      assert.ok(result.valid, result.valid ? '' : compileErrors(result));
    }
  });

  test('info, servers and tags (§8.1)', () => {
    const doc = build({ mode: 'pinned', segment: 'rev7', revisionId: 'rev7' });
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(doc.info, { title: 'Strata acme/blog/master (rev7)', version: 'rev7' });
    assert.deepEqual(doc.servers, [{ url: '/endpoint/rest/acme/blog/master/rev7' }]);
    assert.deepEqual(
      doc.tags.find((tag) => tag.name === 'posts'),
      { name: 'posts', description: 'Blog posts' },
    );
    assert.deepEqual(
      doc.tags.find((tag) => tag.name === 'sheep'),
      { name: 'sheep' },
    );
  });

  test('draft documents have every route of §7 with the operationIds of §8.4', () => {
    const doc = build();
    const ids = Object.fromEntries(operations(build()).map(([path, method, op]) => [`${method.toUpperCase()} ${path}`, op.operationId]));
    assert.equal(ids['GET /'], 'getEndpoint');
    assert.equal(ids['GET /tables'], 'listTables');
    assert.equal(ids['GET /changes'], 'listChanges');
    assert.equal(ids['GET /changes/tables'], 'listTableChanges');
    assert.equal(ids['GET /tables/posts/schema'], 'getPostSchema');
    assert.equal(ids['GET /tables/posts/rows'], 'listPosts');
    assert.equal(ids['POST /tables/posts/rows'], 'createPost');
    assert.equal(ids['POST /tables/posts/rows/query'], 'queryPosts');
    assert.equal(ids['GET /tables/posts/rows/{rowId}'], 'getPost');
    assert.equal(ids['PUT /tables/posts/rows/{rowId}'], 'updatePost');
    assert.equal(ids['PATCH /tables/posts/rows/{rowId}'], 'patchPost');
    assert.equal(ids['DELETE /tables/posts/rows/{rowId}'], 'deletePost');
    assert.equal(ids['POST /tables/posts/rows/bulk'], 'bulkCreatePosts');
    assert.equal(ids['PUT /tables/posts/rows/bulk'], 'bulkUpdatePosts');
    assert.equal(ids['PATCH /tables/posts/rows/bulk'], 'bulkPatchPosts');
    assert.equal(ids['DELETE /tables/posts/rows/bulk'], 'bulkDeletePosts');
    assert.equal(ids['POST /tables/sheep/rows/bulk'], 'bulkCreateSheepList');
    assert.equal(ids['GET /tables/order-items/schema'], 'getOrderItemSchema');
    // portability.md §1-§2: export and import, named after §8.4's pattern.
    assert.equal(ids['GET /tables/posts/export'], 'exportPosts');
    assert.equal(ids['POST /tables/posts/import'], 'importPosts');
    assert.equal(ids['POST /tables/sheep/import'], 'importSheepList');
    assert.equal(Object.keys(ids).length, 4 + 14 * blogTables.length);
    assert.equal(new Set(Object.values(ids)).size, Object.keys(ids).length);
    assert.ok(doc.components.schemas.BlogCreatePostsRequest);
  });

  test('head and pinned documents contain only GET routes and rows/query', () => {
    for (const mode of ['head', 'pinned'] as const) {
      const doc = build({ mode });
      const all = operations(doc);
      assert.equal(all.length, 4 + 5 * blogTables.length);
      assert.equal(doc.paths['/tables/posts/import'], undefined);
      for (const [path, method] of all) assert.ok(isRead(path, method), `${method} ${path}`);
      assert.equal(doc.paths['/tables/posts/rows/bulk'], undefined);
      assert.equal(doc.components.schemas.BlogCreatePostRequest, undefined);
      assert.equal(doc.components.schemas.BulkResult, undefined);
    }
  });

  test('security: four alternatives; public projects also allow anonymous reads', () => {
    const names = [{ bearerAuth: [] }, { apiKeyHeader: [] }, { apiKeyQuery: [] }, { cookieAuth: [] }];
    const privateDoc = build();
    assert.deepEqual(privateDoc.security, names);
    for (const [, , op] of operations(privateDoc)) assert.equal(op.security, undefined);
    for (const [path, method, op] of operations(build({ isPublic: true }))) {
      assert.deepEqual(op.security, isRead(path, method) ? [...names, {}] : undefined, `${method} ${path}`);
    }
  });

  test('operations document their error responses with the shared Error schema', () => {
    const doc = build() as Doc & { components: { responses: Record<string, { content: unknown }> } };
    const responses = doc.paths['/tables/posts/rows']?.post?.responses ?? {};
    assert.deepEqual(Object.keys(responses), ['201', '400', '401', '403', '404', '409', '415']);
    assert.deepEqual(responses['409'], { $ref: '#/components/responses/Conflict' });
    assert.deepEqual(doc.components.responses.Conflict?.content, { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } });
    assert.deepEqual(Object.keys(doc.paths['/tables/posts/rows/{rowId}']?.get?.responses ?? {}), ['200', '400', '401', '403', '404']);
  });

  test('the table component is a JSON Schema of exactly the accepted row data', () => {
    const schemas = build().components.schemas;
    const post = schemas.BlogPost as { properties: Record<string, Record<string, unknown>> };
    assert.deepEqual(post.properties.author, { type: 'string', default: '', 'x-foreign-key': 'users' });
    assert.equal(post.properties.createdAt?.format, 'date-time');
    assert.equal(post.properties.createdAt?.readOnly, true);
    assert.match(String(post.properties.hash?.description), /row-hash-schema/);
    assert.deepEqual(post.properties.subtitle, { type: 'string', deprecated: true, default: '' });

    const ajv = new Ajv2020({ strict: true, validateFormats: false });
    for (const keyword of ['x-foreign-key', 'x-unique', 'x-index']) ajv.addKeyword(keyword);
    const check = ajv.compile(schemas.BlogOrderItem as object);
    const valid = {
      post: 'p1',
      quantity: 2,
      sku: 'A-1',
      count: 3,
      grams: 2 ** 40,
      price: 9.5,
      gift: false,
      options: [{ name: 'size', value: 'L' }],
      grid: [[1, 2], []],
    };
    assert.equal(check(valid), true);
    assert.equal(check({ ...valid, extra: 1 }), false);
    assert.equal(check({ ...valid, count: 2.5 }), false);
    assert.equal(check({ ...valid, count: 0 }), false);
    assert.equal(check({ ...valid, grams: -1 }), false);
    assert.equal(check({ ...valid, price: 1e7 }), false);
    assert.equal(check({ ...valid, sku: 'x'.repeat(13) }), false);
    assert.equal(check({ ...valid, options: Array.from({ length: 6 }, () => ({ name: 'a', value: 'b' })) }), false);
    assert.equal(check({ ...valid, options: [{ name: 'size' }] }), false);
    assert.equal(check({ ...valid, grid: [['x']] }), false);
  });

  test('examples: every one Swagger UI would send is valid for its schema (bodies, parameters)', () => {
    for (const mode of ['draft', 'head'] as const) {
      const doc = build({
        mode,
        exampleRowIds: new Map([
          ['users', 'u1'],
          ['posts', 'p1'],
        ]),
      });
      const ajv = new Ajv2020({ strict: false, validateFormats: false });
      ajv.addSchema({ ...doc, $id: 'https://strata.test/openapi.json' } as object);
      const check = (pointer: string, value: unknown, where: string) => {
        const validate = ajv.compile({ $ref: `https://strata.test/openapi.json#${pointer}` });
        assert.equal(validate(value), true, `${where}: ${JSON.stringify(validate.errors)}`);
      };
      const escape = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');
      let bodies = 0;
      for (const [path, method, op] of operations(doc)) {
        const at = `/paths/${escape(path)}/${method}`;
        const { requestBody, parameters = [] } = op as Operation & {
          requestBody?: { content: Record<string, { example?: unknown }> };
          parameters?: { name: string; example?: unknown; content?: Record<string, { example?: unknown }> }[];
        };
        const media = requestBody?.content['application/json'];
        if (media !== undefined) {
          assert.ok(media.example !== undefined, `${method} ${path}: a body example`);
          check(`${at}/requestBody/content/application~1json/schema`, media.example, `${method} ${path} body`);
          bodies++;
        }
        parameters.forEach((parameter, i) => {
          if (parameter.example !== undefined) check(`${at}/parameters/${i}/schema`, parameter.example, `${method} ${path} ${parameter.name}`);
          const inContent = parameter.content?.['application/json'];
          if (inContent !== undefined) {
            assert.ok(inContent.example !== undefined, `${method} ${path} ${parameter.name}: an example`);
            check(`${at}/parameters/${i}/content/application~1json/schema`, inContent.example, `${method} ${path} ${parameter.name}`);
          }
        });
      }
      assert.ok(bodies > 0, 'rows/query has a body in every mode');
    }
  });

  test('examples name rows the caller can read; writes act on example rows of their own', () => {
    const doc = build({
      exampleRowIds: new Map([
        ['users', 'u1'],
        ['posts', 'p1'],
      ]),
    }) as Doc & { paths: Record<string, Record<string, Record<string, any>>> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- document JSON
    const body = (path: string, method: string) => doc.paths[path]?.[method]?.requestBody.content['application/json'].example;
    const rowIdOf = (path: string, method: string) => doc.paths[path]?.[method]?.parameters[0].example;
    // A foreign key names a row of its table; without one (categories has none here) it keeps the default.
    assert.equal(body('/tables/posts/rows', 'post').data.author, 'u1');
    assert.deepEqual(body('/tables/posts/rows', 'post').data.categories, []);
    assert.equal(body('/tables/order-items/rows', 'post').data.post, 'p1');
    assert.equal(body('/tables/HTMLPages/rows', 'post').data.settings, '');
    assert.equal(body('/tables/posts/rows', 'post').id, 'example-row');
    assert.equal(rowIdOf('/tables/posts/rows/{rowId}', 'get'), 'p1');
    assert.equal(rowIdOf('/tables/categories/rows/{rowId}', 'get'), 'example-row');
    for (const method of ['put', 'patch', 'delete']) assert.equal(rowIdOf('/tables/posts/rows/{rowId}', method), 'example-row');
    assert.deepEqual(body('/tables/posts/rows/bulk', 'delete'), { ids: ['example-row-2'] });
    assert.deepEqual(body('/tables/posts/rows/{rowId}', 'patch'), { patches: [{ op: 'replace', path: '/title', value: '' }] });
    assert.equal(doc.paths['/changes']?.get?.parameters[0].example, 'rev1');
  });
});
