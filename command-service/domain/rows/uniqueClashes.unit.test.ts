import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { IndexedField } from '../../../contracts/index.ts';
import { isAppError } from '../../../contracts/index.ts';
import { assertUnique, uniqueClashes, uniqueValueAt, type UniqueCandidate, type UniqueFacts } from './uniqueClashes.ts';

const sku: IndexedField = { dataPath: ['sku'], kind: 'string', unique: true };
const n: IndexedField = { dataPath: ['meta', 'n'], kind: 'number', unique: true };

/** Facts of writing `candidates` over `table` (rowId -> data): holders are the rows the candidates leave alone. */
function factsOf(table: Record<string, unknown>, candidates: UniqueCandidate[], fields = [sku, n]): UniqueFacts {
  const written = new Set(candidates.map((c) => c.rowId));
  return {
    tableId: 't',
    fields,
    candidates,
    holders: (field, value) =>
      Object.entries(table)
        .filter(([rowId, data]) => !written.has(rowId) && uniqueValueAt(data, field.dataPath) === value)
        .map(([rowId]) => rowId),
  };
}

const row = (s: string, m = 0): unknown => ({ sku: s, meta: { n: m } });

describe('uniqueClashes (domain.md §5.5)', () => {
  test('a value held by a row the write leaves alone, or by an earlier candidate, is a clash', () => {
    const table = { p1: row('A', 1), p2: row('B', 2) };
    assert.deepEqual(uniqueClashes(factsOf(table, [{ rowId: 'p3', data: row('A', 3), index: 0 }])), [
      { rowId: 'p3', index: 0, path: '/sku', value: 'A', otherRowId: 'p1' },
    ]);
    assert.deepEqual(
      uniqueClashes(
        factsOf(table, [
          { rowId: 'p3', data: row('C', 3) },
          { rowId: 'p4', data: row('D', 3) },
        ]),
      ),
      [{ rowId: 'p4', path: '/meta/n', value: 3, otherRowId: 'p3' }],
    );
  });

  test('"" is exempt; a row keeps its own value; a swap inside one write is no clash; numbers compare by value', () => {
    const table = { p1: row('A', 1), p2: row('B', 2) };
    assert.deepEqual(uniqueClashes(factsOf({ p1: row('', 1) }, [{ rowId: 'p2', data: row('', 2) }])), []);
    assert.deepEqual(uniqueClashes(factsOf(table, [{ rowId: 'p1', data: row('A', 5) }])), []);
    assert.deepEqual(
      uniqueClashes(
        factsOf(table, [
          { rowId: 'p1', data: row('B', 2) },
          { rowId: 'p2', data: row('A', 1) },
        ]),
      ),
      [],
    );
    assert.equal(uniqueClashes(factsOf({ p1: row('x', 0) }, [{ rowId: 'p2', data: row('y', -0) }])).length, 1);
    assert.deepEqual(uniqueClashes(factsOf({ p1: { sku: '1' } }, [{ rowId: 'p2', data: { sku: 1 } }], [sku])), []);
  });

  test('assertUnique throws 409 UNIQUE_VIOLATION naming the field and the other row', () => {
    assert.throws(
      () => assertUnique(factsOf({ p7: row('A-100') }, [{ rowId: 'p8', data: row('A-100', 8) }])),
      (err: unknown) => {
        assert.ok(isAppError(err, 'UNIQUE_VIOLATION'));
        assert.equal(err.message, 'Another row ("p7") already has "/sku" = "A-100" in table "t" (row "p8")');
        assert.deepEqual(err.details, [
          { path: '/sku', message: 'Another row ("p7") already has "/sku" = "A-100"', rowId: 'p8', otherRowId: 'p7', value: 'A-100' },
        ]);
        return true;
      },
    );
  });

  test('law: no clash exactly when the table as the write leaves it repeats no value (seeded)', () => {
    const value = fc.constantFrom('', 'a', 'b', 'c');
    const seed = 30_05;
    const ids = ['r0', 'r1', 'r2', 'r3', 'r4', 'r5'];
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.constantFrom(...ids), value), { selector: ([id]) => id, maxLength: 5 }),
        fc.uniqueArray(fc.tuple(fc.constantFrom(...ids), value), { selector: ([id]) => id, minLength: 1, maxLength: 4 }),
        (existing, writes) => {
          // Start from a table that repeats nothing (the invariant the checks keep).
          const table: Record<string, unknown> = {};
          const used = new Set<string>();
          for (const [id, v] of existing) {
            if (v !== '' && used.has(v)) continue;
            used.add(v);
            table[id] = { sku: v };
          }
          const candidates = writes.map(([rowId, v]) => ({ rowId, data: { sku: v } }));
          const clashes = uniqueClashes(factsOf(table, candidates, [sku]));
          const after: Record<string, unknown> = { ...table };
          for (const c of candidates) after[c.rowId] = c.data;
          const values = Object.values(after)
            .map((d) => uniqueValueAt(d, ['sku']))
            .filter((v) => v !== null);
          assert.equal(clashes.length === 0, new Set(values).size === values.length);
          for (const clash of clashes) {
            assert.notEqual(clash.otherRowId, clash.rowId);
            assert.equal(uniqueValueAt(after[clash.otherRowId], ['sku']), clash.value);
          }
        },
      ),
      { seed, numRuns: 500 },
    );
  });
});
