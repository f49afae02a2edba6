import { applySchemaPatch } from '../tables/applySchemaPatch.ts';
import { jsonDeepEqual } from '../tables/jsonValue.ts';
import { normalizeRowData } from '../tables/rowData.ts';
import { compileTableModel } from '../tables/tableModel.ts';
import type { SideRowChange } from './mergeTypes.ts';
import { schemaPatches } from './schemaPatches.ts';

type Data = Record<string, unknown>;

/** Brings one version of a row to the result's schema. */
export type RowReplay = (data: Data) => Data;

const unchanged: RowReplay = (data) => data;

/**
 * What `updateTable(schema, patches)` does to a row (domain.md §6, the same migration and conversions, the row in
 * the stored form of the patched schema), as a function of the row's data. No patches, or patches that change only
 * keywords, leave rows as they are.
 */
export function schemaReplay(schema: Data, patches: readonly unknown[]): RowReplay {
  if (patches.length === 0) return unchanged;
  const patched = applySchemaPatch(schema, patches);
  if (!patched.changesData) return unchanged;
  const model = compileTableModel(patched.schema);
  return (data) => normalizeRowData(model, patched.migrate(data)) as Data;
}

/**
 * The replay that brings rows of schema `from` to schema `to`: the patches the changing side applied since the base
 * (merge.md §2.1), as `schemaPatches` reads them from the two schemas.
 */
export function replayBetween(from: Data, to: Data): RowReplay {
  return jsonDeepEqual(from, to) ? unchanged : schemaReplay(from, schemaPatches(from, to));
}

/** How each version of a table's rows reaches the result's schema before rows are compared (merge.md §2.1). */
export type TableReplay = { readonly base: RowReplay; readonly ours: RowReplay; readonly theirs: RowReplay };

/**
 * The replays of a table whose result takes `result`, from the base, our and their schemas. `logged`: the patches
 * that turn the base schema into `result`, as the changing side applied them (read from the log, a move included);
 * without them they are read from the two schemas.
 */
export function tableReplay(
  schemas: { readonly base: Data; readonly ours: Data; readonly theirs: Data },
  result: Data,
  logged?: readonly unknown[],
): TableReplay {
  const base = logged === undefined ? replayBetween(schemas.base, result) : schemaReplay(schemas.base, logged);
  return {
    base,
    ours: jsonDeepEqual(schemas.ours, schemas.base) ? base : replayBetween(schemas.ours, result),
    theirs: jsonDeepEqual(schemas.theirs, schemas.base) ? base : replayBetween(schemas.theirs, result),
  };
}

/** One side's changed rows with their base version and their data brought to the result's schema. */
export function replayRows(rows: readonly SideRowChange[], base: RowReplay, data: RowReplay): SideRowChange[] {
  if (base === unchanged && data === unchanged) return [...rows];
  return rows.map((row) => ({
    ...row,
    base: row.base === null ? null : base(row.base),
    data: row.data === null ? null : data(row.data),
  }));
}

/**
 * Ids of the draft's rows a schema update to the result's schema changes, among the rows either side changed (each
 * side's rows as read and as `replayRows` brought them to the result): our rows whose replay differs from them, and
 * base rows only theirs changed whose replay differs from the base (the draft holds them as in the base). The other
 * rows of the draft are base rows the changing side's diff does not list: its migration left them as they were.
 */
export function migratedRowIds(
  ours: readonly SideRowChange[],
  oursReplayed: readonly SideRowChange[],
  theirs: readonly SideRowChange[],
  theirsReplayed: readonly SideRowChange[],
): string[] {
  const out: string[] = [];
  const oursBaseIds = new Set<string>();
  ours.forEach((row, index) => {
    if (row.baseRowId !== null) oursBaseIds.add(row.baseRowId);
    if (row.rowId !== null && row.data !== null && !jsonDeepEqual(oursReplayed[index]?.data, row.data)) out.push(row.rowId);
  });
  theirs.forEach((row, index) => {
    if (row.baseRowId === null || row.base === null || oursBaseIds.has(row.baseRowId)) return;
    if (!jsonDeepEqual(theirsReplayed[index]?.base, row.base)) out.push(row.baseRowId);
  });
  return out;
}
