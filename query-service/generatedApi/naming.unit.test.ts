import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTableModel, type PropertySchema, type TableSchema } from '../../contracts/index.ts';
import { computeNames, projectPrefix, type GeneratedTable, type TableNames } from './naming.ts';
import { splitWords } from './nameWords.ts';

const text = { type: 'string', default: '' } as const;

function objectSchema(properties: Readonly<Record<string, PropertySchema>>): TableSchema {
  return { type: 'object', additionalProperties: false, required: Object.keys(properties), properties };
}

function table(id: string, minute = 0, properties: Readonly<Record<string, PropertySchema>> = { title: text }): GeneratedTable {
  const createdAt = `2025-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
  return { id, createdAt, model: compileTableModel(objectSchema(properties)) };
}

function namesOf(project: string, tables: readonly GeneratedTable[], id: string, rootFieldPrefix = false): TableNames {
  const names = computeNames(project, tables, { rootFieldPrefix }).tables.get(id);
  assert.ok(names, `names for ${id}`);
  return names;
}

function base(names: TableNames): string[] {
  return [names.mode, names.T, names.Ts, names.s, names.pl];
}

describe('splitWords', () => {
  test('splits runs, camel humps and acronyms; keeps digits in words', () => {
    assert.deepEqual(splitWords('userProfiles'), ['user', 'profiles']);
    assert.deepEqual(splitWords('HTMLPages'), ['html', 'pages']);
    assert.deepEqual(splitWords('order-items'), ['order', 'items']);
    assert.deepEqual(splitWords('_2fa_codes'), ['2fa', 'codes']);
    assert.deepEqual(splitWords('my shop v2Api'), ['my', 'shop', 'v2', 'api']);
    assert.deepEqual(splitWords('__'), []);
  });
});

describe('projectPrefix', () => {
  test('is the singular Pascal form, `_` before a digit and without words', () => {
    assert.equal(projectPrefix('blog'), 'Blog');
    assert.equal(projectPrefix('blogs'), 'Blog');
    assert.equal(projectPrefix('my-shop'), 'MyShop');
    assert.equal(projectPrefix('_2024'), '_2024');
    assert.equal(projectPrefix('_'), '_');
  });
});

describe('computeNames: worked examples of generated-api.md §2.3', () => {
  test('blog/posts', () => {
    const n = namesOf('blog', [table('posts')], 'posts');
    assert.deepEqual(base(n), ['normal', 'Post', 'Posts', 'post', 'posts']);
    assert.equal(n.types.entity, 'BlogPost');
    assert.equal(n.types.node, 'BlogPostNode');
    assert.equal(n.types.connection, 'BlogPostConnection');
    assert.equal(n.types.getInput, 'BlogGetPostsInput');
    assert.equal(n.types.whereInput, 'BlogPostsWhereInput');
    assert.equal(n.types.orderByInput, 'BlogPostsOrderByInput');
    assert.equal(n.rootFields.one, 'post');
    assert.equal(n.rootFields.many, 'posts');
    assert.equal(n.rootFields.create, 'createPost');
    assert.equal(n.rootFields.createMany, 'createPosts');
    assert.equal(n.operationIds.list, 'listPosts');
    assert.equal(n.operationIds.get, 'getPost');
    assert.equal(n.components.row, 'BlogPostRow');
    assert.equal(n.components.createRequest, 'BlogCreatePostRequest');
    assert.equal(n.components.deleteManyRequest, 'BlogDeletePostsRequest');
  });

  test('blog/categories', () => {
    const n = namesOf('blog', [table('categories')], 'categories');
    assert.deepEqual(base(n), ['normal', 'Category', 'Categories', 'category', 'categories']);
    assert.equal(n.types.flat, 'BlogCategoryFlat');
    assert.equal(n.rootFields.manyFlat, 'categoriesFlat');
  });

  test('blog/sheep', () => {
    const n = namesOf('blog', [table('sheep')], 'sheep');
    assert.deepEqual(base(n), ['normal', 'Sheep', 'SheepList', 'sheep', 'sheepList']);
    assert.equal(n.types.entity, 'BlogSheep');
    assert.equal(n.rootFields.many, 'sheepList');
    assert.equal(n.rootFields.createMany, 'createSheepList');
    assert.equal(n.types.createManyInput, 'BlogCreateSheepListInput');
    assert.equal(n.operationIds.bulkCreate, 'bulkCreateSheepList');
  });

  test('blog/order_items', () => {
    const n = namesOf('blog', [table('order_items')], 'order_items');
    assert.deepEqual(base(n), ['normal', 'OrderItem', 'OrderItems', 'orderItem', 'orderItems']);
    assert.equal(n.types.node, 'BlogOrderItemNode');
    assert.equal(n.rootFields.updateMany, 'updateOrderItems');
    assert.equal(n.operationIds.getSchema, 'getOrderItemSchema');
  });

  test('blog/userProfiles, HTMLPages and data', () => {
    const tables = [table('userProfiles'), table('HTMLPages'), table('data')];
    const profiles = namesOf('blog', tables, 'userProfiles');
    assert.deepEqual(base(profiles), ['normal', 'UserProfile', 'UserProfiles', 'userProfile', 'userProfiles']);
    assert.equal(profiles.types.entity, 'BlogUserProfile');
    const pages = namesOf('blog', tables, 'HTMLPages');
    assert.deepEqual(base(pages), ['normal', 'HtmlPage', 'HtmlPages', 'htmlPage', 'htmlPages']);
    assert.equal(pages.types.entity, 'BlogHtmlPage');
    const data = namesOf('blog', tables, 'data');
    assert.deepEqual(base(data), ['normal', 'Datum', 'Data', 'datum', 'data']);
    assert.equal(data.types.entity, 'BlogDatum');
  });

  test('blog/_2fa_codes: field names starting with a digit get `_`', () => {
    const n = namesOf('blog', [table('_2fa_codes')], '_2fa_codes');
    assert.deepEqual(base(n), ['normal', '2faCode', '2faCodes', '_2faCode', '_2faCodes']);
    assert.equal(n.types.entity, 'Blog2faCode');
    assert.equal(n.rootFields.many, '_2faCodes');
    assert.equal(n.rootFields.create, 'create2faCode');
  });

  test('blog/__: fallback without words', () => {
    const n = namesOf('blog', [table('__')], '__');
    assert.deepEqual(base(n), ['fallback', '_', '_List', '_', '_List']);
    assert.equal(n.types.entity, 'Blog_');
    assert.equal(n.types.node, 'Blog_Node');
  });

  test('blog/person and people: same names, both fallback', () => {
    const tables = [table('person', 1), table('people', 2)];
    assert.deepEqual(base(namesOf('blog', tables, 'person')), ['fallback', 'Person', 'PersonList', 'person', 'personList']);
    assert.deepEqual(base(namesOf('blog', tables, 'people')), ['fallback', 'People', 'PeopleList', 'people', 'peopleList']);
    assert.equal(namesOf('blog', tables, 'person').types.entity, 'BlogPerson');
    assert.equal(namesOf('blog', tables, 'people').types.entity, 'BlogPeople');
  });

  test('blog/order-items (older) and order_items: fallback, then a suffix for the newer', () => {
    // Given in the other order: creation order decides.
    const tables = [table('order_items', 5), table('order-items', 1)];
    const older = namesOf('blog', tables, 'order-items');
    const newer = namesOf('blog', tables, 'order_items');
    assert.deepEqual(base(older), ['fallback', 'Order_items', 'Order_itemsList', 'order_items', 'order_itemsList']);
    assert.deepEqual(base(newer), ['fallback', 'Order_items2', 'Order_items2List', 'order_items2', 'order_items2List']);
    assert.equal(newer.types.node, 'BlogOrder_items2Node');
    assert.deepEqual([...computeNames('blog', tables, { rootFieldPrefix: false }).tables.keys()], ['order-items', 'order_items']);
  });

  test('same creation time: the id decides the order', () => {
    const tables = [table('order_items', 1), table('order-items', 1)];
    assert.equal(namesOf('blog', tables, 'order-items').T, 'Order_items');
    assert.equal(namesOf('blog', tables, 'order_items').T, 'Order_items2');
  });

  test('blog/bulk_results: BlogBulkResult is reserved', () => {
    const n = namesOf('blog', [table('bulk_results')], 'bulk_results');
    assert.deepEqual(base(n), ['fallback', 'Bulk_results', 'Bulk_resultsList', 'bulk_results', 'bulk_resultsList']);
    assert.equal(n.types.entity, 'BlogBulk_results');
  });

  test('tables and endpoints meet the reserved operationIds', () => {
    const tables = [table('tables'), table('endpoints')];
    assert.equal(namesOf('blog', tables, 'tables').mode, 'fallback');
    assert.equal(namesOf('blog', tables, 'tables').operationIds.list, 'listTablesList');
    assert.equal(namesOf('blog', tables, 'endpoints').mode, 'fallback');
  });

  test('blogs/posts, my-shop/order_items, _2024/posts', () => {
    assert.equal(namesOf('blogs', [table('posts')], 'posts').types.entity, 'BlogPost');
    const shop = namesOf('my-shop', [table('order_items')], 'order_items');
    assert.deepEqual(base(shop), ['normal', 'OrderItem', 'OrderItems', 'orderItem', 'orderItems']);
    assert.equal(shop.types.entity, 'MyShopOrderItem');
    assert.equal(namesOf('_2024', [table('posts')], 'posts').types.entity, '_2024Post');
  });
});

describe('computeNames: nested types', () => {
  const address = objectSchema({ street: text, geo: objectSchema({ lat: { type: 'number', default: 0 } }) });
  const line = objectSchema({ sku: text });

  test('the example of §2.2: objects and arrays of objects', () => {
    const users = table('users', 0, {
      shipping_address: address,
      lines: { type: 'array', items: line },
      empty: objectSchema({}),
    });
    const n = namesOf('blog', [users], 'users');
    assert.deepEqual(Object.fromEntries(n.nested), {
      shipping_address: { type: 'BlogUserShippingAddress', flat: 'BlogUserShippingAddressFlat' },
      'shipping_address.geo': { type: 'BlogUserShippingAddressGeo', flat: 'BlogUserShippingAddressGeoFlat' },
      'lines.*': { type: 'BlogUserLinesItem', flat: 'BlogUserLinesItemFlat' },
    });
  });

  test('arrays of arrays add Item per level', () => {
    const n = namesOf('blog', [table('grids', 0, { cells: { type: 'array', items: { type: 'array', items: line } } })], 'grids');
    assert.deepEqual(n.nested.get('cells.*.*'), { type: 'BlogGridCellsItemItem', flat: 'BlogGridCellsItemItemFlat' });
  });

  test('collisions with table-level names, the reserved set and earlier nested names get suffixes', () => {
    const users = table('users', 1, { node: line, edge: line, edge_: line, address: line });
    const addresses = table('user_addresses', 2, { title: text });
    const names = computeNames('blog', [users, addresses], { rootFieldPrefix: false }).tables;
    const nested = names.get('users')?.nested;
    assert.equal(names.get('user_addresses')?.types.entity, 'BlogUserAddress');
    assert.deepEqual(nested?.get('address'), { type: 'BlogUserAddress2', flat: 'BlogUserAddress2Flat' });
    assert.deepEqual(nested?.get('node'), { type: 'BlogUserNode2', flat: 'BlogUserNode2Flat' });
    assert.deepEqual(nested?.get('edge'), { type: 'BlogUserEdge2', flat: 'BlogUserEdge2Flat' });
    assert.deepEqual(nested?.get('edge_'), { type: 'BlogUserEdge3', flat: 'BlogUserEdge3Flat' });
  });

  test('deeper levels append to the (suffixed) parent name', () => {
    const n = namesOf('blog', [table('users', 0, { node: objectSchema({ inner: line }) })], 'users');
    assert.deepEqual(n.nested.get('node.inner'), { type: 'BlogUserNode2Inner', flat: 'BlogUserNode2InnerFlat' });
  });
});

describe('computeNames: GRAPHQL_ROOT_FIELD_PREFIX', () => {
  test('prefixes root fields with camel(P); type names and OpenAPI names do not change', () => {
    const n = namesOf('blog', [table('posts')], 'posts', true);
    assert.equal(n.rootFields.one, 'blogPost');
    assert.equal(n.rootFields.many, 'blogPosts');
    assert.equal(n.rootFields.oneFlat, 'blogPostFlat');
    assert.equal(n.rootFields.manyFlat, 'blogPostsFlat');
    assert.equal(n.rootFields.create, 'createBlogPost');
    assert.equal(n.rootFields.deleteMany, 'deleteBlogPosts');
    assert.equal(n.types.entity, 'BlogPost');
    assert.equal(n.operationIds.create, 'createPost');
  });

  test('prefixed fields never start with a digit', () => {
    const n = namesOf('_2024', [table('_2fa_codes')], '_2fa_codes', true);
    assert.equal(n.rootFields.one, '_20242faCode');
    assert.equal(n.rootFields.create, 'create_20242faCode');
  });
});
