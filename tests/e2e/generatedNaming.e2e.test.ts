import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN_PASSWORD, startGeneratedSystem, type GeneratedSystem } from './support/generatedHarness.ts';
import { nameOnlySchema, projectWithTables, schemaNames } from './support/generatedFixtures.ts';

// generated-api.md §2.3: every worked example, read back from the served schemas by introspection.
const text = { type: 'string', default: '' };
const object = (properties: Record<string, unknown>) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});
const usersSchema = object({ shipping_address: object({ street: text }), lines: { type: 'array', items: object({ sku: text }) } });

const projects: Record<string, readonly (readonly [string, unknown])[]> = {
  blog: [
    ...['posts', 'categories', 'sheep', 'order_items', 'userProfiles', 'HTMLPages', 'data', '_2fa_codes', '__'].map(
      (id) => [id, nameOnlySchema] as const,
    ),
    ['users', usersSchema],
  ],
  // Collisions need their own project: `order-items` is older than `order_items`.
  blogs: ['order-items', 'order_items', 'person', 'people', 'bulk_results'].map((id) => [id, nameOnlySchema] as const),
  'my-shop': [['order_items', nameOnlySchema]],
  _2024: [['posts', nameOnlySchema]],
};

const expected: Record<string, { types: string[]; queries?: string[]; mutations?: string[] }> = {
  blog: {
    types: [
      'BlogPost',
      'BlogPostNode',
      'BlogPostConnection',
      'BlogCategoryFlat',
      'BlogSheep',
      'BlogCreateSheepListInput',
      'BlogOrderItemNode',
      'BlogUserProfile',
      'BlogHtmlPage',
      'BlogDatum',
      'Blog2faCode',
      'Blog_',
      'Blog_Node',
      'BlogUserShippingAddress',
      'BlogUserShippingAddressFlat',
      'BlogUserLinesItem',
      'BlogUserLinesItemFlat',
      'BlogDeleteResult',
      'BlogBulkResult',
      'PageInfo',
    ],
    queries: ['posts', 'post', 'postFlat', 'postsFlat', 'categoriesFlat', 'sheepList', '_2faCodes', 'data', 'datum', '_service', '_entities'],
    mutations: ['createPost', 'createPosts', 'createSheepList', 'updateOrderItems', 'create2faCode', 'deletePosts'],
  },
  blogs: {
    types: ['BlogPerson', 'BlogPeople', 'BlogOrder_itemsNode', 'BlogOrder_items2Node', 'BlogBulk_results'],
    queries: ['person', 'personList', 'people', 'peopleList', 'order_items', 'order_items2', 'bulk_results'],
  },
  'my-shop': { types: ['MyShopOrderItem', 'MyShopOrderItemNode'], queries: ['orderItems'] },
  _2024: { types: ['_2024Post', '_2024PostNode'], queries: ['posts'] },
};

describe('generated names (generated-api.md §2.3) in the served schemas', () => {
  let sys: GeneratedSystem;
  let admin: string;
  before(async () => {
    sys = await startGeneratedSystem();
    admin = await sys.login('admin', ADMIN_PASSWORD);
    for (const [project, tables] of Object.entries(projects)) await projectWithTables(sys, admin, 'acme', project, tables);
  });
  after(() => sys.close());

  for (const [project, names] of Object.entries(expected)) {
    test(`project ${project}`, async () => {
      const served = await schemaNames(sys, `/endpoint/graphql/acme/${project}/master/draft`, admin);
      for (const type of names.types) assert.ok(served.types.has(type), `type ${type} in ${[...served.types].join(', ')}`);
      for (const field of names.queries ?? []) assert.ok(served.queries.has(field), `Query.${field} in ${[...served.queries].join(', ')}`);
      for (const field of names.mutations ?? []) assert.ok(served.mutations.has(field), `Mutation.${field}`);
    });
  }
});
