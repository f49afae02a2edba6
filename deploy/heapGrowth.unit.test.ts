// What the limit does to memory is measured by `npm run bench -- scale` (RSS after writes, bench/RESULTS.md): a
// heap-size assertion here would be a timing test in disguise. This file holds the rule for operators' own flags.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { limitHeapGrowth } from './heapGrowth.ts';

test("an operator's own --heap-growing-percent wins over the default", () => {
  assert.equal(limitHeapGrowth(['--heap-growing-percent=200']), false);
  assert.equal(limitHeapGrowth(['--heap_growing_percent=200']), false);
  assert.equal(limitHeapGrowth(['--max-old-space-size=512']), true);
});
