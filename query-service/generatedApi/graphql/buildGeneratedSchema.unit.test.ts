import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execute, parse, specifiedRules, validate, type ExecutionResult } from 'graphql';
import { isAppError, type JsonObject } from '../../../contracts/index.ts';
import { blogTables } from '../../testing/blogFixture.ts';
import { buildGeneratedSchema, type GeneratedSchema } from './buildGeneratedSchema.ts';
import { createFakeDataSource, fakeRow, type FakeDataSource, type FakeRequest } from '../../testing/fakeDataSource.ts';

const user = (id: string, name: string): JsonObject => ({
  id,
  name,
  email: `${id}@example.com`,
  shipping_address: { street: 'Main', city: 'Paris', geo: { lat: 1, lng: 2 } },
  profile: { theme: 'dark' },
  updated: '2025-03-01T09:30:00.000Z',
});
const post = (author: string, categories: string[]): JsonObject => ({
  title: 'Hi',
  subtitle: '',
  views: 3,
  published: true,
  author,
  categories,
  tags: ['news'],
  status: 'live',
  createdAt: '2025-03-01T09:30:00.000Z',
  hash: 'abc',
});

function fixtureSource(): FakeDataSource {
  return createFakeDataSource({
    users: [fakeRow('u1', user('u1', 'Ann')), fakeRow('u2', user('u2', 'Bob'))],
    categories: [fakeRow('c1', { name: 'News', slug: 'news' }), fakeRow('c2', { name: 'Tech', slug: 'tech' })],
    posts: [fakeRow('p1', post('u1', ['c1', 'c2'])), fakeRow('p2', post('u2', [])), fakeRow('p3', post('u1', ['c2'])), fakeRow('p4', post('u9', []))],
    'order-items': [fakeRow('o1', { post: 'p1', quantity: 2, options: [{ name: 'size', value: 'L' }], grid: [[1, 2]] })],
  });
}

function build(mode: 'head' | 'draft' | 'pinned', source = fixtureSource(), rootFieldPrefix = false) {
  return { built: buildGeneratedSchema({ projectName: 'blog', mode, tables: blogTables, rootFieldPrefix, dataSource: source }), source };
}

async function run(built: GeneratedSchema<FakeRequest>, query: string): Promise<ExecutionResult> {
  const document = parse(query);
  const errors = validate(built.schema, document, [...specifiedRules, ...built.validationRules]);
  assert.deepEqual(errors, [], 'the document is valid');
  return execute({ schema: built.schema, document, contextValue: built.createContext({ user: 'ann' }) });
}

