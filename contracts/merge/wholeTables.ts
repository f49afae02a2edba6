import { jsonDeepEqual } from '../tables/jsonValue.ts';
import type { MergeTake, SideRowChange } from './mergeTypes.ts';
import type { TableWriter } from './mergeWriters.ts';

type Data = Record<string, unknown>;

/** How a conflict was settled (a resolution or the strategy); null while it is open. */
export type Choice = { readonly take: MergeTake; readonly value: unknown } | null;

/** Row conflicts resolved with the whole row (ROW_REMOVED_CHANGED, ROW_ID_TAKEN of an added row). */
export function applyRowChoice(writer: TableWriter, choice: Choice, rowId: string, theirs: Data | null, kind: 'added' | 'updated'): void {
  if (choice === null || choice.take === 'OURS') return;
  if (choice.take === 'REMOVE' || (choice.take === 'THEIRS' && theirs === null)) writer.remove(rowId);
  else writer.upsert(rowId, (choice.take === 'VALUE' ? choice.value : theirs) as Data, kind);
}

/** Resolutions of the result checks: a row's data in the result, or null to leave it out. */
export function applyOverrides(writer: TableWriter, rows: ReadonlyMap<string, Data | null>): void {
  for (const [rowId, data] of rows) {
    if (data === null) writer.leaveOut(rowId);
    else writer.upsert(rowId, data, 'updated');
  }
}

/** The rows of theirs' table: the base rows (ours lists them all when it removed the table) with theirs' changes. */
export function theirsRowsOver(oursRows: readonly SideRowChange[], theirsRows: readonly SideRowChange[]): [string, Data][] {
  const rows = new Map<string, Data>();
  for (const row of oursRows) if (row.baseRowId !== null && row.base !== null) rows.set(row.baseRowId, row.base);
  for (const row of theirsRows) if (row.baseRowId !== null) rows.delete(row.baseRowId);
  for (const row of theirsRows) if (row.rowId !== null && row.data !== null) rows.set(row.rowId, row.data);
  return [...rows];
}

/** Every row either side changed becomes theirs' version (a table taken whole from theirs). */
export function takeTheirsRows(writer: TableWriter, oursRows: readonly SideRowChange[], theirsRows: readonly SideRowChange[]): void {
  const theirsByBaseRow = new Map(theirsRows.filter((r) => r.baseRowId !== null).map((r) => [r.baseRowId as string, r]));
  const theirsAddedIds = new Set(theirsRows.filter((r) => r.baseRowId === null).map((r) => r.rowId as string));
  const oursByBaseRow = new Map(oursRows.filter((r) => r.baseRowId !== null).map((r) => [r.baseRowId as string, r]));
  for (const oc of oursRows) {
    if (oc.baseRowId === null) {
      if (!theirsAddedIds.has(oc.rowId as string)) writer.remove(oc.rowId as string);
    } else if (!theirsByBaseRow.has(oc.baseRowId)) {
      // Theirs kept the base row: back to the base version under the base id.
      if (oc.rowId === null) writer.upsert(oc.baseRowId, oc.base as Data, 'added');
      else {
        if (oc.rowId !== oc.baseRowId) writer.renameRow(oc.rowId, oc.baseRowId);
        if (!jsonDeepEqual(oc.data, oc.base)) writer.upsert(oc.baseRowId, oc.base as Data, 'updated');
      }
    }
  }
  for (const tc of theirsRows) {
    if (tc.baseRowId === null) {
      writer.upsert(tc.rowId as string, tc.data as Data, 'added');
      continue;
    }
    const oc = oursByBaseRow.get(tc.baseRowId);
    const current = oc === undefined ? tc.baseRowId : oc.rowId;
    if (tc.rowId === null) {
      if (current !== null) writer.remove(current);
    } else if (current === null) writer.upsert(tc.rowId, tc.data as Data, 'added');
    else {
      if (current !== tc.rowId) writer.renameRow(current, tc.rowId);
      if (!jsonDeepEqual(oc?.data ?? tc.base, tc.data)) writer.upsert(tc.rowId, tc.data as Data, 'updated');
    }
  }
}
