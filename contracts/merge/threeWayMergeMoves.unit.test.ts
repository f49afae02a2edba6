import { test } from 'node:test';
import assert from 'node:assert/strict';
import { threeWayMerge } from './threeWayMerge.ts';
import type { SideRowChange, SideTableChange } from './mergeTypes.ts';
import type { SchemaPatch } from './schemaPatches.ts';
import { schemaReplay } from './schemaReplay.ts';

// A field renamed on one side (a `move` patch, domain.md §6): with the side's patches from the log the merge
// replays the move on the other side's rows and hands it to the draft's updateTable (merge.md §2.1); without them
// it recomputes patches from the schemas, which see a removal plus an addition.
type Data = Record<string, unknown>;
const str = { type: 'string', default: '' };
const table = (properties: Record<string, unknown>): Data => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});
const base = table({ name: str, city: str });
const renamed = table({ city: str, title: str });
const toTitle: SchemaPatch[] = [{ op: 'move', from: '/properties/name', path: '/properties/title' }];
const row = (baseRowId: string | null, rowId: string, before: Data | null, data: Data): SideRowChange => ({ baseRowId, rowId, base: before, data });

function sideTable(schema: Data, rows: SideRowChange[], patches?: SchemaPatch[]): SideTableChange {
  const changed = schema !== base;
  return { baseTableId: 't', tableId: 't', schemaChanged: changed, baseSchema: base, schema, rows, ...(patches ? { patches } : {}) };
}

function merge(ours: SideTableChange, theirs: SideTableChange) {
  return threeWayMerge({
    sourceRevisionId: 'src',
    baseRevisionId: 'base',
    ours: [ours],
    theirs: [theirs],
    oursTableIds: new Set(['t']),
    oursRow: () => null,
    resolutions: [],
    strategy: 'FAIL',
  });
}

const oursEdits = [
  row('bob', 'bob', { name: 'Bob', city: 'Lyon' }, { name: 'Robert', city: 'Lyon' }),
  row(null, 'dave', null, { name: 'Dave', city: 'Oslo' }),
];
const theirsMigrated = [row('bob', 'bob', { name: 'Bob', city: 'Lyon' }, { city: 'Lyon', title: 'Bob' })];
/** Our draft: the base rows with our edits. */
const draft: Record<string, Data> = {
  alice: { name: 'Alice', city: 'Paris' },
  bob: { name: 'Robert', city: 'Lyon' },
  dave: { name: 'Dave', city: 'Oslo' },
};

/** The draft after the operations: updateTable migrates every row (domain.md §6), then rows are written. */
function applyDraft(rows: Record<string, Data>, schema: Data, result: ReturnType<typeof merge>): Record<string, Data> {
  const out = new Map(Object.entries(rows));
  for (const op of result.operations) {
    if (op.type === 'UpdateTable') {
      const replay = schemaReplay(schema, op.patches as unknown[]);
      for (const [id, data] of out) out.set(id, replay(data));
    } else if (op.type === 'UpsertRows') for (const r of op.rows) out.set(r.rowId, r.data as Data);
    else assert.fail(`unexpected operation ${op.type}`);
  }
  return Object.fromEntries(out);
}

test('theirs moved name to title (patches from the log): the update carries the move, our edits land under title', () => {
  const result = merge(sideTable(base, oursEdits), sideTable(renamed, theirsMigrated, toTitle));
  assert.deepEqual(result.open, []);
  assert.deepEqual(result.operations, [{ type: 'UpdateTable', tableId: 't', patches: toTitle }]);
  assert.deepEqual(applyDraft(draft, base, result), {
    alice: { city: 'Paris', title: 'Alice' },
    bob: { city: 'Lyon', title: 'Robert' },
    dave: { city: 'Oslo', title: 'Dave' },
  });
});

test('ours moved name to title (patches from the log): theirs edits and rows arrive under title', () => {
  const oursMigrated = [row('bob', 'bob', { name: 'Bob', city: 'Lyon' }, { city: 'Lyon', title: 'Bob' })];
  const result = merge(sideTable(renamed, oursMigrated, toTitle), sideTable(base, oursEdits));
  assert.deepEqual(result.open, []);
  const ourDraft = { alice: { city: 'Paris', title: 'Alice' }, bob: { city: 'Lyon', title: 'Bob' } };
  assert.deepEqual(applyDraft(ourDraft, renamed, result), {
    alice: { city: 'Paris', title: 'Alice' },
    bob: { city: 'Lyon', title: 'Robert' },
    dave: { city: 'Oslo', title: 'Dave' },
  });
});

test('without the patches (fallback) the rename is recomputed as a removal plus an addition: the edits are lost', () => {
  const result = merge(sideTable(base, oursEdits), sideTable(renamed, theirsMigrated));
  assert.deepEqual(result.operations[0], {
    type: 'UpdateTable',
    tableId: 't',
    patches: [
      { op: 'remove', path: '/properties/name' },
      { op: 'add', path: '/properties/title', value: str },
    ],
  });
  assert.deepEqual(applyDraft(draft, base, result), {
    alice: { city: 'Paris', title: '' },
    bob: { city: 'Lyon', title: 'Bob' },
    dave: { city: 'Oslo', title: '' },
  });
});

test('both sides changed the schema: the logged patches are not used (equal schemas merge, different ones conflict)', () => {
  const other = table({ city: str, heading: str });
  const toHeading: SchemaPatch[] = [{ op: 'move', from: '/properties/name', path: '/properties/heading' }];
  const conflicting = merge(sideTable(other, [], toHeading), sideTable(renamed, [], toTitle));
  assert.deepEqual(
    conflicting.open.map((c) => c.kind),
    ['TABLE_SCHEMA'],
  );
  const same = merge(sideTable(renamed, [], toTitle), sideTable(renamed, [], toTitle));
  assert.deepEqual([same.open, same.operations], [[], []]);
});
