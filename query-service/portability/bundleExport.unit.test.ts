import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { foreignKeyOrder } from './bundleExport.ts';
import { schemaPatches } from './bundlePlan.ts';

const SEED = 3_2026;

describe('bundle table order (portability.md §3)', () => {
  test('a table comes after the tables it references; ties and cycles go by id', () => {
    const tables = [
      { id: 'posts', refs: ['authors', 'tags'] },
      { id: 'tags', refs: [] },
      { id: 'authors', refs: [] },
      { id: 'a_cycle', refs: ['b_cycle'] },
      { id: 'b_cycle', refs: ['a_cycle'] },
    ];
    assert.deepEqual(
      foreignKeyOrder(tables, (t) => t.refs).map((t) => t.id),
      ['authors', 'tags', 'posts', 'a_cycle', 'b_cycle'],
    );
  });

  test('law: in acyclic graphs every reference points backwards; every table appears once', () => {
    const graph = fc
      .integer({ min: 1, max: 12 })
      .chain((n) =>
        fc.tuple(...Array.from({ length: n }, (_, i) => fc.subarray(Array.from({ length: i }, (_, j) => `t${String(j).padStart(2, '0')}`)))),
      );
    fc.assert(
      fc.property(graph, (refLists) => {
        // Table i may only reference tables with a smaller index: no cycles; ids shuffled by reversing.
        const tables = refLists.map((refs, i) => ({ id: `t${String(i).padStart(2, '0')}`, refs })).reverse();
        const ordered = foreignKeyOrder(tables, (t) => t.refs).map((t) => t.id);
        assert.deepEqual([...ordered].sort(), tables.map((t) => t.id).sort());
        for (const table of tables)
          for (const ref of table.refs) assert.ok(ordered.indexOf(ref) < ordered.indexOf(table.id), `${ref} before ${table.id}`);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});

describe('bundle schema patches', () => {
  test('whole top-level property nodes are added, replaced and removed (names escaped)', () => {
    const current = {
      type: 'object',
      properties: { a: { type: 'string', default: '' }, 'b/c': { type: 'number', default: 0 }, same: { type: 'boolean', default: false } },
    };
    const target = {
      type: 'object',
      properties: { a: { type: 'number', default: 1 }, same: { type: 'boolean', default: false }, 'new~x': { type: 'string', default: '' } },
    };
    assert.deepEqual(schemaPatches(current, target), [
      { op: 'remove', path: '/properties/b~1c' },
      { op: 'replace', path: '/properties/a', value: { type: 'number', default: 1 } },
      { op: 'add', path: '/properties/new~0x', value: { type: 'string', default: '' } },
    ]);
    assert.deepEqual(schemaPatches(target, target), []);
  });
});
