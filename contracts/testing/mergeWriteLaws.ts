// "A merge never loses an acknowledged write on either side" (issue 26 item 5), checked on one merge of the model:
// every change one side made alone (a table added, removed, renamed, its schema patched; a row added, updated,
// renamed, removed) is in the result, unless a conflict about it was resolved for the other side; and every base
// table and row both sides kept is still in the result, wherever the merge moved it (conflicts about ids included).
import type { MergeConflict, SideRowChange, SideTableChange, ThreeWayMergeResult } from '../merge/mergeTypes.ts';
import { convertValue } from '../tables/convertValue.ts';
import { jsonDeepEqual } from '../tables/jsonValue.ts';
import { sameTable, type Content, type Data, type RowMark, type TableContent } from './mergeContent.ts';
import type { MergeCase } from './mergeStep.ts';

export type Law = (ok: boolean, what: string) => void;
export type Applied = { readonly result: ThreeWayMergeResult; readonly after: Content; readonly marks: readonly RowMark[] };

const TABLE_KINDS = new Set(['TABLE_REMOVED_CHANGED', 'TABLE_RENAME', 'TABLE_ID_TAKEN', 'TABLE_SCHEMA']);

/** The other side's change of the same table: same base table, or an addition under the same id. */
export const pairOf = (changes: readonly SideTableChange[], t: SideTableChange) =>
  t.baseTableId !== null
    ? changes.find((o) => o.baseTableId === t.baseTableId)
    : changes.find((o) => o.baseTableId === null && o.tableId === t.tableId);

/** The result table that was our table `table` (a merge keeps its key across renames). */
export const resultTableOf = (after: Content, table: TableContent): [string, TableContent] | undefined =>
  [...after].find(([, t]) => t.key === table.key);

/** Where our row `rowId` went through the merge's row marks; null when the merge removed it. */
export function followRow(marks: readonly RowMark[], tableKey: string, rowId: string): string | null {
  let current: string | null = rowId;
  for (const mark of marks) {
    if (mark.tableKey !== tableKey || current === null) continue;
    if (mark.kind === 'deleted' && mark.rowId === current) current = null;
    else if (mark.kind === 'renamed' && mark.previousRowId === current) current = mark.rowId;
  }
  return current;
}

export function checkWriteLaws(c: MergeCase, applied: Applied, law: Law): void {
  keptTableLaws(c, applied, law);
  const { result, after } = applied;
  const tableConflicts = new Set(result.conflicts.filter((k) => TABLE_KINDS.has(k.kind)).map((k) => k.tableId));
  const involved = (...ids: (string | null | undefined)[]) => ids.some((id) => id !== null && id !== undefined && tableConflicts.has(id));
  /** A table id some side's change puts a table on (so another table may hold it in the result). */
  const landed = (id: string) => [...c.oursChanges, ...c.theirsChanges].some((t) => t.tableId === id);

  for (const tc of c.theirsChanges) {
    const oc = pairOf(c.oursChanges, tc);
    if (involved(tc.tableId, tc.baseTableId, oc?.tableId)) continue;
    if (oc === undefined) {
      if (tc.tableId === null)
        law(!after.has(tc.baseTableId as string) || landed(tc.baseTableId as string), `their removal of table ${tc.baseTableId} is kept`);
      else if (!c.ours.has(tc.tableId) || tc.baseTableId === tc.tableId) {
        const table = after.get(tc.tableId);
        law(
          table !== undefined && sameTable(table, c.theirs.get(tc.tableId) as TableContent),
          `their table ${tc.tableId} (theirs alone changed it) is in the result`,
        );
      }
    } else if (oc.tableId !== null && tc.tableId !== null) rowLaws(c, applied, oc, tc, law);
    else if (oc.tableId === null && tc.tableId === null)
      law(!after.has(tc.baseTableId as string) || landed(tc.baseTableId as string), `table ${tc.baseTableId} removed on both sides is removed`);
  }
  for (const oc of c.oursChanges) {
    if (pairOf(c.theirsChanges, oc) !== undefined || involved(oc.tableId, oc.baseTableId)) continue;
    if (oc.tableId === null)
      law(!after.has(oc.baseTableId as string) || landed(oc.baseTableId as string), `our removal of table ${oc.baseTableId} is kept`);
    else if (!c.theirsChanges.some((t) => t.tableId === oc.tableId)) {
      const table = after.get(oc.tableId);
      law(
        table !== undefined && sameTable(table, c.ours.get(oc.tableId) as TableContent),
        `our table ${oc.tableId} (ours alone changed it) is unchanged`,
      );
    }
  }
}

/**
 * No table is lost: a base table both sides kept is in the result (wherever the merge moved it, a conflict about its
 * id or existence included), with every base row both sides kept.
 */
function keptTableLaws(c: MergeCase, applied: Applied, law: Law): void {
  const sideId = (changes: readonly SideTableChange[], baseId: string, content: Content) => {
    const change = changes.find((t) => t.baseTableId === baseId);
    return change === undefined ? (content.has(baseId) ? baseId : null) : change.tableId;
  };
  for (const [baseId, baseTable] of c.base) {
    const oursId = sideId(c.oursChanges, baseId, c.ours);
    const theirsId = sideId(c.theirsChanges, baseId, c.theirs);
    if (oursId === null || theirsId === null) continue;
    const oursTable = c.ours.get(oursId) as TableContent;
    const found = resultTableOf(applied.after, oursTable);
    law(found !== undefined, `table ${baseId} both sides kept (ours ${oursId}, theirs ${theirsId}) is in the result`);
    const theirsTable = c.theirs.get(theirsId) as TableContent;
    for (const rowId of baseTable.rows.keys()) {
      if (!oursTable.rows.has(rowId) || !theirsTable.rows.has(rowId)) continue;
      const now = followRow(applied.marks, oursTable.key, rowId);
      law(now !== null && found?.[1].rows.has(now) === true, `base row ${baseId}/${rowId} of a table both sides kept is in the result`);
    }
  }
}