describe('buildGeneratedSchema: shape', () => {
  test('head and pinned schemas have no Mutation type and reject mutation documents in validation', () => {
    for (const mode of ['head', 'pinned'] as const) {
      const { built } = build(mode);
      assert.equal(built.schema.getMutationType(), undefined);
      const rules = [...specifiedRules, ...built.validationRules];
      const errors = validate(built.schema, parse('mutation { createPost(data: { id: "x", data: {} }) { id } }'), rules);
      assert.equal(errors.length, 1);
      assert.match(errors[0]?.message ?? '', /Schema is not configured to execute mutation operation/);
    }
  });

  test('draft schemas have every mutation of §5.1', () => {
    const mutation = build('draft').built.schema.getMutationType();
    const fields = Object.keys(mutation?.getFields() ?? {});
    for (const name of ['createPost', 'updatePost', 'patchPost', 'deletePost', 'createPosts', 'updatePosts', 'patchPosts', 'deletePosts']) {
      assert.ok(fields.includes(name), name);
    }
    assert.ok(fields.includes('createSheepList'));
  });

  test('tables without properties are omitted; FKs to them stay raw ids', () => {
    const { schema } = build('draft').built;
    assert.equal(schema.getType('BlogSetting'), undefined);
    assert.equal(schema.getQueryType()?.getFields().setting, undefined);
    assert.equal(
      String((schema.getType('BlogHtmlPage') as { getFields(): Record<string, { type: unknown }> }).getFields().settings?.type),
      'String!',
    );
  });

  test('_service { sdl } is the returned SDL, with the federation link and keys', async () => {
    const { built } = build('head');
    const result = await run(built, '{ _service { sdl } }');
    assert.equal((result.data?._service as { sdl: string }).sdl, built.sdl);
    assert.match(built.sdl, /@link\(url: "https:\/\/specs\.apollo\.dev\/federation\/v2\.3", import: \["@key", "@shareable"\]\)/);
    assert.match(built.sdl, /type BlogPostNode\s+@key\(fields: "id"\)/);
    assert.match(built.sdl, /type PageInfo\s+@shareable/);
  });

  test('a project without GraphQL tables has only _changes and _service', () => {
    const built = buildGeneratedSchema({ projectName: 'blog', mode: 'draft', tables: [], rootFieldPrefix: false, dataSource: fixtureSource() });
    assert.deepEqual(Object.keys(built.schema.getQueryType()?.getFields() ?? {}).sort(), ['_changes', '_service']);
    assert.equal(built.schema.getMutationType(), undefined);
  });

  test('GRAPHQL_ROOT_FIELD_PREFIX prefixes root fields but not _service/_entities', () => {
    const { schema } = build('draft', fixtureSource(), true).built;
    const query = Object.keys(schema.getQueryType()?.getFields() ?? {});
    assert.ok(query.includes('blogPost') && query.includes('blogPosts') && query.includes('blogPostsFlat'));
    assert.ok(query.includes('_service') && query.includes('_entities'));
    const mutation = Object.keys(schema.getMutationType()?.getFields() ?? {});
    assert.ok(mutation.includes('createBlogPost') && mutation.includes('deleteBlogPosts'));
  });
});

