import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { composeServices } from '@apollo/composition';
import { ApolloGateway, LocalGraphQLDataSource, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { ADMIN_PASSWORD, startGeneratedSystem, type GeneratedSystem } from './support/generatedHarness.ts';
import { data, gql, nameOnlySchema, projectWithTables, seedProject, schemaNames } from './support/generatedFixtures.ts';

// Generated schemas are Apollo Federation 2 subgraphs (generated-api.md §6): their SDLs, read over HTTP, compose,
// and a gateway in this process serves them, resolving an entity through `_entities` of a generated endpoint.
let sys: GeneratedSystem;
let admin: string;

before(async () => {
  sys = await startGeneratedSystem();
  admin = await sys.login('admin', ADMIN_PASSWORD);
  await seedProject(sys, admin, 'acme', 'blog');
  await projectWithTables(sys, admin, 'acme', 'shop', [['products', nameOnlySchema]]);
});
after(() => sys.close());

async function sdlOf(system: GeneratedSystem, token: string, path: string): Promise<string> {
  return data(await gql(system, path, '{ _service { sdl } }', token))._service.sdl as string;
}

/** A local subgraph that knows posts by id only: the gateway asks the blog endpoint for the rest (`_entities`). */
const FEATURED_SDL = `extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
  type BlogPostNode @key(fields: "id") { id: String! featuredRank: Int! }
  type Query { featuredPost: BlogPostNode! }`;
const featured = buildSubgraphSchema({
  typeDefs: parse(FEATURED_SDL),
  resolvers: {
    Query: { featuredPost: () => ({ id: 'p3', featuredRank: 1 }) },
    BlogPostNode: { __resolveReference: (ref: { id: string }) => ({ id: ref.id, featuredRank: 1 }) },
  },
});

describe('federation', () => {
  test('two projects compose; a gateway serves both and resolves an entity through a generated endpoint', async () => {
    const services = [
      {
        name: 'blog',
        url: `${sys.url}/endpoint/graphql/acme/blog/master/head`,
        typeDefs: parse(await sdlOf(sys, admin, '/endpoint/graphql/acme/blog/master/head')),
      },
      {
        name: 'shop',
        url: `${sys.url}/endpoint/graphql/acme/shop/master/draft`,
        typeDefs: parse(await sdlOf(sys, admin, '/endpoint/graphql/acme/shop/master/draft')),
      },
    ];
    assert.deepEqual(
      (composeServices(services).errors ?? []).map((e) => e.message),
      [],
    );
    const composed = composeServices([...services, { name: 'featured', url: 'local:featured', typeDefs: parse(FEATURED_SDL) }]);
    assert.deepEqual(
      (composed.errors ?? []).map((e) => e.message),
      [],
    );

    const gateway = new ApolloGateway({
      supergraphSdl: composed.supergraphSdl as string,
      buildService: ({ url }) =>
        url === 'local:featured'
          ? new LocalGraphQLDataSource(featured)
          : new RemoteGraphQLDataSource({
              url: url as string,
              willSendRequest: ({ request }) => void request.http?.headers.set('authorization', `Bearer ${admin}`),
            }),
    });
    const server = new ApolloServer({ gateway });
    await server.start();
    try {
      const result = await server.executeOperation({
        query: `{ featuredPost { id featuredRank data { title author { name } } }
                  posts(data: { first: 1, orderBy: [{ id: asc }] }) { edges { node { id } } }
                  products { totalCount } }`,
      });
      assert.equal(result.body.kind, 'single');
      const single = result.body.kind === 'single' ? result.body.singleResult : null;
      assert.equal(single?.errors, undefined, JSON.stringify(single?.errors));
      assert.deepEqual(JSON.parse(JSON.stringify(single?.data)), {
        featuredPost: { id: 'p3', featuredRank: 1, data: { title: 'Post C', author: { name: 'Carol' } } },
        posts: { edges: [{ node: { id: 'p1' } }] },
        products: { totalCount: 0 },
      });
    } finally {
      await server.stop();
    }
  });

  test('projects sharing table ids compose with GRAPHQL_ROOT_FIELD_PREFIX', async () => {
    const prefixed = await startGeneratedSystem({ rootFieldPrefix: true });
    try {
      const token = await prefixed.login('admin', ADMIN_PASSWORD);
      await seedProject(prefixed, token, 'acme', 'blog');
      await seedProject(prefixed, token, 'acme', 'news');
      const names = await schemaNames(prefixed, '/endpoint/graphql/acme/blog/master/draft', token);
      for (const field of ['blogPost', 'blogPosts', 'blogPostsFlat', '_service', '_entities']) assert.ok(names.queries.has(field), field);
      for (const field of ['createBlogPost', 'deleteBlogPosts']) assert.ok(names.mutations.has(field), field);
      const services = await Promise.all(
        ['blog', 'news'].map(async (project) => {
          const path = `/endpoint/graphql/acme/${project}/master/head`;
          return { name: project, url: `${prefixed.url}${path}`, typeDefs: parse(await sdlOf(prefixed, token, path)) };
        }),
      );
      assert.deepEqual(
        (composeServices(services).errors ?? []).map((e) => e.message),
        [],
      );
    } finally {
      await prefixed.close();
    }
  });
});
