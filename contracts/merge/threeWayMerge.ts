/* eslint-disable max-lines -- over 300 lines of code once formatted; to be split along its seams (left for the next round) */
import { AppError } from '../errors/appError.ts';
import type { DraftOperation } from '../commands/draftChanges.ts';
import { jsonDeepEqual } from '../tables/jsonValue.ts';
import { conflictIdOf, hasLeaf, orderConflicts } from './conflictIds.ts';
import { mergeData, type LeafConflict } from './dataMerge.ts';
import {
  ALLOWED_TAKES,
  type MergeConflict,
  type MergeConflictKind,
  type MergeTableChange,
  type SideRowChange,
  type SideTableChange,
  type ThreeWayMergeInput,
  type ThreeWayMergeResult,
} from './mergeTypes.ts';
import { holderFate } from './idHolders.ts';
import { schemaPatches } from './schemaPatches.ts';
import { tablesMovingAway } from './tableHolders.ts';
import { createTableWriter, orderOperations, type TableWriter } from './mergeWriters.ts';
import { applyOverrides, applyRowChoice, takeTheirsRows, theirsRowsOver, type Choice } from './wholeTables.ts';

type Data = Record<string, unknown>;

/**
 * The three-way merge of merge.md §2 over the two change sets since the base: pure, and costing what the changes
 * cost (rows neither side changed are never looked at). Table rules §2.1, row rules §2.2 (identities paired across
 * renames by the diffs), leaf-level data merge, conflicts with stable ids, resolutions and strategies §2.4. The
 * result checks of §2.3 are made by the caller (a dry run of the operations) and come back as `rowOverrides`.
 */
