import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lossConfirmation, maySave, rowCount } from './migrationLoss.ts';

test('a migration that loses nothing saves as usual', () => {
  assert.equal(lossConfirmation({ rowsLossy: 0 }), null);
  assert.equal(maySave({ rowsLossy: 0 }, false), true);
});

test('a lossy migration names the row count and saves only once confirmed', () => {
  assert.equal(lossConfirmation({ rowsLossy: 1 }), 'I understand that 1 row will lose data');
  assert.equal(lossConfirmation({ rowsLossy: 1200 }), 'I understand that 1200 rows will lose data');
  assert.equal(maySave({ rowsLossy: 3 }, false), false);
  assert.equal(maySave({ rowsLossy: 3 }, true), true);
  assert.equal(rowCount(0), '0 rows');
});
