import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { GeneratedSystem } from './support/generatedHarness.ts';
import { data, endpointUrl, gql, ok, startBlogSystem, type Project } from './support/generatedFixtures.ts';

// docs/reference/performance.md: generated list queries read an index in sort order (created on first use of a sort, README
// "Row indexes"), never a full scan plus a temporary B-tree, also when filtered on another path and paged.
let sys: GeneratedSystem;
let admin: string;
let blog: Project;

before(async () => {
  ({ sys, admin, blog } = await startBlogSystem());
});
after(() => sys.close());

/** The query plan of the last row list the query service ran. */
async function lastListPlan(): Promise<string[]> {
  const find = sys.finds.filter((f) => f.collection === 'rows' && f.query.orderBy !== undefined).at(-1);
  assert.ok(find, 'a row list ran');
  return sys.explain(find);
}

function assertIndexed(plan: readonly string[], label: string): void {
  const text = plan.join(' | ');
  assert.ok(
    plan.some((line) => /^SEARCH v_rows_\d+_rows USING (COVERING )?INDEX/.test(line)),
    `${label}: ${text}`,
  );
  assert.ok(!plan.some((line) => /^SCAN v_rows_\d+_rows/.test(line)), `${label}: full scan in ${text}`);
  assert.ok(!plan.some((line) => line.includes('TEMP B-TREE')), `${label}: temporary B-tree in ${text}`);
}

describe('generated list queries use an index', () => {
  test('filtered on one data path, sorted by another, on the page after a cursor (GraphQL, head and draft)', async () => {
    const query = `query($d: BlogGetPostsInput) { posts(data: $d) { pageInfo { endCursor } edges { node { id } } } }`;
    const where = { data: { path: 'title', string_starts_with: 'post', mode: 'insensitive' } };
    const orderBy = [{ data: { path: 'views', direction: 'desc', type: 'float' } }];
    for (const segment of ['head', 'draft']) {
      const url = endpointUrl('graphql', blog, segment);
      const first = data(await gql(sys, url, query, admin, { d: { first: 2, where, orderBy } })).posts;
      sys.resetFinds();
      const second = data(await gql(sys, url, query, admin, { d: { first: 2, where, orderBy, after: first.pageInfo.endCursor } })).posts;
      assert.deepEqual(
        second.edges.map((e: { node: { id: string } }) => e.node.id),
        ['p5', 'p2'],
      );
      const find = sys.finds.find((f) => f.collection === 'rows' && f.query.orderBy !== undefined);
      assert.ok(JSON.stringify(find?.query.filter).includes('"op":"lt"'), 'the cursor predicate is part of the query');
      assertIndexed(await lastListPlan(), segment);
    }
  });

  test('default order, timestamps and several keys (REST)', async () => {
    const orders = [
      undefined,
      [{ updatedAt: 'desc' }],
      [{ data: { path: 'title' } }, { updatedAt: 'asc' }],
      [{ data: { path: 'lines[0].text', direction: 'desc' } }, { data: { path: 'views', type: 'int' } }, { id: 'desc' }],
    ];
    for (const orderBy of orders) {
      const where = encodeURIComponent(JSON.stringify({ data: { path: 'views', gte: 1 } }));
      const sort = orderBy === undefined ? '' : `&orderBy=${encodeURIComponent(JSON.stringify(orderBy))}`;
      ok(await sys.call('GET', `${endpointUrl('rest', blog)}/tables/posts/rows?first=3&where=${where}${sort}`, { token: admin }));
      assertIndexed(await lastListPlan(), JSON.stringify(orderBy ?? 'default'));
    }
  });
});
