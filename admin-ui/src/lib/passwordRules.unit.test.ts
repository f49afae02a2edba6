import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generatePassword, passwordProblem } from './passwordRules.ts';

test('passwords are 8 to 256 characters, counted in code points like the server', () => {
  assert.equal(passwordProblem('seven77'), 'At least 8 characters (now 7).');
  assert.equal(passwordProblem('eight888'), null);
  assert.equal(passwordProblem('😀'.repeat(8)), null, 'eight emoji are eight characters (sixteen UTF-16 units)');
  assert.equal(passwordProblem('x'.repeat(256)), null);
  assert.equal(passwordProblem('x'.repeat(257)), 'At most 256 characters (now 257).');
});

test('a generated password has 20 characters of the unambiguous alphabet, without modulo bias', () => {
  assert.match(generatePassword(), /^[A-HJ-NP-Za-km-z2-9]{20}$/);
  // Bytes at or above the largest multiple of the alphabet size are skipped, not folded onto the first letters.
  let calls = 0;
  const biased = (count: number): Uint8Array => {
    calls++;
    return new Uint8Array(count).fill(calls === 1 ? 255 : 0);
  };
  assert.equal(generatePassword(biased), 'A'.repeat(20));
  assert.equal(calls, 2, 'the first, unusable batch was dropped');
});
