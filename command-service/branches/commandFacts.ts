import type { DraftOperation } from '../../contracts/index.ts';
import { draftTable, type BranchContent } from './branchContent.ts';
import type { BranchCommandBody, BranchDeciderTools } from './branchCommand.ts';
import { uniqueValueAt } from '../domain/rows/uniqueClashes.ts';
import { addValueMiss, type ValueMisses } from './factRows.ts';
import { foreignKeyValues } from './foreignKeys.ts';
import { valueKey } from './headValueIndexes.ts';
import { readsHoldersByValue, uniqueFieldsOf } from './uniqueFields.ts';

/**
 * What a command will read, per table id: named rows, whether it reads the whole table, and the unique values its
 * rows write (as value misses keyed by the table id: the holders the unique check asks for).
 */
type Need = { rows: Set<string>; whole: boolean; values: Map<string, ValueMisses> };
type Needs = Map<string, Need>;

function need(needs: Needs, tableId: string): Need {
  let entry = needs.get(tableId);
  if (entry === undefined) {
    entry = { rows: new Set(), whole: false, values: new Map() };
    needs.set(tableId, entry);
  }
  return entry;
}

/** The values the rows write at the table's `x-unique` paths (the unique check asks who holds each). */
function uniqueValues(
  state: BranchContent,
  tools: BranchDeciderTools,
  tableId: string,
  rows: readonly { readonly data?: unknown }[],
  needs: Needs,
): void {
  const tableKey = state.draftIds.get(tableId);
  const table = tableKey === undefined ? null : draftTable(state, tableKey);
  if (table === null || !readsHoldersByValue(state, table)) return;
  const fields = uniqueFieldsOf(table.schema, tools.models);
  if (fields.length === 0) return;
  const values = need(needs, tableId).values;
  for (const field of fields) {
    const pathKey = JSON.stringify(field.dataPath);
    let asked = values.get(pathKey);
    if (asked === undefined) {
      asked = { dataPath: field.dataPath, values: new Map() };
      values.set(pathKey, asked);
    }
    for (const row of rows) {
      const value = uniqueValueAt(row.data, field.dataPath);
      if (value !== null) asked.values.set(valueKey(value), value);
    }
  }
}

/** Rows a written row's foreign keys name (the targets its check reads), when its table's schema is known. */
function foreignKeyTargets(
  state: BranchContent,
  tools: BranchDeciderTools,
  tableId: string,
  rows: readonly { readonly data?: unknown }[],
  needs: Needs,
): void {
  const tableKey = state.draftIds.get(tableId);
  const table = tableKey === undefined ? undefined : (state.draft.get(tableKey) ?? state.head.get(tableKey));
  if (!table) return;
  for (const field of tools.models(table.schema).foreignKeys) {
    const target = need(needs, field.tableId).rows;
    for (const row of rows) for (const { value } of foreignKeyValues(row.data, field.dataPath)) if (value !== '') target.add(value);
  }
}

function operationNeeds(state: BranchContent, tools: BranchDeciderTools, op: DraftOperation, needs: Needs): void {
  switch (op.type) {
    case 'CreateRows':
    case 'UpdateRows':
    case 'UpsertRows':
    case 'PatchRows':
      for (const row of op.rows) need(needs, op.tableId).rows.add(row.rowId);
      if (op.type !== 'PatchRows') {
        foreignKeyTargets(state, tools, op.tableId, op.rows, needs);
        uniqueValues(state, tools, op.tableId, op.rows, needs);
      }
      return;
    case 'DeleteRows':
      for (const rowId of op.rowIds) need(needs, op.tableId).rows.add(rowId);
      return;
    case 'RenameRow':
      need(needs, op.tableId).rows.add(op.rowId).add(op.nextRowId);
      return;
    case 'UpdateTable':
      need(needs, op.tableId).whole = true;
      return;
    case 'CreateTable':
    case 'RenameTable':
    case 'DeleteTable':
      return;
    default: {
      const never: never = op;
      return never;
    }
  }
}

/**
 * The facts-gathering function of each command kind (docs/reference/versioned-storage.md §2): the rows a command
 * names and the foreign-key targets of the rows it writes, gathered before its first decision so that it usually
 * needs no second round. Whatever else the rules read (referrers, rows a patch makes a foreign key name) is
 * gathered when the decision asks for it. Unique values (domain.md §5.5) join here: one layered index read per
 * `x-unique` path of the written values.
 */
export function commandNeeds(state: BranchContent, tools: BranchDeciderTools, body: BranchCommandBody): Needs {
  const needs: Needs = new Map();
  switch (body.type) {
    case 'CreateRows':
    case 'UpdateRows':
    case 'PatchRows':
    case 'DeleteRows':
    case 'RenameRow':
    case 'UpdateTable':
      operationNeeds(state, tools, { ...body.data, type: body.type } as DraftOperation, needs);
      return needs;
    case 'ApplyDraftChanges':
      for (const op of body.data.operations) operationNeeds(state, tools, op, needs);
      return needs;
    case 'CreateTable':
    case 'RenameTable':
    case 'DeleteTable':
    case 'CreateRevision':
    case 'RevertChanges':
      return needs;
    default: {
      const never: never = body;
      return never;
    }
  }
}

/** Records what `body` will read as misses of `state`, for the store to gather before deciding. */
export function recordCommandNeeds(state: BranchContent, tools: BranchDeciderTools, body: BranchCommandBody): void {
  const misses = state.facts?.misses;
  if (misses === undefined) return;
  for (const [tableId, { rows, whole, values }] of commandNeeds(state, tools, body)) {
    const tableKey = state.draftIds.get(tableId);
    if (tableKey === undefined) continue;
    for (const asked of values.values()) {
      for (const [key, value] of asked.values) addValueMiss(misses, tableKey, asked.dataPath, key, value);
    }
    if (whole) {
      misses.fullHead.add(tableKey);
      misses.fullDraft.add(tableKey);
    }
    if (rows.size === 0) continue;
    const ids = misses.rows.get(tableKey) ?? new Set<string>();
    for (const rowId of rows) ids.add(rowId);
    misses.rows.set(tableKey, ids);
  }
}
