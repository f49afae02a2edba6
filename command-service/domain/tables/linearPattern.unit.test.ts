import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileLinearPattern } from './linearPattern.ts';

const PATTERNS = [
  '^[a-z]+$',
  '^(a+)+$',
  '(a|aa)+$',
  '(.*a){20}',
  'abc',
  '',
  '^$',
  '^.$',
  '^.+$',
  '^\\s*$',
  '\\S',
  '^[\\s\\d]+$',
  '^[^\\s]+$',
  '[\\S]',
  '^\\w+$',
  '\\bword\\b',
  '\\Bx',
  '^\\d{3}-\\d{4}$',
  '^[A-Z]{2,}?$',
  'a|b|c',
  '(?:ab)*c',
  '^(?<year>\\d{4})-\\d{2}$',
  '[]',
  '[^]',
  '^[^]*$',
  '\\u0041',
  '\\u{1F600}',
  '\\uD83D\\uDE00',
  '\\x41',
  '\\cJ',
  '\\0',
  '[\\b]',
  '\\.',
  '\\/',
  '\\$',
  '^\\p{L}+$',
  '\\P{Lu}',
  '[[]',
  '[[:a]+',
  '^[😀-😂]+$',
  'a{2}',
  'a{2,5}$',
  '^\\t\\n\\r\\f\\v$',
  '[\\-a]',
  'é+',
  '^.{3}$',
  '\\p{Any}',
];
const INPUTS = [
  '',
  'a',
  'aa',
  'abc',
  'ABC',
  'word',
  ' word ',
  'x',
  'ax',
  '2026-11',
  '123-4567',
  'a\nb',
  'a\rb',
  'a\u2028b',
  ' ',
  '\t',
  '\u00a0',
  '\ufeff',
  '\u3000',
  'A',
  '😀',
  '😁😂',
  '\u0000',
  '\b',
  '.',
  '/',
  '$',
  'éé',
  'Zz',
  '[',
  ':',
  '\t\n\r\f\v',
  '-',
  'a'.repeat(18),
  `${'a'.repeat(16)}!`,
];

describe('compileLinearPattern', () => {
  test('answers like RegExp with the u flag for every accepted pattern', () => {
    for (const source of PATTERNS) {
      const compiled = compileLinearPattern(source);
      assert.ok(compiled.ok, `${source}: ${compiled.ok ? '' : compiled.message}`);
      const native = new RegExp(source, 'u');
      for (const input of INPUTS) {
        // The pathological patterns are only run natively on inputs too short to backtrack for long.
        assert.equal(compiled.pattern.test(input), native.test(input), `${JSON.stringify(source)} on ${JSON.stringify(input)}`);
      }
    }
  });

  test('matches 10,000 characters against pathological patterns in linear time', () => {
    const value = `${'a'.repeat(10_000)}!`;
    for (const source of ['^(a+)+$', '(a|aa)+$', '(.*a){20}', '^(a|a?)+$', '(x+x+)+y']) {
      const compiled = compileLinearPattern(source);
      assert.ok(compiled.ok);
      const started = performance.now();
      compiled.pattern.test(value);
      assert.ok(performance.now() - started < 2000, `${source} took too long`);
    }
  });

  test('refuses patterns outside the RE2 subset and invalid ECMAScript', () => {
    const refused: [string, RegExp][] = [
      ['(a)\\1', /backreferences/],
      ['(?<n>a)\\k<n>', /backreferences/],
      ['a(?=b)', /lookahead and lookbehind/],
      ['a(?!b)', /lookahead and lookbehind/],
      ['(?<=a)b', /lookahead and lookbehind/],
      ['(?<!a)b', /lookahead and lookbehind/],
      ['a{1001}', /RE2/],
      ['\\p{Script=Greek}', /RE2/],
      ['(', /valid regular expression/],
      ['\\z', /valid regular expression/],
    ];
    for (const [source, why] of refused) {
      const compiled = compileLinearPattern(source);
      assert.equal(compiled.ok, false, source);
      if (!compiled.ok) assert.match(compiled.message, why, source);
    }
  });
});
