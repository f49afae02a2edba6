// Issue 31 item 5: Swagger UI's "Try it out" → "Execute" must succeed with what it fills in, for every operation of
// a generated REST endpoint's OpenAPI document (head and draft). Swagger UI's own code fills and sends each request
// (support/swaggerHeadless.ts) against the real server; the documents' examples are what make that work: `where`
// once got a sample with every filter (400 Invalid /where/AND/0), bodies random strings and "" foreign keys.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { GeneratedSystem } from './support/generatedHarness.ts';
import { endpointUrl, ok, posts, startBlogSystem, authors, type Project } from './support/generatedFixtures.ts';
import { openHeadlessSwagger, type SwaggerExecution, type SwaggerOperation } from './support/swaggerHeadless.ts';

let sys: GeneratedSystem;
let admin = '';
let blog: Project;

/** Comments: no rows yet (reads of one row and writes then use the example row), a foreign key, a nested object. */
const commentsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['post', 'text', 'meta'],
  properties: {
    post: { type: 'string', default: '', foreignKey: 'posts' },
    text: { type: 'string', default: '' },
    meta: { type: 'object', additionalProperties: false, required: ['likes'], properties: { likes: { type: 'number', default: 0 } } },
  },
};

before(async () => {
  ({ sys, admin, blog } = await startBlogSystem());
  ok(await sys.api(admin, 'POST', `/revision/${blog.draftRevisionId}/tables`, { tableId: 'comments', schema: commentsSchema }), 201);
});
after(() => sys.close());

type Outcome = { readonly operation: SwaggerOperation; readonly run: SwaggerExecution };

/** Every operation in document order (the order Swagger UI lists them in), executed with Swagger UI's defaults. */
async function tryEveryOperation(segment: string): Promise<Outcome[]> {
  const base = endpointUrl('rest', blog, segment);
  const document = ok(await sys.call('GET', `${base}/openapi.json`, { token: admin })).body;
  const swagger = await openHeadlessSwagger(`${sys.url}${base}/docs`, document, { bearer: admin });
  const outcomes: Outcome[] = [];
  for (const operation of swagger.operations) outcomes.push({ operation, run: await swagger.execute(operation) });
  return outcomes;
}

function assertAllSucceeded(outcomes: readonly Outcome[]): void {
  const failed = outcomes
    .filter(({ run }) => run.refused !== null || run.status === null || run.status >= 300)
    .map(({ operation, run }) => `${operation.operationId}: ${run.refused ?? run.status} ${JSON.stringify(run.body)}`);
  assert.deepEqual(failed, []);
}

const byId = (outcomes: readonly Outcome[], operationId: string): SwaggerExecution => {
  const found = outcomes.find((outcome) => outcome.operation.operationId === operationId);
  assert.ok(found, operationId);
  return found.run;
};

describe('Swagger UI defaults on generated REST endpoints', () => {
  test('head: every operation succeeds with what Swagger UI fills in', async () => {
    const outcomes = await tryEveryOperation('head');
    assert.deepEqual(
      outcomes.map(({ operation }) => operation.operationId),
      [
        'getEndpoint',
        'listTables',
        'listChanges',
        'listTableChanges',
        'getAuthorSchema',
        'listAuthors',
        'queryAuthors',
        'getAuthor',
        'exportAuthors',
        'getPostSchema',
        'listPosts',
        'queryPosts',
        'getPost',
        'exportPosts',
      ],
    );
    assertAllSucceeded(outcomes);
    // The list of the issue: `where` is the example `{}`, not a sample with every filter; the row read exists.
    const list = byId(outcomes, 'listAuthors');
    assert.equal(new URL(list.request?.url ?? '').searchParams.get('where'), '{}');
    assert.equal((list.body as { edges: unknown[] }).edges.length, authors.length);
    assert.equal((byId(outcomes, 'getPost').body as { id: string }).id, posts[0]?.id);
  });

  test('draft: every operation succeeds in document order, and the writes only touch their example rows', async () => {
    const before = ok(await sys.call('GET', `${endpointUrl('rest', blog, 'draft')}/tables/posts/rows?first=100`, { token: admin })).body;
    const outcomes = await tryEveryOperation('draft');
    assertAllSucceeded(outcomes);
    const ids = outcomes.map(({ operation }) => operation.operationId);
    for (const write of [
      'createComment',
      'bulkCreateComments',
      'bulkUpdateComments',
      'bulkPatchComments',
      'bulkDeleteComments',
      'updateComment',
      'patchComment',
      'deleteComment',
    ]) {
      assert.ok(ids.includes(write), write);
    }
    // A comment's example names a real post; the empty table's row read found the row its create example made.
    const created = byId(outcomes, 'createComment').body as { id: string; data: { post: string } };
    assert.deepEqual([created.id, created.data.post], ['example-row', posts[0]?.id]);
    assert.equal((byId(outcomes, 'getComment').body as { id: string }).id, 'example-row');
    assert.equal((byId(outcomes, 'getAuthor').body as { id: string }).id, authors[0]?.id);
    // The import's example is a CSV row of example data (a real post for the foreign key), tried as a dry run.
    const imported = byId(outcomes, 'importComments');
    assert.deepEqual(imported.body, { processed: 1, created: 1, updated: 0, unchanged: 0, removed: 0, invalid: 0, errors: [], dryRun: true });
    assert.match(String(imported.request?.url), /dryRun=true/);
    assert.match(byId(outcomes, 'exportPosts').body as string, new RegExp(`"id":"${posts[0]?.id}"`));
    const after = ok(await sys.call('GET', `${endpointUrl('rest', blog, 'draft')}/tables/posts/rows?first=100`, { token: admin })).body;
    assert.deepEqual(
      after.edges.map((e: { node: unknown }) => e.node),
      before.edges.map((e: { node: unknown }) => e.node),
    );
  });
});
