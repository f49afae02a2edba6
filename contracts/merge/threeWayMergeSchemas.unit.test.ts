import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DraftOperation } from '../commands/draftChanges.ts';
import { threeWayMerge } from './threeWayMerge.ts';
import type { MergeStrategy, SideRowChange } from './mergeTypes.ts';
import { schemaReplay } from './schemaReplay.ts';

// A schema changed on one side is replayed on the base rows and on the other side's rows before rows are compared
// (merge.md §2.1), so all three versions of a row have the result's shape; a schema changed on both sides to the
// same result replays the base rows. Each case runs the merge on the draft (ours) and applies its operations there,
// updateTable migrating every row like the command side.
type Data = Record<string, unknown>;
const str = (fallback = '') => ({ type: 'string', default: fallback });
const int = (fallback = 0) => ({ type: 'integer', default: fallback });
const table = (properties: Record<string, unknown>) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});
const base = table({ title: str(), note: str(), views: str() });
const withoutNote = table({ title: str(), views: str() });
const viewsAsInteger = table({ title: str(), note: str(), views: int() });
const baseRows: Record<string, Data> = {
  r1: { title: 'a', note: 'n1', views: '12' },
  r2: { title: 'b', note: 'n2', views: '7' },
  r3: { title: 'c', note: 'n3', views: 'x' },
};

type Side = { readonly schema: Data; readonly rows: Record<string, Data> };
const side = (schema: Data, change: (row: Data, rowId: string) => Data = (row) => row): Side => ({
  schema,
  rows: Object.fromEntries(Object.entries(baseRows).map(([id, row]) => [id, change(schemaReplay(base, migration(schema))(row), id)])),
});
/** The patches that turn the base schema into these test schemas. */
function migration(schema: Data): unknown[] {
  if (schema === withoutNote) return [{ op: 'remove', path: '/properties/note' }];
  if (schema === viewsAsInteger) return [{ op: 'replace', path: '/properties/views', value: int() }];
  return [];
}

/** A side's diff from the base: its changed rows (equal ones are not listed, as in changes.md §1). */
function diff(s: Side): SideRowChange[] {
  return Object.entries(s.rows)
    .filter(([id, data]) => JSON.stringify(data) !== JSON.stringify(baseRows[id]))
    .map(([id, data]) => ({ baseRowId: id, rowId: id, base: baseRows[id] as Data, data }));
}

function merge(ours: Side, theirs: Side, strategy: MergeStrategy = 'FAIL') {
  const changed = (s: Side) => s.schema !== base;
  const sideTable = (s: Side) => [{ baseTableId: 't', tableId: 't', schemaChanged: changed(s), baseSchema: base, schema: s.schema, rows: diff(s) }];
  const result = threeWayMerge({
    sourceRevisionId: 'src',
    baseRevisionId: 'base',
    ours: sideTable(ours),
    theirs: sideTable(theirs),
    oursTableIds: new Set(['t']),
    oursRow: (_t, id) => ours.rows[id] ?? null,
    resolutions: [],
    strategy,
  });
  return { result, after: applyDraft(ours, result.operations) };
}

/** The draft after the operations: updateTable migrates every row (domain.md §6), then the row operations. */
function applyDraft(ours: Side, operations: readonly DraftOperation[]): Record<string, Data> {
  const rows = new Map(Object.entries(ours.rows));
  for (const op of operations) {
    if (op.type === 'UpdateTable') {
      const replay = schemaReplay(ours.schema, op.patches as unknown[]);
      for (const [id, data] of rows) rows.set(id, replay(data));
    } else if (op.type === 'DeleteRows') for (const id of op.rowIds) rows.delete(id);
    else if (op.type === 'RenameRow') {
      rows.set(op.nextRowId, rows.get(op.rowId) as Data);
      rows.delete(op.rowId);
    } else if (op.type === 'UpsertRows') for (const row of op.rows) rows.set(row.rowId, row.data as Data);
    else assert.fail(`unexpected operation ${op.type}`);
  }
  return Object.fromEntries(rows);
}

const conflictsOf = (result: ReturnType<typeof threeWayMerge>) => result.conflicts.map((c) => [c.kind, c.rowId, c.path]);
const countsOf = (result: ReturnType<typeof threeWayMerge>) => result.tables.map((t) => [t.tableId, t.schemaChanged, t.rowChanges]);
const updated = (n: number) => ({ added: 0, updated: n, removed: 0, renamed: 0, total: n });

