import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonSchema } from '../api/types.ts';
import { diffSchema, jsonEqual } from './schemaPatch.ts';

const base: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'views', 'meta', 'tags'],
  properties: {
    title: { type: 'string', default: '' },
    views: { type: 'number', default: 0 },
    meta: {
      type: 'object',
      additionalProperties: false,
      required: ['lang'],
      properties: { lang: { type: 'string', default: 'en' } },
    },
    tags: { type: 'array', items: { type: 'string', default: '' } },
  },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test edits free-form
function edit(change: (schema: any) => void): JsonSchema {
  const copy = structuredClone(base);
  change(copy);
  return copy;
}

describe('diffSchema', () => {
  test('equal schemas (any key order) need no operations', () => {
    const reordered = { properties: base.properties, required: base.required, additionalProperties: false, type: 'object' };
    assert.deepEqual(diffSchema(base, reordered), []);
    assert.equal(jsonEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }), true);
    assert.equal(jsonEqual([1, 2], [2, 1]), false);
  });

  test('an added property is one add at its node path; required is left to the server', () => {
    const after = edit((s) => {
      s.properties.published = { type: 'boolean', default: false };
      s.required.push('published');
    });
    assert.deepEqual(diffSchema(base, after), [{ op: 'add', path: '/properties/published', value: { type: 'boolean', default: false } }]);
  });

  test('a removed property is one remove', () => {
    const after = edit((s) => {
      delete s.properties.views;
      s.required = s.required.filter((n: string) => n !== 'views');
    });
    assert.deepEqual(diffSchema(base, after), [{ op: 'remove', path: '/properties/views' }]);
  });

  test('a changed leaf is replaced as a node; nested objects are diffed property by property', () => {
    const after = edit((s) => {
      s.properties.views = { type: 'string', default: '0' };
      s.properties.meta.properties.lang.default = 'de';
      s.properties.meta.properties.region = { type: 'string', default: '' };
    });
    assert.deepEqual(diffSchema(base, after), [
      { op: 'replace', path: '/properties/views', value: { type: 'string', default: '0' } },
      { op: 'replace', path: '/properties/meta/properties/lang', value: { type: 'string', default: 'de' } },
      { op: 'add', path: '/properties/meta/properties/region', value: { type: 'string', default: '' } },
    ]);
  });

  test('array items are diffed at /items; a kind change replaces the whole node', () => {
    const items = edit((s) => {
      s.properties.tags.items = { type: 'number', default: 0 };
    });
    assert.deepEqual(diffSchema(base, items), [{ op: 'replace', path: '/properties/tags/items', value: { type: 'number', default: 0 } }]);
    const kind = edit((s) => {
      s.properties.meta = { type: 'string', default: '' };
    });
    assert.deepEqual(diffSchema(base, kind), [{ op: 'replace', path: '/properties/meta', value: { type: 'string', default: '' } }]);
  });

  test('annotations of containers are keyword operations; names are pointer-escaped', () => {
    const after = edit((s) => {
      s.description = 'Posts';
      s.properties.meta.title = 'Meta';
      s.properties['a/b~c'] = { type: 'string', default: '' };
    });
    assert.deepEqual(diffSchema(base, after), [
      { op: 'add', path: '/description', value: 'Posts' },
      { op: 'add', path: '/properties/meta/title', value: 'Meta' },
      { op: 'add', path: '/properties/a~1b~0c', value: { type: 'string', default: '' } },
    ]);
  });

  test('a changed root type is sent as a keyword replace for the server to refuse', () => {
    const after = edit((s) => {
      s.type = 'array';
    });
    assert.deepEqual(diffSchema(base, after)[0], { op: 'replace', path: '/type', value: 'array' });
  });
});
