// A write's unique check sees every HEAD row holding its value, also on the first decision after the decision state
// was loaded from state.db (HEAD rows not gathered whole): the value index of HEAD rows was once kept from the
// first round, which had read only the rows the command named, so a repeated value passed (domain.md §5.5).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD, startSystem } from './support/systemHarness.ts';
import { organizationWithProject } from './support/systemFixtures.ts';

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['rank'],
  properties: { rank: { type: 'number', default: 0, 'x-unique': true } },
};

test('a value held by a HEAD row the write does not name is refused', async () => {
  const system = await startSystem({});
  try {
    const admin = system.as(await system.login('admin', ADMIN_PASSWORD));
    let ids = await organizationWithProject(admin, 'o', 'p');
    const rows = `/revision/${ids.draftRevisionId}/table/posts/rows`;
    assert.equal((await admin.rest('POST', `/revision/${ids.draftRevisionId}/tables`, { tableId: 'posts', schema })).status, 201);
    assert.equal((await admin.rest('POST', rows, { rowId: 'p1', data: { rank: 1 } })).status, 201);
    assert.equal((await admin.rest('POST', rows, { rowId: 'p5', data: { rank: 4 } })).status, 201);
    assert.equal((await admin.rest('POST', '/organization/o/project/p/branch/master/revisions', { comment: 'head' })).status, 201);
    ids = (await admin.rest('GET', '/organization/o/project/p/branch/master')).body as typeof ids;
    assert.equal((await admin.rest('DELETE', `/revision/${ids.draftRevisionId}/table/posts/row/p5`)).status, 200);
    const repeated = await admin.rest('POST', `/revision/${ids.draftRevisionId}/table/posts/rows`, { rowId: 'p4', data: { rank: 1 } });
    assert.equal(repeated.status, 409, JSON.stringify(repeated.body));
    assert.equal((repeated.body as { code: string }).code, 'UNIQUE_VIOLATION');
  } finally {
    await system.close();
  }
});