/** The laws of one table both sides changed and kept. */
function rowLaws(c: MergeCase, applied: Applied, oc: SideTableChange, tc: SideTableChange, law: Law): void {
  const oursTable = c.ours.get(oc.tableId as string) as TableContent;
  const found = resultTableOf(applied.after, oursTable);
  law(found !== undefined, `table ${oc.tableId} both sides kept is in the result`);
  if (found === undefined) return;
  const [resultId, resultTable] = found;
  const where = `table ${resultId}`;
  if (tc.schemaChanged && !oc.schemaChanged) law(jsonDeepEqual(resultTable.schema, tc.schema), `their schema patch of ${where} is kept`);
  if (oc.schemaChanged && !tc.schemaChanged) law(jsonDeepEqual(resultTable.schema, oc.schema), `our schema patch of ${where} is kept`);
  const conflicts = applied.result.conflicts.filter((k) => k.tableId === oc.tableId || k.tableId === resultId);
  const conflictRows = new Set(conflicts.flatMap((k) => [k.rowId, ...(k.kind === 'ROW_RENAME' ? [k.theirs as string] : [])]));
  const rows = resultTable.rows;
  const schemaMoved = oc.schemaChanged || tc.schemaChanged;
  const resultProps = (resultTable.schema.properties ?? {}) as Data;
  /**
   * Equal data; when a schema moved, equal on every field the result schema keeps (the patch migrated the rest),
   * a field whose node changed (a type change) as the real conversion (domain.md §6) turns the side's value.
   */
  const same = (actual: Data | undefined, expected: Data | null, side: SideTableChange) => {
    if (actual === undefined || expected === null) return false;
    if (!schemaMoved) return jsonDeepEqual(actual, expected);
    const sideProps = ((side.schema as Data | null)?.properties ?? {}) as Data;
    return Object.entries(resultProps).every(
      ([k, node]) =>
        !(k in expected) ||
        jsonDeepEqual(actual[k], jsonDeepEqual(sideProps[k], node) ? expected[k] : convertValue(expected[k], node, undefined, sideProps[k])),
    );
  };
  const touched = (changes: readonly SideRowChange[], change: SideRowChange) =>
    changes.some(
      (o) =>
        (change.baseRowId !== null && o.baseRowId === change.baseRowId) ||
        (change.rowId !== null && (o.rowId === change.rowId || o.baseRowId === change.rowId)),
    );
  const movedOnto = (id: string) => [...oc.rows, ...tc.rows].some((r) => r.rowId === id);

  for (const change of tc.rows) {
    if (touched(oc.rows, change) || conflictRows.has(change.rowId) || conflictRows.has(change.baseRowId)) continue;
    if (change.rowId !== null && change.rowId !== change.baseRowId && oursTable.rows.has(change.rowId)) continue;
    if (change.rowId === null)
      law(!rows.has(change.baseRowId as string) || movedOnto(change.baseRowId as string), `their removal of ${where}/${change.baseRowId} is kept`);
    else law(same(rows.get(change.rowId), change.data, tc), `their change of ${where}/${change.rowId} is kept`);
  }
  for (const change of oc.rows) {
    if (touched(tc.rows, change) || conflictRows.has(change.rowId) || conflictRows.has(change.baseRowId)) continue;
    if (change.rowId === null)
      law(!rows.has(change.baseRowId as string) || movedOnto(change.baseRowId as string), `our removal of ${where}/${change.baseRowId} is kept`);
    else law(same(rows.get(change.rowId), change.data, oc), `our change of ${where}/${change.rowId} is kept`);
  }
  // No row is lost: a base row both sides kept is in the result, wherever the merge moved it.
  const baseRows = c.base.get(tc.baseTableId ?? '')?.rows ?? new Map<string, Data>();
  const theirsTable = c.theirs.get(tc.tableId as string) as TableContent;
  for (const baseRowId of baseRows.keys()) {
    const oursChange = oc.rows.find((r) => r.baseRowId === baseRowId);
    const theirsChange = tc.rows.find((r) => r.baseRowId === baseRowId);
    const oursId = oursChange === undefined ? (oursTable.rows.has(baseRowId) ? baseRowId : null) : oursChange.rowId;
    const theirsId = theirsChange === undefined ? (theirsTable.rows.has(baseRowId) ? baseRowId : null) : theirsChange.rowId;
    if (oursId === null || theirsId === null) continue;
    const now = followRow(applied.marks, oursTable.key, oursId);
    law(now !== null && rows.has(now), `base row ${where}/${baseRowId} (ours ${oursId}) both sides kept is in the result`);
  }
}

/** The result row a conflict about a row settles (row conflicts name the result table; the merge may move the row). */
export function conflictRow(applied: Applied, c: MergeCase, k: MergeConflict): Data | undefined {
  if (k.rowId === null) return undefined;
  const oursTable = [...c.ours.values()].find((t) => resultTableOf(applied.after, t)?.[0] === k.tableId) ?? c.ours.get(k.tableId);
  const table = oursTable === undefined ? applied.after.get(k.tableId) : resultTableOf(applied.after, oursTable)?.[1];
  if (table === undefined) return undefined;
  const moved = oursTable === undefined ? k.rowId : followRow(applied.marks, oursTable.key, k.rowId);
  return table.rows.get(moved ?? k.rowId);
}