export function threeWayMerge(input: ThreeWayMergeInput): ThreeWayMergeResult {
  const conflicts: MergeConflict[] = [];
  const open: MergeConflict[] = [];
  const resolutions = new Map(input.resolutions.map((r) => [r.conflictId, r]));
  const writers = new Map<string, TableWriter>();
  const preOps: DraftOperation[] = [];

  function writerFor(tableId: string, previousTableId: string | null, kind: MergeTableChange['change']): TableWriter {
    let writer = writers.get(tableId);
    if (writer === undefined) writers.set(tableId, (writer = createTableWriter(tableId, previousTableId, kind)));
    return writer;
  }

  function conflict(
    kind: MergeConflictKind,
    tableId: string,
    rowId: string | null,
    path: string | null,
    values: { base: unknown; ours: unknown; theirs: unknown },
  ): Choice {
    const { base, ours, theirs } = values;
    const id = conflictIdOf([input.sourceRevisionId, input.baseRevisionId, kind, tableId, rowId, path, base, ours, theirs]);
    const found: MergeConflict = { id, kind, tableId, rowId, path, base, ours, theirs, details: null };
    conflicts.push(found);
    const resolution = resolutions.get(id);
    if (resolution !== undefined) {
      if (!ALLOWED_TAKES[kind].includes(resolution.take)) {
        const message = `take ${resolution.take} is not allowed for a ${kind} conflict`;
        throw new AppError('BAD_USER_INPUT', message, [{ path: `/resolutions/${resolution.conflictId}`, message }]);
      }
      return { take: resolution.take, value: resolution.value };
    }
    if (input.strategy !== 'FAIL') return { take: input.strategy, value: undefined };
    open.push(found);
    return null;
  }

  const theirsByBase = new Map<string, SideTableChange>();
  const theirsAdded: SideTableChange[] = [];
  for (const table of input.theirs) {
    if (table.baseTableId === null) theirsAdded.push(table);
    else theirsByBase.set(table.baseTableId, table);
  }
  const oursByBase = new Map<string, SideTableChange>();
  const oursAddedById = new Map<string, SideTableChange>();
  for (const table of input.ours) {
    if (table.baseTableId === null) oursAddedById.set(table.tableId as string, table);
    else oursByBase.set(table.baseTableId, table);
  }
  const movingAway = tablesMovingAway(input.oursTableIds, oursByBase, theirsByBase);
  /** Our table ids a table of theirs cannot take: every table of the draft but the paired one and those theirs moves. */
  const heldOnOurs = (id: string) => input.oursTableIds.has(id) && !movingAway.has(id);
  const takenOnOurs = (id: string, pairedOursId: string | null) => id !== pairedOursId && heldOnOurs(id);

  for (const [baseTableId, t] of theirsByBase) mergeChangedTable(baseTableId, t, oursByBase.get(baseTableId) ?? null);
  for (const t of theirsAdded) mergeAddedTable(t);

  function mergeAddedTable(t: SideTableChange): void {
    const tableId = t.tableId as string;
    const schema = t.schema as Data;
    const o = oursAddedById.get(tableId);
    if (o !== undefined) {
      if (jsonDeepEqual(o.schema, schema)) {
        const writer = writerFor(tableId, null, 'MODIFIED');
        mergeRows(writer, tableId, schema, o.rows, t.rows);
        return;
      }
      const choice = conflict('TABLE_SCHEMA', tableId, null, null, { base: null, ours: o.schema, theirs: schema });
      if (choice?.take === 'THEIRS')
        recreate(
          tableId,
          tableId,
          schema,
          t.rows.map((row) => [row.rowId as string, row.data as Data]),
          true,
        );
      return;
    }
    if (heldOnOurs(tableId)) {
      const choice = conflict('TABLE_ID_TAKEN', tableId, null, null, { base: null, ours: tableId, theirs: tableId });
      if (choice?.take === 'THEIRS')
        recreate(
          tableId,
          tableId,
          schema,
          t.rows.map((row) => [row.rowId as string, row.data as Data]),
          true,
        );
      return;
    }
    recreate(
      tableId,
      null,
      schema,
      t.rows.map((row) => [row.rowId as string, row.data as Data]),
      false,
    );
  }

  /** The table leaves the draft (when `deleteId`) and comes back as `tableId` with exactly `rows`. */
  function recreate(tableId: string, deleteId: string | null, schema: Data, rows: readonly (readonly [string, Data])[], replaces: boolean): void {
    if (deleteId !== null) preOps.push({ type: 'DeleteTable', tableId: deleteId });
    const writer = writerFor(tableId, null, replaces ? 'MODIFIED' : 'ADDED');
    writer.create(schema);
    for (const [rowId, data] of rows) writer.upsert(rowId, data, 'added');
  }

  function mergeChangedTable(baseTableId: string, t: SideTableChange, o: SideTableChange | null): void {
    const oursId = o === null ? baseTableId : o.tableId;
    if (t.tableId === null) {
      if (o === null) writerFor(baseTableId, null, 'REMOVED').dropTable();
      else if (o.tableId !== null) {
        const choice = conflict('TABLE_REMOVED_CHANGED', o.tableId, null, null, { base: o.baseSchema, ours: o.schema, theirs: null });
        if (choice?.take === 'THEIRS') writerFor(o.tableId, null, 'REMOVED').dropTable();
      }
      return;
    }
    if (oursId === null) {
      const choice = conflict('TABLE_REMOVED_CHANGED', t.tableId, null, null, { base: t.baseSchema, ours: null, theirs: t.schema });
      if (choice?.take === 'THEIRS') recreate(t.tableId, null, t.schema as Data, theirsRowsOver(o?.rows ?? [], t.rows), false);
      return;
    }
    // Name (§2.1): a rename on one side is taken, two different renames or a taken id conflict.
    let finalId = oursId;
    const theirsRenamed = t.tableId !== baseTableId;
    const oursRenamed = oursId !== baseTableId;
    if (theirsRenamed && oursRenamed && t.tableId !== oursId) {
      const choice = conflict('TABLE_RENAME', oursId, null, null, { base: baseTableId, ours: oursId, theirs: t.tableId });
      if (choice?.take === 'THEIRS') {
        if (takenOnOurs(t.tableId, oursId)) preOps.push({ type: 'DeleteTable', tableId: t.tableId });
        finalId = t.tableId;
      }
    } else if (theirsRenamed && !oursRenamed) {
      if (takenOnOurs(t.tableId, oursId)) {
        const choice = conflict('TABLE_ID_TAKEN', oursId, null, null, { base: baseTableId, ours: oursId, theirs: t.tableId });
        if (choice?.take === 'THEIRS') {
          preOps.push({ type: 'DeleteTable', tableId: t.tableId });
          finalId = t.tableId;
        }
      } else finalId = t.tableId;
    }
    const writer = writerFor(finalId, finalId !== oursId ? oursId : null, finalId !== oursId ? 'RENAMED' : 'MODIFIED');
    if (finalId !== oursId) writer.rename(oursId);
    const oursSchema = (o?.schema ?? t.baseSchema) as Data;
    const theirsSchema = t.schema as Data;
    if (t.schemaChanged && o?.schemaChanged === true && !jsonDeepEqual(oursSchema, theirsSchema)) {
      const choice = conflict('TABLE_SCHEMA', oursId, null, null, { base: t.baseSchema, ours: oursSchema, theirs: theirsSchema });
      if (choice?.take === 'THEIRS') {
        writer.update(schemaPatches(oursSchema, theirsSchema));
        takeTheirsRows(writer, o?.rows ?? [], t.rows);
      }
      return;
    }
    const resultSchema = t.schemaChanged && o?.schemaChanged !== true ? theirsSchema : oursSchema;
    if (resultSchema !== oursSchema) writer.update(schemaPatches(oursSchema, theirsSchema));
    mergeRows(writer, oursId, resultSchema, o?.rows ?? [], t.rows);
  }

  function mergeRows(
    writer: TableWriter,
    oursTableId: string,
    schema: Data,
    oursRows: readonly SideRowChange[],
    theirsRows: readonly SideRowChange[],
  ): void {
    const oursByBaseRow = new Map<string, SideRowChange>();
    const oursAdded = new Map<string, SideRowChange>();
    /** Ids our changed rows now have, and base ids our changes moved away from. */
    const oursPresent = new Map<string, SideRowChange>();
    const oursGone = new Set<string>();
    for (const oc of oursRows) {
      if (oc.baseRowId === null) oursAdded.set(oc.rowId as string, oc);
      else {
        oursByBaseRow.set(oc.baseRowId, oc);
        if (oc.rowId !== oc.baseRowId) oursGone.add(oc.baseRowId);
      }
      if (oc.rowId !== null) oursPresent.set(oc.rowId, oc);
    }
    const theirsByBaseRow = new Map(theirsRows.filter((row) => row.baseRowId !== null).map((row) => [row.baseRowId as string, row]));
    const tableId = writer.tableId;
    const oursRowAt = (rowId: string): Data | null => {
      // Ids this merge already moved a row away from are free; ids it moved a row onto are taken.
      if (writer.state.renames.some(([from]) => from === rowId) || writer.state.deletes.has(rowId)) return null;
      if (writer.state.renames.some(([, to]) => to === rowId)) return {};
      const changed = oursPresent.get(rowId);
      if (changed !== undefined) return changed.data;
      if (oursGone.has(rowId)) return null;
      return input.oursRow(oursTableId, rowId);
    };

    for (const tc of theirsRows) {
      if (tc.baseRowId === null) {
        const rowId = tc.rowId as string;
        const theirs = tc.data as Data;
        const oc = oursAdded.get(rowId);
        if (oc !== undefined) {
          if (jsonDeepEqual(oc.data, theirs)) continue;
          mergeRowData(writer, rowId, undefined, oc.data as Data, theirs, schema);
          continue;
        }
        const existing = oursRowAt(rowId);
        if (existing !== null) {
          const choice = conflict('ROW_ID_TAKEN', tableId, rowId, null, { base: null, ours: existing, theirs });
          applyRowChoice(writer, choice, rowId, theirs, 'updated');
          continue;
        }
        writer.upsert(rowId, theirs, 'added');
        continue;
      }
      const baseRowId = tc.baseRowId;
      const oc = oursByBaseRow.get(baseRowId) ?? null;
      if (tc.rowId === null) {
        if (oc === null) writer.remove(baseRowId);
        else if (oc.rowId !== null) {
          const choice = conflict('ROW_REMOVED_CHANGED', tableId, oc.rowId, null, { base: tc.base, ours: oc.data, theirs: null });
          applyRowChoice(writer, choice, oc.rowId, null, 'updated');
        }
        continue;
      }
      const theirsId = tc.rowId;
      const theirs = tc.data as Data;
      if (oc !== null && oc.rowId === null) {
        const choice = conflict('ROW_REMOVED_CHANGED', tableId, theirsId, null, { base: tc.base, ours: null, theirs });
        if (takenFor(tableId, theirsId, tc.base, theirs, theirsId !== baseRowId ? oursRowAt(theirsId) : null))
          applyRowChoice(writer, choice, theirsId, theirs, 'added');
        continue;
      }
      const oursId = oc?.rowId ?? baseRowId;
      const ours = oc?.data ?? (tc.base as Data);
      const theirsRenamed = theirsId !== baseRowId;
      const oursRenamed = oursId !== baseRowId;
      // The id (§2.2): a rename on one side is taken; two renames or a taken id conflict about the id only, and
      // the data is merged leaf by leaf under whichever id the row keeps.
      let finalId = writer.state.moved.get(oursId) ?? oursId;
      let choice: Choice = null;
      let free = true;
      if (theirsRenamed && oursRenamed && theirsId !== oursId) {
        choice = conflict('ROW_RENAME', tableId, oursId, null, { base: baseRowId, ours: oursId, theirs: theirsId });
        free = takenFor(tableId, theirsId, tc.base, theirs, oursRowAt(theirsId));
      } else if (theirsRenamed && !oursRenamed) {
        const other = oursRowAt(theirsId);
        if (other === null) choice = { take: 'THEIRS', value: undefined };
        else choice = conflict('ROW_ID_TAKEN', tableId, oursId, null, { base: tc.base, ours, theirs });
      }
      if (choice?.take === 'REMOVE') {
        writer.remove(oursId);
        continue;
      }
      if (choice?.take === 'VALUE') {
        writer.upsert(oursId, choice.value as Data, 'updated');
        continue;
      }
      if (choice?.take === 'THEIRS' && free) {
        // The row of ours holding the id goes where theirs has it (idHolders.ts); theirs' row takes the id.
        const fate = holderFate(theirsId, oursPresent, oursGone, theirsByBaseRow, oursRowAt);
        if (fate === 'REMOVE') writer.remove(theirsId);
        if (typeof fate === 'object') writer.moveRow(theirsId, fate.back);
        if (fate !== 'STAYS') writer.renameRow(oursId, theirsId);
        if (fate !== 'STAYS') finalId = theirsId;
      }
      if (oc === null) {
        if (!jsonDeepEqual(ours, theirs)) writer.upsert(finalId, theirs, 'updated');
      } else mergeRowData(writer, finalId, tc.base as Data, ours, theirs, schema, oursId);
    }
  }

  /**
   * Theirs moves a row onto `rowId`, which another row of ours holds (`other`): that is a ROW_ID_TAKEN conflict
   * too, and theirs' row may be written only when it is resolved for theirs.
   */
  function takenFor(tableId: string, rowId: string, base: Data | null, theirs: Data, other: Data | null): boolean {
    if (other === null) return true;
    const choice = conflict('ROW_ID_TAKEN', tableId, rowId, null, { base, ours: other, theirs });
    return choice !== null && choice.take !== 'OURS';
  }

  function mergeRowData(
    writer: TableWriter,
    rowId: string,
    base: Data | undefined,
    ours: Data,
    theirs: Data,
    schema: Data,
    conflictRowId = rowId,
  ): void {
    const merged = mergeData(
      base,
      ours,
      theirs,
      (leaf: LeafConflict) => {
        const choice = conflict('ROW_UPDATE', writer.tableId, conflictRowId, leaf.path, { base: leaf.base, ours: leaf.ours, theirs: leaf.theirs });
        if (choice === null) return null;
        if (choice.take === 'OURS') return { value: leaf.ours === null && !hasLeaf(ours, leaf.path) ? undefined : leaf.ours };
        if (choice.take === 'THEIRS') return { value: leaf.theirs === null && !hasLeaf(theirs, leaf.path) ? undefined : leaf.theirs };
        return { value: choice.value };
      },
      schema,
    );
    if (!jsonDeepEqual(merged.data, ours)) writer.upsert(rowId, merged.data, 'updated');
  }

  for (const [tableId, rows] of input.rowOverrides ?? []) applyOverrides(writers.get(tableId) ?? writerFor(tableId, null, 'MODIFIED'), rows);

  const ordered = orderConflicts(conflicts);
  const { operations, tables } = orderOperations(preOps, [...writers.values()], input.oursRow, input.oursTableIds);
  return {
    conflicts: ordered,
    open: orderConflicts(open),
    operations,
    tables,
    totalRowChanges: tables.reduce((sum, table) => sum + table.rowChanges.total, 0),
  };
}
