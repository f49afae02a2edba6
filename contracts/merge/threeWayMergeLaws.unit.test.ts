import { test } from 'node:test';
import { assertMergeLaws } from '../testing/mergeLaws.ts';

// The laws of issue 26 item 5 over random two-sided histories, fixed seed (the larger run: npm run bench -- merge-laws).
test('three-way merge laws hold over random histories (fixed seed)', () => {
  assertMergeLaws(300);
});