test('theirs removed a field, ours edited its value and another field: clean, the field is gone, our edit kept', () => {
  const ours = side(base, (row, id) => (id === 'r1' ? { ...row, note: 'edited' } : id === 'r2' ? { ...row, title: 'B' } : row));
  const { result, after } = merge(ours, side(withoutNote));
  assert.deepEqual(conflictsOf(result), []);
  assert.deepEqual(
    result.operations.map((o) => o.type),
    ['UpdateTable'],
    'rows theirs changed by the migration only are migrated by the updateTable, not rewritten',
  );
  assert.deepEqual(countsOf(result), [['t', true, updated(3)]], 'every row the update migrates counts as changed in the draft');
  assert.deepEqual(after, {
    r1: { title: 'a', views: '12' },
    r2: { title: 'B', views: '7' },
    r3: { title: 'c', views: 'x' },
  });
});

test('ours removed a field, theirs edited its value and another field: clean, theirs edits arrive without the field', () => {
  const theirs = side(base, (row, id) => (id === 'r1' ? { ...row, note: 'edited' } : id === 'r2' ? { ...row, title: 'B' } : row));
  const { result, after } = merge(side(withoutNote), theirs);
  assert.deepEqual(conflictsOf(result), []);
  assert.ok(!result.operations.some((o) => o.type === 'UpdateTable'), 'our schema stays');
  assert.deepEqual(countsOf(result), [['t', false, updated(1)]]);
  assert.deepEqual(after, {
    r1: { title: 'a', views: '12' },
    r2: { title: 'B', views: '7' },
    r3: { title: 'c', views: 'x' },
  });
});

test('theirs changed a type: our values are converted before the comparison, so only real changes count', () => {
  const ours = side(base, (row, id) => (id === 'r1' ? { ...row, title: 'A' } : id === 'r2' ? { ...row, views: '40' } : row));
  const theirs = side(viewsAsInteger, (row, id) => (id === 'r2' ? { ...row, note: 'theirs' } : row));
  const { result, after } = merge(ours, theirs);
  assert.deepEqual(conflictsOf(result), []);
  assert.deepEqual(countsOf(result), [['t', true, updated(3)]]);
  assert.deepEqual(after, {
    r1: { title: 'A', note: 'n1', views: 12 },
    r2: { title: 'b', note: 'theirs', views: 40 },
    r3: { title: 'c', note: 'n3', views: 0 },
  });
});

test('ours changed a type, theirs edited the values: theirs are converted like ours were, a real clash still conflicts', () => {
  const ours = side(viewsAsInteger, (row, id) => (id === 'r3' ? { ...row, views: 5 } : row));
  const theirs = side(base, (row, id) => (id === 'r1' ? { ...row, views: '13' } : id === 'r3' ? { ...row, views: '6' } : row));
  const { result, after } = merge(ours, theirs, 'OURS');
  assert.deepEqual(
    result.conflicts.map((c) => [c.kind, c.rowId, c.path, c.base, c.ours, c.theirs]),
    [['ROW_UPDATE', 'r3', '/views', 0, 5, 6]],
  );
  assert.deepEqual(after, {
    r1: { title: 'a', note: 'n1', views: 13 },
    r2: { title: 'b', note: 'n2', views: 7 },
    r3: { title: 'c', note: 'n3', views: 5 },
  });
});

test('both sides changed the schema to the same result: the base rows are replayed, one-sided edits merge', () => {
  const ours = side(viewsAsInteger, (row, id) => (id === 'r1' ? { ...row, views: 99 } : row));
  const theirs = side(viewsAsInteger, (row, id) => (id === 'r2' ? { ...row, title: 'B' } : row));
  const { result, after } = merge(ours, theirs);
  assert.deepEqual(conflictsOf(result), []);
  assert.deepEqual(after.r1, { title: 'a', note: 'n1', views: 99 });
  assert.deepEqual(after.r2, { title: 'B', note: 'n2', views: 7 });
});

test('both sides changed the schema differently: TABLE_SCHEMA, THEIRS takes the table as theirs has it', () => {
  const ours = side(viewsAsInteger, (row, id) => (id === 'r1' ? { ...row, title: 'A' } : row));
  const theirs = side(withoutNote, (row, id) => (id === 'r2' ? { ...row, title: 'B' } : row));
  const open = merge(ours, theirs);
  assert.deepEqual(conflictsOf(open.result), [['TABLE_SCHEMA', null, null]]);
  assert.deepEqual(open.result.operations, []);
  const { after } = merge(ours, theirs, 'THEIRS');
  assert.deepEqual(after, theirs.rows);
});
