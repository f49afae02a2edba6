import { AppError, isAppError, jsonDeepEqual, normalizeRowData } from '../../contracts/index.ts';
import type { DomainEvent, JsonObject } from '../../contracts/index.ts';
import { applyRowPatches } from '../domain/rows/applyRowPatches.ts';
import type { DraftTable, BranchContent } from './branchContent.ts';
import type { BranchCommandData, BranchCommandMetadata, BranchDeciderTools } from './branchCommand.ts';
import { createDraftRefs, requireTable } from './draftRefs.ts';
import { assertForeignKeysExist, type RowToCheck } from './foreignKeys.ts';
import { assertRowsExist, rowsAlreadyExist } from './rowErrors.ts';
import { createTableEdit } from './tableEdit.ts';
import { assertUniqueRows } from './uniqueFields.ts';

/** Validates (INVALID_DATA) and normalizes one row's data; bulk errors carry `rowId` and `index`. */
export function checkedData(table: DraftTable, tools: BranchDeciderTools, rowId: string, data: unknown, index: number, bulk: boolean): RowToCheck {
  tools.rowValidators.validate(table.schema, data, { tableId: table.tableId, rowId, ...(bulk ? { index } : {}) });
  const normalized = normalizeRowData(tools.models(table.schema), data) as JsonObject;
  return bulk ? { rowId, data: normalized, index } : { rowId, data: normalized };
}

/** createRows: valid data, ids new in the table (ROW_ALREADY_EXISTS lists them all), foreign keys exist, unique values. */
export function decideCreateRows(
  state: BranchContent,
  data: BranchCommandData['CreateRows'],
  meta: BranchCommandMetadata,
  tools: BranchDeciderTools,
): DomainEvent[] {
  const table = requireTable(state, data.tableId);
  const rows = data.rows.map((row, index) => checkedData(table, tools, row.rowId, row.data, index, data.bulk));
  const edit = createTableEdit(table);
  const existing = rows.filter((row) => edit.row(row.rowId) !== null).map((row) => row.rowId);
  if (existing.length > 0) throw rowsAlreadyExist(existing);
  assertForeignKeysExist(state, table, rows, tools.models, data.bulk);
  assertUniqueRows(state, table, rows, tools);
  const writes = rows.map((row) => edit.write(row.rowId, row.data, meta.now, meta.now));
  const facts = edit.facts();
  const ref = createDraftRefs(state, meta.projectId).afterTables([facts]);
  return [{ type: 'RowsCreated', data: { ...ref, tableKey: table.tableKey, rows: writes, table: facts } }];
}

/** The tail of update and patch: unchanged rows are no-ops, changed ones keep createdAt and get a new updatedAt. */
function replaceRows(
  state: BranchContent,
  table: DraftTable,
  rows: readonly RowToCheck[],
  bulk: boolean,
  meta: BranchCommandMetadata,
  tools: BranchDeciderTools,
): DomainEvent[] {
  const edit = createTableEdit(table);
  const changed = rows.filter((row) => !jsonDeepEqual(edit.row(row.rowId)?.data, row.data));
  if (changed.length === 0) return [];
  assertForeignKeysExist(state, table, changed, tools.models, bulk);
  assertUniqueRows(state, table, changed, tools);
  const writes = changed.map((row) => {
    const createdAt = edit.row(row.rowId)?.createdAt ?? meta.now;
    return edit.write(row.rowId, row.data, createdAt, meta.now);
  });
  const facts = edit.facts();
  const ref = createDraftRefs(state, meta.projectId).afterTables([facts]);
  return [{ type: 'RowsUpdated', data: { ...ref, tableKey: table.tableKey, rows: writes, table: facts } }];
}

/** Applies one row's patch operations; in a bulk request the INVALID_PATCH details also name the row. */
export function patchedData(current: unknown, rowId: string, patches: unknown, bulk: boolean): unknown {
  try {
    return applyRowPatches(current, patches);
  } catch (err) {
    if (!bulk || !isAppError(err, 'INVALID_PATCH')) throw err;
    const details = (err.details ?? []).map((detail) => ({ ...detail, rowId }));
    throw new AppError('INVALID_PATCH', `Row "${rowId}": ${err.message}`, details);
  }
}

/** updateRows: full replacement; data validated first (input), then existence (ROW_NOT_FOUND lists every id). */
export function decideUpdateRows(
  state: BranchContent,
  data: BranchCommandData['UpdateRows'],
  meta: BranchCommandMetadata,
  tools: BranchDeciderTools,
): DomainEvent[] {
  const table = requireTable(state, data.tableId);
  const rows = data.rows.map((row, index) => checkedData(table, tools, row.rowId, row.data, index, data.bulk));
  assertRowsExist(
    table,
    rows.map((row) => row.rowId),
    data.bulk,
  );
  return replaceRows(state, table, rows, data.bulk, meta, tools);
}

/** patchRows: `replace` operations on existing paths of the current data, then the whole row is validated. */
export function decidePatchRows(
  state: BranchContent,
  data: BranchCommandData['PatchRows'],
  meta: BranchCommandMetadata,
  tools: BranchDeciderTools,
): DomainEvent[] {
  const table = requireTable(state, data.tableId);
  assertRowsExist(
    table,
    data.rows.map((row) => row.rowId),
    data.bulk,
  );
  const edit = createTableEdit(table);
  const rows = data.rows.map((row, index) => {
    const patched = patchedData(edit.row(row.rowId)?.data, row.rowId, row.patches, data.bulk);
    return checkedData(table, tools, row.rowId, patched, index, data.bulk);
  });
  return replaceRows(state, table, rows, data.bulk, meta, tools);
}