describe('buildGeneratedSchema: resolvers', () => {
  test('a row with FK fields resolved to the referenced rows and the raw ids in json', async () => {
    const { built } = build('head');
    const result = await run(
      built,
      '{ post(id: "p1") { id readonly json data { title author { name shipping_address { geo { lat } } } categories { slug } } } }',
    );
    assert.equal(result.errors, undefined);
    assert.deepEqual(JSON.parse(JSON.stringify(result.data)), {
      post: {
        id: 'p1',
        readonly: false,
        json: post('u1', ['c1', 'c2']),
        data: { title: 'Hi', author: { name: 'Ann', shipping_address: { geo: { lat: 1 } } }, categories: [{ slug: 'news' }, { slug: 'tech' }] },
      },
    });
  });

  test('FK ids of one table are loaded in one batch per execution step', async () => {
    const { built, source } = build('head');
    const result = await run(built, '{ posts(data: { first: 3 }) { edges { node { data { author { name } categories { name } } } } } }');
    assert.equal(result.errors, undefined);
    const loads = source.callsOf('loadRowsByIds');
    assert.deepEqual(loads.map((call) => [call.tableId, call.args]).sort(), [
      ['categories', ['c1', 'c2']],
      ['users', ['u1', 'u2']],
    ]);
  });

  test('totalCount is asked for only when selected (directly or through fragments)', async () => {
    const { built, source } = build('head');
    await run(built, '{ posts { edges { cursor } } }');
    await run(built, '{ posts(data: { first: 1 }) { totalCount } }');
    await run(built, '{ postsFlat { ...Count } } fragment Count on BlogPostFlatConnection { ... on BlogPostFlatConnection { totalCount } }');
    assert.deepEqual(
      source.callsOf('listRows').map((call) => (call.args as { wantTotalCount: boolean }).wantTotalCount),
      [false, true, true],
    );
    assert.deepEqual((source.callsOf('listRows')[1]?.args as { args: unknown }).args, { first: 1 });
  });

  test('list arguments reach the data source as plain JSON', async () => {
    const { built, source } = build('head');
    await run(
      built,
      '{ posts(data: { where: { data: { path: ["views"], gte: 10 } }, orderBy: { data: { path: "views", direction: desc, type: float } } }) { pageInfo { hasNextPage } } }',
    );
    const args = (source.callsOf('listRows')[0]?.args as { args: Record<string, unknown> }).args;
    assert.deepEqual(args, {
      where: { data: { path: ['views'], gte: 10, mode: 'default' } },
      orderBy: [{ data: { path: ['views'], direction: 'desc', type: 'float' } }],
    });
    assert.equal(Object.getPrototypeOf(args.where), Object.prototype);
  });

  test('Flat reads resolve FKs to the referenced Flat types', async () => {
    const { built } = build('head');
    const result = await run(built, '{ orderItemFlat(id: "o1") { post { title author { name } } options { name } grid } }');
    assert.equal(result.errors, undefined);
    assert.deepEqual(JSON.parse(JSON.stringify(result.data)), {
      orderItemFlat: { post: { title: 'Hi', author: { name: 'Ann' } }, options: [{ name: 'size' }], grid: [[1, 2]] },
    });
  });

  test('missing rows and dangling references fail with ROW_NOT_FOUND', async () => {
    const { built } = build('head');
    const missing = await run(built, '{ post(id: "nope") { id } }');
    assert.equal(missing.data, null);
    assert.ok(isAppError(missing.errors?.[0]?.originalError, 'ROW_NOT_FOUND'));
    const dangling = await run(built, '{ post(id: "p4") { id data { author { name } } } }');
    assert.equal(dangling.data, null);
    assert.ok(isAppError(dangling.errors?.[0]?.originalError, 'ROW_NOT_FOUND'));
    assert.deepEqual(dangling.errors?.[0]?.path, ['post', 'data', 'author']);
  });

  test('_entities resolves representations through the loaders (null when absent)', async () => {
    const { built, source } = build('head');
    const result = await run(
      built,
      '{ _entities(representations: [{ __typename: "BlogPostNode", id: "p1" }, { __typename: "BlogPostNode", id: "zz" }, { __typename: "BlogUserNode", id: "u2" }]) { ... on BlogPostNode { id data { title } } ... on BlogUserNode { data { name } } } }',
    );
    assert.equal(result.errors, undefined);
    assert.deepEqual(JSON.parse(JSON.stringify(result.data)), {
      _entities: [{ id: 'p1', data: { title: 'Hi' } }, null, { data: { name: 'Bob' } }],
    });
    assert.deepEqual(source.callsOf('loadRowsByIds').find((call) => call.tableId === 'posts')?.args, ['p1', 'zz']);
  });

  test('draft mutations call the data source with plain inputs', async () => {
    const { built, source } = build('draft');
    const result = await run(
      built,
      `mutation {
        createPost(data: { id: "new", data: { title: "T", author: "u1", categories: [] } }) { id data { author { name } } }
        patchPost(data: { id: "p1", patches: [{ op: replace, path: "title", value: "X" }] }) { id }
        deletePost(id: "p2") { id success }
        deletePosts(data: { ids: ["p1", "p3"] }) { success count }
        createSheepList(data: { rows: [{ id: "s1", data: { name: "Dolly", flock: [] } }] }) { count }
      }`,
    );
    assert.equal(result.errors, undefined);
    assert.deepEqual(JSON.parse(JSON.stringify(result.data)), {
      createPost: { id: 'new', data: { author: { name: 'Ann' } } },
      patchPost: { id: 'p1' },
      deletePost: { id: 'p2', success: true },
      deletePosts: { success: true, count: 2 },
      createSheepList: { count: 1 },
    });
    assert.deepEqual(source.callsOf('createRow')[0], {
      method: 'createRow',
      tableId: 'posts',
      args: { id: 'new', data: { title: 'T', author: 'u1', categories: [] } },
    });
    assert.deepEqual(source.callsOf('patchRow')[0]?.args, { id: 'p1', patches: [{ op: 'replace', path: 'title', value: 'X' }] });
    assert.deepEqual(source.callsOf('deleteRows')[0]?.args, ['p1', 'p3']);
    assert.equal(source.callsOf('createRows')[0]?.tableId, 'sheep');
  });
});
