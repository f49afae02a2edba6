import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documentShapeOf } from './documentShape.ts';

test('texts that differ only in string and number literals, whitespace or comments share a shape', () => {
  const shape = documentShapeOf('{ post(id: "p1") { id } posts(data: { first: 2, after: """x""" }) { totalCount } }');
  assert.equal(documentShapeOf('{post(id:"other"){id}\n# a comment\n posts(data:{first:200 after:"""y"""}){totalCount}}'), shape);
  assert.notEqual(shape, null);
});

test('names, enum values, null/true/false, punctuation and literal kinds are part of the shape', () => {
  const shape = documentShapeOf('{ post(id: "p1") { id } }');
  for (const other of [
    '{ post(id: 1) { id } }',
    '{ post(id: null) { id } }',
    '{ post(id: """p1""") { id } }',
    '{ post(ids: "p1") { id } }',
    '{ a: post(id: "p1") { id } }',
    '{ post(id: "p1") { id title } }',
    '{ post(id: "p1") { ...F } }',
  ]) {
    assert.notEqual(documentShapeOf(other), shape, other);
  }
  assert.notEqual(documentShapeOf('{ x(first: 1.5) }'), documentShapeOf('{ x(first: 1) }'));
  assert.notEqual(documentShapeOf('{ x(dir: asc) }'), documentShapeOf('{ x(dir: desc) }'));
});

test('a text that does not lex has no shape', () => {
  assert.equal(documentShapeOf('{ post(id: "unterminated) { id } }'), null);
});
