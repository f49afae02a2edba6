import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD, ok, startMcpSystem, toolError, type McpClient, type McpSystem } from './support/mcpSystem.ts';

// The change tools of changes.md §4, driven with the SDK client: results equal the REST responses.
let system: McpSystem;
let agent: McpClient;
let token = '';
const target = { organizationId: 'admin', projectName: 'blog', branchName: '$default' };
const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'meta'],
  properties: {
    title: { type: 'string', default: '' },
    meta: {
      type: 'object',
      additionalProperties: false,
      required: ['tags'],
      properties: { tags: { type: 'array', items: { type: 'string', default: '' } } },
    },
  },
};
let c1 = '';
let draft = '';

const call = (name: string, args: Record<string, unknown>) => agent.client.callTool({ name, arguments: args });

before(async () => {
  system = await startMcpSystem();
  token = await system.login('admin', ADMIN_PASSWORD);
  agent = await system.connect({ Authorization: `Bearer ${token}` });
  ok(await call('create_project', { organizationId: 'admin', projectName: 'blog' }));
  ok(await call('create_table', { ...target, tableId: 'posts', schema }));
  ok(
    await call('create_rows', {
      ...target,
      tableId: 'posts',
      rows: [
        { rowId: 'p1', data: { title: 'One', meta: { tags: ['a'] } } },
        { rowId: 'p2', data: { title: 'Two', meta: { tags: [] } } },
      ],
    }),
  );
  c1 = ok(await call('create_revision', { ...target, comment: 'first' })).id;
  ok(await call('patch_row', { ...target, tableId: 'posts', rowId: 'p1', patches: [{ op: 'replace', path: '/meta/tags', value: ['a', 'b'] }] }));
  ok(await call('rename_row', { ...target, tableId: 'posts', rowId: 'p2', nextRowId: 'p3' }));
  draft = ok(await call('get_revision', target)).id;
});
after(() => system.close());

describe('MCP change tools (changes.md §4)', () => {
  test('are read-only tools', async () => {
    const { tools } = await agent.client.listTools();
    for (const name of ['get_revision_changes', 'get_row_changes', 'get_row_history']) {
      const tool = tools.find((t) => t.name === name);
      assert.equal(tool?.annotations?.readOnlyHint, true, name);
      assert.equal(tool?.annotations?.idempotentHint, true, name);
    }
  });

  test('get_revision_changes and get_row_changes answer what REST answers', async () => {
    const changes = ok(await call('get_revision_changes', target));
    assert.deepEqual(changes, (await system.rest(token, 'GET', `/revision/${draft}/changes`)).body);
    assert.equal(changes.compareWith, c1);
    assert.deepEqual(changes.tables[0].rowChanges, { added: 0, updated: 1, removed: 0, renamed: 1, total: 2 });
    const rows = ok(await call('get_row_changes', { revisionId: draft, tableId: 'posts' }));
    assert.deepEqual(rows, (await system.rest(token, 'GET', `/revision/${draft}/table/posts/changes`)).body);
    assert.deepEqual(
      rows.edges.map((e: { node: { rowId: string; change: string } }) => `${e.node.change}:${e.node.rowId}`),
      ['UPDATED:p1', 'RENAMED:p3'],
    );
    assert.deepEqual(rows.edges[0].node.fieldChanges, [{ path: '/meta/tags/1', before: null, after: 'b' }]);
    const renamedOnly = ok(await call('get_row_changes', { ...target, tableId: 'posts', changes: ['RENAMED'], compareWith: c1, first: 1 }));
    assert.deepEqual(
      renamedOnly.edges.map((e: { node: { previousRowId: string } }) => e.node.previousRowId),
      ['p2'],
    );
  });

  test('get_row_history follows the rename and pages; errors carry the spec codes', async () => {
    const history = ok(await call('get_row_history', { ...target, tableId: 'posts', rowId: 'p3' }));
    assert.deepEqual(history, (await system.rest(token, 'GET', `/revision/${draft}/table/posts/row/p3/history`)).body);
    assert.deepEqual(
      history.edges.map((e: { node: { change: string; rowId: string; revisionId: string } }) => [e.node.change, e.node.rowId, e.node.revisionId]),
      [
        ['RENAMED', 'p3', draft],
        ['CREATED', 'p2', c1],
      ],
    );
    const page = ok(await call('get_row_history', { ...target, tableId: 'posts', rowId: 'p3', first: 1 }));
    assert.equal(page.pageInfo.hasNextPage, true);
    toolError(await call('get_row_history', { ...target, tableId: 'posts', rowId: 'zz' }), 'ROW_NOT_FOUND');
    toolError(await call('get_revision_changes', { ...target, compareWith: 'nope' }), 'REVISION_NOT_FOUND');
    toolError(await call('get_row_changes', { ...target, tableId: 'nope' }), 'TABLE_NOT_FOUND');
  });
});
