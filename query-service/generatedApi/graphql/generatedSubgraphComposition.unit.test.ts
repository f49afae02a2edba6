import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';
import { compileTableModel, type TableSchema } from '../../../contracts/index.ts';
import { blogTables } from '../../testing/blogFixture.ts';
import type { GeneratedTable } from '../naming.ts';
import { buildGeneratedSchema } from './buildGeneratedSchema.ts';
import { createFakeDataSource } from '../../testing/fakeDataSource.ts';

function table(id: string, minute: number, schema: TableSchema): GeneratedTable {
  return { id, createdAt: `2025-02-01T00:${String(minute).padStart(2, '0')}:00.000Z`, model: compileTableModel(schema) };
}

const text = { type: 'string', default: '' } as const;
const shopTables = [
  table('products', 0, {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'price'],
    properties: { name: text, price: { type: 'number', default: 0 } },
  }),
  table('orders', 1, {
    type: 'object',
    additionalProperties: false,
    required: ['lines'],
    properties: {
      lines: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['product'],
          properties: { product: { type: 'string', default: '', foreignKey: 'products' } },
        },
      },
    },
  }),
];
/** Shares the table ids `users` and `posts` with the blog fixture. */
const newsTables = [
  table('users', 0, { type: 'object', additionalProperties: false, required: ['name'], properties: { name: text } }),
  table('posts', 1, {
    type: 'object',
    additionalProperties: false,
    required: ['author'],
    properties: { author: { type: 'string', default: '', foreignKey: 'users' } },
  }),
];

function subgraph(projectName: string, tables: readonly GeneratedTable[], mode: 'head' | 'draft', rootFieldPrefix: boolean) {
  const { sdl } = buildGeneratedSchema({ projectName, mode, tables, rootFieldPrefix, dataSource: createFakeDataSource({}) });
  return { name: `${projectName}-${mode}`, url: `http://localhost/${projectName}`, typeDefs: parse(sdl) };
}

function errorsOf(result: ReturnType<typeof composeServices>): string[] {
  return (result.errors ?? []).map((error) => error.message);
}

describe('generated subgraphs compose (generated-api.md §6)', () => {
  test('two projects with different table ids compose, draft and head', () => {
    for (const mode of ['draft', 'head'] as const) {
      const result = composeServices([subgraph('blog', blogTables, mode, false), subgraph('shop', shopTables, mode, false)]);
      assert.deepEqual(errorsOf(result), []);
      assert.match(result.supergraphSdl ?? '', /type BlogPostNode/);
      assert.match(result.supergraphSdl ?? '', /type ShopOrderLinesItem/);
    }
  });

  test('projects sharing table ids collide without the root field prefix', () => {
    const result = composeServices([subgraph('blog', blogTables, 'draft', false), subgraph('news', newsTables, 'draft', false)]);
    assert.ok(errorsOf(result).length > 0);
  });

  test('projects sharing table ids compose with GRAPHQL_ROOT_FIELD_PREFIX', () => {
    const result = composeServices([subgraph('blog', blogTables, 'draft', true), subgraph('news', newsTables, 'draft', true)]);
    assert.deepEqual(errorsOf(result), []);
    assert.match(result.supergraphSdl ?? '', /blogPosts\(/);
    assert.match(result.supergraphSdl ?? '', /newsPosts\(/);
  });
});
