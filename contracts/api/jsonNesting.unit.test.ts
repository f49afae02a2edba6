import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isAppError } from '../errors/appError.ts';
import { isJsonTextTooDeep, parseRequestJson } from './jsonNesting.ts';

const nested = (n: number): string => `${'[{"a":'.repeat(n / 2)}1${'}]'.repeat(n / 2)}`;

describe('JSON nesting limit', () => {
  test('counts arrays and objects, not brackets inside strings', () => {
    assert.equal(isJsonTextTooDeep(nested(64)), false);
    assert.equal(isJsonTextTooDeep(nested(66)), true);
    const padded = `{"s":"${'['.repeat(500)}","t":"\\"${'{'.repeat(500)}\\\\","u":[1]}`;
    assert.equal(isJsonTextTooDeep(padded), false);
    assert.deepEqual(Object.keys(JSON.parse(padded) as object), ['s', 't', 'u']);
    assert.equal(isJsonTextTooDeep(`["\\\\"${',['.repeat(70)}`), true);
    assert.equal(isJsonTextTooDeep('"unterminated'.padEnd(200, '[')), false);
  });

  test('parses within the limit; deeper → BAD_REQUEST; invalid JSON → SyntaxError', () => {
    assert.deepEqual(parseRequestJson('{"a":[1,{"b":2}]}'), { a: [1, { b: 2 }] });
    assert.throws(
      () => parseRequestJson('['.repeat(100_000)),
      (err) => isAppError(err, 'BAD_REQUEST'),
    );
    assert.throws(() => parseRequestJson('{"a":'), SyntaxError);
  });
});
