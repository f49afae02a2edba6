import { AppError } from '../../contracts/index.ts';
import type { DraftTable } from './branchContent.ts';
import { createTableEdit } from './tableEdit.ts';

/** Ids named in one error message (the details list up to 100). */
const MAX_IDS_IN_MESSAGE = 20;

export function idList(ids: readonly string[]): string {
  const shown = ids.slice(0, MAX_IDS_IN_MESSAGE).join(', ');
  return ids.length > MAX_IDS_IN_MESSAGE ? `${shown}, …` : shown;
}

export function rowsNotFound(table: DraftTable, missing: readonly string[], bulk: boolean): AppError {
  const [first] = missing;
  const message =
    missing.length === 1 && first !== undefined
      ? `Row "${first}" not found in table "${table.tableId}"`
      : `Rows not found in table "${table.tableId}": ${idList(missing)}`;
  return new AppError('ROW_NOT_FOUND', message, bulk ? missing.map((rowId) => ({ rowId })) : undefined);
}

export function rowsAlreadyExist(existing: readonly string[]): AppError {
  return new AppError(
    'ROW_ALREADY_EXISTS',
    `Rows already exist: ${idList(existing)}`,
    existing.map((rowId) => ({ rowId })),
  );
}

/** ROW_NOT_FOUND listing every id the draft table lacks. */
export function assertRowsExist(table: DraftTable, rowIds: readonly string[], bulk: boolean): void {
  const edit = createTableEdit(table);
  const missing = rowIds.filter((rowId) => edit.row(rowId) === null);
  if (missing.length > 0) throw rowsNotFound(table, missing, bulk);
}
