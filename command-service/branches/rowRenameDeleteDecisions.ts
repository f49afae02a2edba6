import { AppError } from '../../contracts/index.ts';
import type { DomainEvent, JsonObject, RowWrite } from '../../contracts/index.ts';
import { draftRows, type BranchContent, type DraftTable } from './branchContent.ts';
import type { BranchCommandData, BranchCommandMetadata, BranchDeciderTools } from './branchCommand.ts';
import { createDraftRefs, requireTable } from './draftRefs.ts';
import { assertRowsNotReferenced, referencesAny, referencingTables, rewriteForeignKeyValue } from './foreignKeys.ts';
import { assertRowsExist, rowsAlreadyExist, rowsNotFound } from './rowErrors.ts';
import { createTableEdit } from './tableEdit.ts';

/**
 * renameRow (domain.md §7): the row keeps createdAt and gets a new updatedAt; every foreign-key value holding the
 * old id in the draft is rewritten (one RowsUpdated per referencing table, same append). Rewriting a table outside
 * the key's table scope is refused (API_KEY_SCOPE); rewritten rows are validated like any update.
 */
export function decideRenameRow(
  state: BranchContent,
  data: BranchCommandData['RenameRow'],
  meta: BranchCommandMetadata,
  tools: BranchDeciderTools,
): DomainEvent[] {
  const table = requireTable(state, data.tableId);
  const edit = createTableEdit(table);
  const current = edit.row(data.rowId);
  if (current === null) throw rowsNotFound(table, [data.rowId], false);
  if (edit.row(data.nextRowId) !== null) throw rowsAlreadyExist([data.nextRowId]);
  edit.remove(data.rowId);
  const row = edit.write(data.nextRowId, current.data, current.createdAt, meta.now);
  const refs = createDraftRefs(state, meta.projectId);
  const facts = edit.facts();
  const events: DomainEvent[] = [
    { type: 'RowRenamed', data: { ...refs.afterTables([facts]), tableKey: table.tableKey, rowId: data.rowId, row, table: facts } },
  ];
  const renamed = new Set([data.rowId]);
  for (const { table: other, fields } of referencingTables(state, table.tableId, tools.models)) {
    const otherEdit = createTableEdit(other);
    const writes: RowWrite[] = [];
    for (const [rowId, record] of draftRows(other)) {
      if (!referencesAny(record.data, fields, renamed)) continue;
      if (!meta.tableInScope(other.tableId)) {
        throw new AppError('API_KEY_SCOPE', `API key scope does not allow access to table "${other.tableId}"`);
      }
      let next: unknown = record.data;
      for (const field of fields) next = rewriteForeignKeyValue(next, field.dataPath, data.rowId, data.nextRowId);
      tools.rowValidators.validate(other.schema, next, { tableId: other.tableId, rowId, rowIdInDetails: true });
      writes.push(otherEdit.write(rowId, next as JsonObject, record.createdAt, meta.now));
    }
    if (writes.length === 0) continue;
    const otherFacts = otherEdit.facts();
    events.push({
      type: 'RowsUpdated',
      data: { ...refs.afterTables([otherFacts]), tableKey: other.tableKey, rows: writes, table: otherFacts },
    });
  }
  return events;
}

/** deleteRows: every id must exist; no other row may reference a deleted one afterwards (FOREIGN_KEY_IN_USE). */
export function decideDeleteRows(
  state: BranchContent,
  data: BranchCommandData['DeleteRows'],
  meta: BranchCommandMetadata,
  tools: BranchDeciderTools,
): DomainEvent[] {
  const table = requireTable(state, data.tableId);
  assertRowsExist(table, data.rowIds, data.bulk);
  assertRowsNotReferenced(state, table, new Set(data.rowIds), tools.models);
  return rowsDeletedEvents(state, table, data.rowIds, meta);
}

/** The RowsDeleted of existing rows (the checks are the caller's). */
export function rowsDeletedEvents(state: BranchContent, table: DraftTable, rowIds: readonly string[], meta: BranchCommandMetadata): DomainEvent[] {
  const edit = createTableEdit(table);
  for (const rowId of rowIds) edit.remove(rowId);
  const facts = edit.facts();
  const ref = createDraftRefs(state, meta.projectId).afterTables([facts]);
  return [{ type: 'RowsDeleted', data: { ...ref, tableKey: table.tableKey, rowIds: [...rowIds], table: facts } }];
}
