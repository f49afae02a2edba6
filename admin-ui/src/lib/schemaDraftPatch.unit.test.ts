import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonSchema } from '../api/types.ts';
import { newField, newNode, toDraft, toSchema, type NodeDraft } from './schemaDraft.ts';
import { draftPatch } from './schemaDraftPatch.ts';

const schema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['a', 'b', 'c'],
  properties: { a: { type: 'string', default: '' }, b: { type: 'number', default: 0 }, c: { type: 'boolean', default: false } },
};

/** Applies the ops the way the server treats property order (a move or add appends) to check the result. */
function apply(start: JsonSchema, ops: ReturnType<typeof draftPatch>): JsonSchema {
  const doc = structuredClone(start);
  const at = (path: string): [Record<string, unknown>, string] => {
    const parts = path.slice(1).split('/');
    let node: Record<string, unknown> = doc as Record<string, unknown>;
    for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
    return [node, parts.at(-1) as string];
  };
  for (const op of ops) {
    if (op.op === 'move') {
      const [from, fromKey] = at(op.from);
      const value = from[fromKey];
      delete from[fromKey];
      const [to, toKey] = at(op.path);
      to[toKey] = value;
    } else if (op.op === 'remove') {
      const [parent, key] = at(op.path);
      delete parent[key];
    } else {
      const [parent, key] = at(op.path);
      parent[key] = op.value;
    }
  }
  return doc;
}
const names = (s: JsonSchema): string[] => Object.keys(s.properties ?? {});
const edit = (f: (draft: NodeDraft) => NodeDraft): [NodeDraft, ReturnType<typeof draftPatch>] => {
  const draft = f(toDraft(schema));
  return [draft, draftPatch(schema, draft)];
};

test('an unchanged draft sends nothing, and toSchema round-trips', () => {
  assert.deepEqual(draftPatch(schema, toDraft(schema)), []);
  assert.deepEqual(toSchema(toDraft(schema)), schema);
});

test('a rename is a move, a type change a node replace', () => {
  const [, ops] = edit((d) => ({ ...d, fields: d.fields.map((f) => (f.name === 'b' ? { ...f, name: 'bb', node: newNode('string', f.node) } : f)) }));
  assert.deepEqual(ops.slice(0, 1), [{ op: 'move', from: '/properties/b', path: '/properties/bb' }]);
  assert.deepEqual(ops[1], { op: 'replace', path: '/properties/bb', value: { type: 'string', default: '' } });
  assert.deepEqual(names(apply(schema, ops)), ['a', 'bb', 'c']);
});

test('a swap of names goes through temporary names; reorder and add keep the edited order', () => {
  const [, swap] = edit((d) => ({
    ...d,
    fields: d.fields.map((f) => (f.name === 'a' ? { ...f, name: 'b' } : f.name === 'b' ? { ...f, name: 'a' } : f)),
  }));
  const swapped = apply(schema, swap);
  assert.deepEqual(names(swapped), ['b', 'a', 'c']);
  assert.equal(swapped.properties?.a?.type, 'number');
  const [draft, reorder] = edit((d) => ({ ...d, fields: [d.fields[2], newField('d'), d.fields[0], d.fields[1]] as NodeDraft['fields'] }));
  assert.deepEqual(
    names(apply(schema, reorder)),
    draft.fields.map((f) => f.name),
  );
  assert.ok(
    reorder.every((op) => op.op !== 'remove'),
    'no value is lost by reordering',
  );
});

test('nested arrays of objects are added whole; a field inside a nested object is patched in place', () => {
  const tags = newField('items');
  const arr = { ...newField('lines'), node: { ...newNode('array'), items: { ...newNode('object'), fields: [tags] } } };
  const [, add] = edit((d) => ({ ...d, fields: [...d.fields, arr] }));
  assert.deepEqual(add, [{ op: 'add', path: '/properties/lines', value: toSchema(arr.node) }]);
  const nested = apply(schema, add);
  const inner = toDraft(nested);
  const changed = {
    ...inner,
    fields: inner.fields.map((f) =>
      f.name === 'lines' && f.node.items
        ? { ...f, node: { ...f.node, items: { ...f.node.items, fields: [{ ...f.node.items.fields[0]!, name: 'sku' }] } } }
        : f,
    ),
  };
  assert.deepEqual(draftPatch(nested, changed), [
    { op: 'move', from: '/properties/lines/items/properties/items', path: '/properties/lines/items/properties/sku' },
  ]);
});
