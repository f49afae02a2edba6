import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exampleQuery, firstTableField } from './exampleQuery.ts';

const nonNull = (kind: string, name: string) => ({ kind: 'NON_NULL', name: null, ofType: { kind, name } });

test('the first table is the first Connection root field, not its Flat twin or the federation fields', () => {
  const fields = [
    { name: '_service', type: nonNull('OBJECT', '_Service') },
    { name: 'article', type: nonNull('OBJECT', 'NewsArticleNode') },
    { name: 'articlesFlat', type: nonNull('OBJECT', 'NewsArticleFlatConnection') },
    { name: 'articles', type: nonNull('OBJECT', 'NewsArticleConnection') },
    { name: 'notes', type: nonNull('OBJECT', 'NewsNoteConnection') },
  ];
  assert.deepEqual(firstTableField(fields), { field: 'articles', entity: 'NewsArticle' });
  assert.equal(firstTableField(fields.slice(0, 3)), null);
});

test('the example selects scalar data fields, or the whole row as json when there are none', () => {
  const scalar = exampleQuery('articles', [
    { name: 'headline', type: nonNull('SCALAR', 'String') },
    { name: 'author', type: nonNull('OBJECT', 'NewsUser') },
    { name: 'words', type: nonNull('SCALAR', 'Float') },
  ]);
  assert.match(scalar, /articles\(data: \{ first: 10 \}\)/);
  assert.match(scalar, /node \{ id updatedAt data \{ headline words \} \}/);
  assert.match(exampleQuery('notes', [{ name: 'meta', type: nonNull('OBJECT', 'NewsNoteMeta') }]), /node \{ id updatedAt json \}/);
});
