import { MAX_ERROR_DETAILS } from '../../contracts/index.ts';
import type { DraftOperationResult, ErrorDetail, InvalidDraftRow, JsonObject } from '../../contracts/index.ts';
import { draftRow, draftTable, type BranchContent } from './branchContent.ts';
import type { BranchDeciderTools } from './branchCommand.ts';
import { invalidMigratedData } from './updateTableDecision.ts';

/** A row an UpdateTable operation migrated into data its schema refuses: the operation's index, by table key and row id. */
export type MigratedRows = Map<string, Map<string, number>>;

/** Records a failing migrated row of operation `index`. */
export function addMigratedRow(rows: MigratedRows, tableKey: string, rowId: string, index: number): void {
  let table = rows.get(tableKey);
  if (table === undefined) rows.set(tableKey, (table = new Map()));
  table.set(rowId, index);
}

/** A later RenameRow moves the row: it is checked under its new id. */
export function renameMigratedRow(rows: MigratedRows, tableKey: string, rowId: string, nextRowId: string): void {
  const table = rows.get(tableKey);
  const index = table?.get(rowId);
  if (table === undefined || index === undefined) return;
  table.delete(rowId);
  table.set(nextRowId, index);
}

type Violation = { readonly rowId: string; readonly path: string; readonly message: string; readonly keyword: string };

/**
 * The rows UpdateTable operations migrated into invalid data, checked on the final draft as a deferred constraint: a
 * later write of the command may have corrected them, a later deletion removed them. Those still invalid refuse the
 * command with the error the single updateTable gives (INVALID_DATA naming each row) or, when their operation has
 * `onInvalidRow: 'report'` (dry runs only), are reported in its result with their data.
 */
export function checkMigratedRows(
  state: BranchContent,
  rows: MigratedRows,
  operations: DraftOperationResult[],
  reports: ReadonlySet<number>,
  tools: BranchDeciderTools,
): void {
  for (const [tableKey, rowIds] of rows) {
    const table = draftTable(state, tableKey);
    if (table === null) continue;
    const violations: Violation[] = [];
    const failed = new Set<string>();
    let total = 0;
    for (const [rowId, index] of rowIds) {
      const row = draftRow(table, rowId);
      if (row === null) continue;
      const found = tools.rowValidators.check(table.schema, row.data);
      if (found.length === 0) continue;
      const operation = operations[index];
      if (reports.has(index) && operation !== undefined) {
        operations[index] = { ...operation, invalid: [...operation.invalid, invalidRow(operation.invalid.length, rowId, row.data, found)] };
        continue;
      }
      total += found.length;
      failed.add(rowId);
      for (const v of found) if (violations.length < MAX_ERROR_DETAILS) violations.push({ ...v, rowId });
    }
    if (total > 0) throw invalidMigratedData(table.tableId, violations, total, failed.size);
  }
}

function invalidRow(
  index: number,
  rowId: string,
  data: JsonObject,
  found: readonly { path: string; message: string; keyword: string }[],
): InvalidDraftRow {
  const details: ErrorDetail[] = found.map((v) => ({ path: v.path, message: v.message, keyword: v.keyword, rowId }));
  const [first] = found;
  const message = first === undefined ? 'Validation failed' : `Validation error at "${first.path}" for row "${rowId}": ${first.message}`;
  return { index, rowId, code: 'INVALID_DATA', message, details, data };
}
