import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { compileTableModel } from '../../contracts/index.ts';
import type { JsonObject, TableSchema } from '../../contracts/index.ts';
import { cellValue, csvCellsOf, csvColumnsOf, setAtPath } from './csvColumns.ts';
import { csvLines } from './tableExport.ts';

const SEED = 27_2026;

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'n', 'ok', 'meta', 'tags'],
  properties: {
    title: { type: 'string', default: '' },
    n: { type: 'number', default: 0 },
    ok: { type: 'boolean', default: false },
    meta: {
      type: 'object',
      additionalProperties: false,
      required: ['city', 'deep'],
      properties: {
        city: { type: 'string', default: '' },
        deep: { type: 'object', additionalProperties: false, required: ['x'], properties: { x: { type: 'number', default: 0 } } },
      },
    },
    tags: { type: 'array', items: { type: 'string', default: '' } },
  },
} as unknown as TableSchema;
const model = compileTableModel(schema);
const columns = csvColumnsOf(model);

// Any text (quotes, commas, CR/LF, astral characters), any finite number; -0 is stored as 0 (domain.md §4).
const PLAIN = { noNullPrototype: true } as const;
const finite = fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n));
const rowData = fc.record(
  {
    title: fc.string({ unit: 'grapheme', maxLength: 30 }),
    n: finite,
    ok: fc.boolean(),
    meta: fc.record({ city: fc.string({ unit: 'binary', maxLength: 20 }), deep: fc.record({ x: finite }, PLAIN) }, PLAIN),
    tags: fc.array(fc.string({ maxLength: 5 }), { maxLength: 4 }),
  },
  PLAIN,
);

/** A CSV text read back the way the importer reads it (csv-parse, then each column's cell rule). */
function readBack(text: string): { id: string; data: JsonObject }[] {
  const [header, ...records] = parse(text, { bom: true, relax_column_count: true }) as string[][];
  assert.deepEqual(header, ['id', ...columns.map((column) => column.name)]);
  return records.map(([id, ...cells]) => {
    const data: JsonObject = {};
    columns.forEach((column, i) => {
      const value = cellValue(column, cells[i] ?? '');
      assert.ok(value.ok, `${column.name}: ${cells[i]}`);
      setAtPath(data, column.path, value.value);
    });
    return { id: id ?? '', data };
  });
}

describe('CSV columns (portability.md §1)', () => {
  test('columns are the schema leaves in properties order, named by data path; arrays are one column', () => {
    assert.deepEqual(
      columns.map((column) => [column.name, column.kind]),
      [
        ['title', 'string'],
        ['n', 'number'],
        ['ok', 'boolean'],
        ['meta/city', 'string'],
        ['meta/deep/x', 'number'],
        ['tags', 'json'],
      ],
    );
  });

  test('law: rows written as CSV and read back are the same rows', () => {
    fc.assert(
      fc.property(fc.array(rowData, { maxLength: 8 }), (rows) => {
        const text = csvLines([['id', ...columns.map((column) => column.name)], ...rows.map((data, i) => csvCellsOf(columns, `r${i}`, data))]);
        assert.deepEqual(
          readBack(text),
          rows.map((data, i) => ({ id: `r${i}`, data })),
        );
      }),
      { seed: SEED, numRuns: 300, verbose: true },
    );
  });

  test('numbers keep their shortest round-trip form; empty number/boolean/JSON cells take the default', () => {
    assert.deepEqual(csvCellsOf(columns, 'x', { title: 'a', n: 1e21, ok: true, meta: { city: '', deep: { x: 5e-324 } }, tags: [] }), [
      'x',
      'a',
      '1e+21',
      'true',
      '',
      '5e-324',
      '[]',
    ]);
    const [n, ok, tags] = [columns[1], columns[2], columns[5]];
    assert.ok(n && ok && tags);
    assert.deepEqual(
      [cellValue(n, ''), cellValue(ok, ''), cellValue(tags, '')],
      [
        { ok: true, value: 0 },
        { ok: true, value: false },
        { ok: true, value: [] },
      ],
    );
    assert.equal(cellValue(n, '1,5').ok, false);
    assert.equal(cellValue(n, 'Infinity').ok, false);
    assert.equal(cellValue(ok, 'yes').ok, false);
    assert.equal(cellValue(tags, '[1,').ok, false);
  });
});
