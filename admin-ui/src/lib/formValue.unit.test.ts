import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonSchema } from '../api/types.ts';
import { fromDateTimeInput, isFormPointer, labelField, moveItem, setIn, stringControlKind, toDateTimeInput } from './formValue.ts';

const schema: JsonSchema = {
  type: 'object',
  properties: {
    author: { type: 'string', foreignKey: 'users' },
    name: { type: 'string' },
    lines: { type: 'array', items: { type: 'object', properties: { 'a/b': { type: 'number' } } } },
  },
};

test('setIn copies along the path and leaves the input as it was', () => {
  const before = { lines: [{ qty: 1 }, { qty: 2 }], name: 'x' };
  const after = setIn(before, ['lines', 1, 'qty'], 5);
  assert.deepEqual(after, { lines: [{ qty: 1 }, { qty: 5 }], name: 'x' });
  assert.deepEqual(before.lines[1], { qty: 2 });
  assert.deepEqual(moveItem(['a', 'b', 'c'], 2, 0), ['c', 'a', 'b']);
});

test('date-time inputs are read and written in UTC; empty stays empty', () => {
  assert.equal(toDateTimeInput('2025-03-01T10:30:15+01:00'), '2025-03-01T09:30:15');
  assert.equal(toDateTimeInput('not a date'), '');
  assert.equal(fromDateTimeInput('2025-03-01T09:30'), '2025-03-01T09:30:00Z');
  assert.equal(fromDateTimeInput('2025-03-01T09:30:15'), '2025-03-01T09:30:15Z');
  assert.equal(fromDateTimeInput(''), '');
});

test('controls follow enum, foreignKey, format and contentMediaType; the label field is the first plain string', () => {
  assert.equal(stringControlKind({ type: 'string', enum: ['a'] }), 'enum');
  assert.equal(stringControlKind({ type: 'string', foreignKey: 'users' }), 'foreignKey');
  assert.equal(stringControlKind({ type: 'string', format: 'date' }), 'date');
  assert.equal(stringControlKind({ type: 'string', contentMediaType: 'text/markdown' }), 'multiline');
  assert.equal(stringControlKind({ type: 'string', format: '' }), 'text');
  assert.equal(labelField(schema), 'name');
});

test('an error pointer is placed at a field only when the form shows that place', () => {
  const value = { author: '', name: '', lines: [{ 'a/b': 1 }] };
  assert.equal(isFormPointer(schema, value, '/author'), true);
  assert.equal(isFormPointer(schema, value, '/lines/0/a~1b'), true);
  assert.equal(isFormPointer(schema, value, '/lines/1'), false);
  assert.equal(isFormPointer(schema, value, '/extra'), false);
  assert.equal(isFormPointer(schema, value, ''), false);
});
