import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAppError, jsonDeepEqual } from '../../contracts/index.ts';
import type { DomainEvent, TableFacts } from '../../contracts/index.ts';
import { draftRows, draftTable, type BranchContent } from './branchContent.ts';
import type { BranchCommandBody } from './branchCommand.ts';
import { createBranchSpec } from '../testing/branchDeciderSpec.ts';
import { commit, createRows, createTable, deleteRows, updateRows, usersSchema } from '../testing/specSchemas.ts';

/** Content of a table as domain.md §4 compares it: id, schema, rows (id -> data). */
type Content = { tableId: string; schema: unknown; rows: Map<string, unknown> };

function draftContent(state: BranchContent): Map<string, Content> {
  const out = new Map<string, Content>();
  for (const key of state.draftIds.values()) {
    const table = draftTable(state, key);
    if (table) out.set(key, { tableId: table.tableId, schema: table.schema, rows: new Map([...draftRows(table)].map(([id, r]) => [id, r.data])) });
  }
  return out;
}

function headContent(state: BranchContent): Map<string, Content> {
  const out = new Map<string, Content>();
  for (const [key, t] of state.head)
    out.set(key, { tableId: t.tableId, schema: t.schema, rows: new Map([...t.rows].map(([id, r]) => [id, r.data])) });
  return out;
}

const sameContent = (a: Content | undefined, b: Content | undefined): boolean =>
  a !== undefined &&
  b !== undefined &&
  a.tableId === b.tableId &&
  jsonDeepEqual(a.schema, b.schema) &&
  jsonDeepEqual(Object.fromEntries(a.rows), Object.fromEntries(b.rows));

function factsOf(event: DomainEvent): TableFacts[] {
  switch (event.type) {
    case 'TableRenamed':
      return [event.data.table, ...event.data.schemaRewrites.map((r) => r.table)];
    case 'TableCreated':
    case 'TableSchemaUpdated':
    case 'RowsCreated':
    case 'RowsUpdated':
    case 'RowsDeleted':
    case 'RowRenamed':
      return [event.data.table];
    default:
      return [];
  }
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('derived facts (count, equalsHead, restored, draftHasChanges) match the folded content after random edits', () => {
  const next = random(42);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const spec = createBranchSpec();
  spec.exec(createTable('t', usersSchema));
  spec.exec(commit());
  const rowIds = ['a', 'b', 'c', 'd'];
  const names = ['x', 'y'];
  const tableIds = ['t', 'u'];
  let applied = 0;
  for (let step = 0; step < 600; step++) {
    const tableId = pick(tableIds);
    const roll = next();
    let body: BranchCommandBody;
    if (roll < 0.25) body = createRows(tableId, [{ rowId: pick(rowIds), data: { name: pick(names) } }]);
    else if (roll < 0.5) body = updateRows(tableId, [{ rowId: pick(rowIds), data: { name: pick(names) } }]);
    else if (roll < 0.62) body = deleteRows(tableId, [pick(rowIds)]);
    else if (roll < 0.72) body = { type: 'RenameRow', data: { tableId, rowId: pick(rowIds), nextRowId: pick(rowIds) } };
    else if (roll < 0.8) body = { type: 'RenameTable', data: { tableId, nextTableId: tableId === 't' ? 'u' : 't' } };
    else if (roll < 0.87) {
      const patches = next() < 0.5 ? [{ op: 'add', path: '/properties/name/title', value: 'T' }] : [{ op: 'remove', path: '/properties/name/title' }];
      body = { type: 'UpdateTable', data: { tableId, patches } };
    } else if (roll < 0.93) body = commit();
    else body = { type: 'RevertChanges', data: {} };
    let events: DomainEvent[];
    try {
      events = spec.exec(body);
    } catch (err) {
      if (isAppError(err)) continue;
      throw err;
    }
    applied += events.length;
    const draft = draftContent(spec.state);
    const head = headContent(spec.state);
    for (const event of events) {
      for (const facts of factsOf(event)) {
        const content = draft.get(facts.tableKey);
        assert.equal(facts.count, content?.rows.size, `count after ${event.type}`);
        assert.equal(facts.equalsHead, sameContent(content, head.get(facts.tableKey)), `equalsHead after ${event.type}`);
      }
    }
    const differs = draft.size !== head.size || [...draft].some(([key, content]) => !sameContent(content, head.get(key)));
    assert.equal(spec.state.draft.size > 0, differs, `hasChanges after ${body.type}`);
    const last = events[events.length - 1];
    if (last && 'draftHasChanges' in last.data) assert.equal(last.data.draftHasChanges, differs);
    // The overlay holds only rows that differ from HEAD.
    for (const [key, overlay] of spec.state.draft) {
      for (const [rowId, row] of overlay?.rows ?? []) {
        const headRow = spec.state.head.get(key)?.rows.get(rowId);
        assert.ok(row === null ? headRow !== undefined : !headRow || !jsonDeepEqual(headRow.data, row.data));
      }
    }
  }
  assert.ok(applied > 100);
});
