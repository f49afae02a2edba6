import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonSchema } from '../api/types.ts';
import {
  extraProperties,
  fromDateTimeInput,
  isFormPointer,
  kindOf,
  labelField,
  moveItem,
  setIn,
  stringControlKind,
  toDateTimeInput,
  valueMismatch,
  withoutProperty,
} from './formValue.ts';

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

test('a value its control cannot show is a mismatch, named by what the row holds ("cheap" in a number field is never 0)', () => {
  const price: JsonSchema = { type: 'number', default: 0 };
  assert.equal(valueMismatch(price, 12.5), null);
  assert.equal(valueMismatch(price, 'cheap'), 'Expected a number; the row holds a string.');
  assert.equal(valueMismatch(price, '12'), 'Expected a number; the row holds a string.', 'a numeric string is still a string');
  assert.equal(valueMismatch(price, null), 'Expected a number; the row holds null.');
  assert.equal(valueMismatch(price, undefined), 'Missing: the row has no value here.');
  assert.equal(valueMismatch({ type: 'boolean', default: false }, 'yes'), 'Expected true or false; the row holds a string.');
  assert.equal(valueMismatch({ type: 'string', default: '' }, 3), 'Expected a string; the row holds a number.');
  assert.equal(valueMismatch({ type: 'array', items: { type: 'string', default: '' } }, 'a'), 'Expected an array; the row holds a string.');
  assert.equal(valueMismatch({ type: 'object', properties: {} }, []), 'Expected an object; the row holds an array.');
  assert.equal(valueMismatch({ $ref: 'urn:jsonschema:io:strata:row-id-schema:1.0.0' }, 1), 'Expected a string; the row holds a number.');
  // An enum select shows an unknown value as an extra option, so it is not a mismatch; the pickers show only what they parse.
  assert.equal(valueMismatch({ type: 'string', default: 'a', enum: ['a'] }, 'zz'), null);
  assert.equal(valueMismatch({ type: 'string', default: '', format: 'date-time' }, ''), null);
  assert.equal(valueMismatch({ type: 'string', default: '', format: 'date-time' }, '2025-03-01T09:30:15Z'), null);
  assert.match(valueMismatch({ type: 'string', default: '', format: 'date-time' }, 'soon') ?? '', /date and time/);
  assert.match(valueMismatch({ type: 'string', default: '', format: 'date' }, '01/03/2025') ?? '', /YYYY-MM-DD/);
  assert.deepEqual([kindOf([]), kindOf({}), kindOf(true), kindOf(undefined)], ['an array', 'an object', 'a boolean', 'nothing']);
});

test('properties the schema does not declare are listed in order and removed without touching the input', () => {
  const value = { name: 'x', extra: 1, author: 'a', other: null };
  assert.deepEqual(extraProperties(schema, value), ['extra', 'other']);
  assert.deepEqual(extraProperties(schema, 'not an object'), []);
  assert.deepEqual(extraProperties({ type: 'object' }, { a: 1 }), ['a']);
  assert.deepEqual(withoutProperty(value, 'extra'), { name: 'x', author: 'a', other: null });
  assert.equal(value.extra, 1);
});
