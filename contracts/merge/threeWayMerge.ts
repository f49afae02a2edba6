import { AppError } from '../errors/appError.ts';
import type { DraftOperation } from '../commands/draftChanges.ts';
import { jsonDeepEqual } from '../tables/jsonValue.ts';
import { conflictIdOf, orderConflicts } from './conflictIds.ts';
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
import { schemaPatches, type SchemaPatch } from './schemaPatches.ts';
import { migratedRowIds, replayRows, tableReplay, type RowReplay } from './schemaReplay.ts';
import { settleClaims, tablesMovingAway, type ClaimOutcome, type TableClaim } from './tableHolders.ts';
import { createRowMerger } from './rowMerge.ts';
import { createTableWriter, orderOperations, type TableWriter } from './mergeWriters.ts';
import { applyOverrides, takeTheirsRows, theirsRowsOver, type Choice } from './wholeTables.ts';

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
  /** Tables the merge removes: apart from `writers`, whose id another table of the result may take (a rename). */
  const drops: TableWriter[] = [];
  /** Our table ids the merge deletes (once, though two resolutions may each free the same id). */
  const deleted = new Set<string>();
  const preOps: DraftOperation[] = [];

  /** Our tables theirs' table replaces (a claim, tableHolders.ts): what the merge writes to them goes nowhere. */
  const replaced = new Set<string>();

  function writerFor(tableId: string, previousTableId: string | null, kind: MergeTableChange['change']): TableWriter {
    let writer = writers.get(tableId);
    if (writer === undefined) writers.set(tableId, (writer = createTableWriter(tableId, previousTableId, kind)));
    return writer;
  }

  function deleteTable(tableId: string): void {
    if (!deleted.has(tableId)) preOps.push({ type: 'DeleteTable', tableId });
    deleted.add(tableId);
  }

  function dropTable(tableId: string): void {
    if (deleted.has(tableId)) return;
    deleted.add(tableId);
    const writer = createTableWriter(tableId, null, 'REMOVED');
    writer.dropTable();
    drops.push(writer);
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

  const { mergeRows } = createRowMerger(conflict, input.oursRow);

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

  // Pass 1 (merge.md §2.1): what becomes of each table and under which id. The TABLE_ID_TAKEN resolved THEIRS are
  // settled together once every table's id is known, so a holder can go back where theirs has it (tableHolders.ts).
  // Pass 2 merges the contents under the settled ids.
  const finalIds = new Map<string, string>();
  const claims: TableClaim[] = [];
  const created = new Set<string>();
  const contents: ((outcomes: ReadonlyMap<string, ClaimOutcome>) => void)[] = [];
  for (const [baseTableId, t] of theirsByBase) nameChangedTable(baseTableId, t, oursByBase.get(baseTableId) ?? null);
  for (const t of theirsAdded) nameAddedTable(t);
  const outcomes = settleClaims(claims, { oursTableIds: input.oursTableIds, oursByBase, oursAddedById, theirsByBase, finalIds, deleted, created });
  for (const [id, outcome] of outcomes) {
    if (outcome === 'REPLACE') {
      deleteTable(id);
      replaced.add(id);
    } else if (typeof outcome === 'object') finalIds.set(id, outcome.back);
  }
  for (const content of contents) content(outcomes);
  // A holder going back that theirs left unchanged: only its id moves.
  for (const [id, outcome] of outcomes)
    if (typeof outcome === 'object' && !writers.has(outcome.back)) writerFor(outcome.back, id, 'RENAMED').rename(id);

  function nameAddedTable(t: SideTableChange): void {
    const tableId = t.tableId as string;
    const schema = t.schema as Data;
    const rows = t.rows.map((row): [string, Data] => [row.rowId as string, row.data as Data]);
    const o = oursAddedById.get(tableId);
    if (o !== undefined) {
      contents.push(() => {
        if (jsonDeepEqual(o.schema, schema)) mergeRows(writerFor(tableId, null, 'MODIFIED'), tableId, schema, o.rows, t.rows);
        else if (conflict('TABLE_SCHEMA', tableId, null, null, { base: null, ours: o.schema, theirs: schema })?.take === 'THEIRS')
          recreate(tableId, true, schema, rows);
      });
      return;
    }
    if (heldOnOurs(tableId)) {
      const choice = conflict('TABLE_ID_TAKEN', tableId, null, null, { base: null, ours: tableId, theirs: tableId });
      if (choice?.take !== 'THEIRS') return;
      claims.push({ id: tableId, incoming: null });
      contents.push((settled) => bringIn(tableId, settled.get(tableId), schema, rows));
      return;
    }
    created.add(tableId);
    contents.push(() => recreate(tableId, false, schema, rows));
  }

  /**
   * Theirs' table comes in as `tableId` with exactly `rows`. When it `replaces` our table there, that table leaves
   * the draft first.
   */
  function recreate(tableId: string, replaces: boolean, schema: Data, rows: readonly (readonly [string, Data])[]): void {
    if (replaces) {
      deleteTable(tableId);
      writers.delete(tableId);
    }
    const writer = writerFor(tableId, null, replaces ? 'MODIFIED' : 'ADDED');
    writer.create(schema);
    for (const [rowId, data] of rows) writer.upsert(rowId, data, 'added');
  }

  /** Theirs' table created where ours has another (a claim): unless that table stays (tableHolders.ts). */
  function bringIn(tableId: string, outcome: ClaimOutcome | undefined, schema: Data, rows: readonly (readonly [string, Data])[]): void {
    if (outcome !== 'STAYS') recreate(tableId, outcome === 'REPLACE', schema, rows);
  }

  function nameChangedTable(baseTableId: string, t: SideTableChange, o: SideTableChange | null): void {
    const oursId = o === null ? baseTableId : o.tableId;
    if (t.tableId === null) {
      if (o === null) dropTable(baseTableId);
      else if (o.tableId !== null) {
        const choice = conflict('TABLE_REMOVED_CHANGED', o.tableId, null, null, { base: o.baseSchema, ours: o.schema, theirs: null });
        if (choice?.take === 'THEIRS') dropTable(o.tableId);
      }
      return;
    }
    if (oursId === null) {
      const tableId = t.tableId;
      const choice = conflict('TABLE_REMOVED_CHANGED', tableId, null, null, { base: t.baseSchema, ours: null, theirs: t.schema });
      // Ours may have given the id to another table: theirs' table comes back only in its place (TABLE_ID_TAKEN).
      const held = heldOnOurs(tableId);
      const idChoice: Choice = held
        ? conflict('TABLE_ID_TAKEN', tableId, null, null, { base: baseTableId, ours: tableId, theirs: tableId })
        : { take: 'THEIRS', value: undefined };
      if (choice?.take !== 'THEIRS' || idChoice?.take !== 'THEIRS') return;
      if (held) claims.push({ id: tableId, incoming: null });
      else created.add(tableId);
      const rows = theirsRowsOver(o?.rows ?? [], t.rows);
      contents.push((settled) => bringIn(tableId, settled.get(tableId), t.schema as Data, rows));
      return;
    }
    // Name (§2.1): a rename on one side is taken, two different renames or a taken id conflict.
    let finalId = oursId;
    const theirsRenamed = t.tableId !== baseTableId;
    const oursRenamed = oursId !== baseTableId;
    if (theirsRenamed && oursRenamed && t.tableId !== oursId) {
      const choice = conflict('TABLE_RENAME', oursId, null, null, { base: baseTableId, ours: oursId, theirs: t.tableId });
      // Theirs' id may be held by another table of ours: a TABLE_ID_TAKEN too, as when ours renamed nothing.
      const taken = takenOnOurs(t.tableId, oursId);
      const free =
        !taken || conflict('TABLE_ID_TAKEN', t.tableId, null, null, { base: baseTableId, ours: oursId, theirs: t.tableId })?.take === 'THEIRS';
      if (choice?.take === 'THEIRS' && free) {
        finalId = t.tableId;
        if (taken) claims.push({ id: finalId, incoming: oursId });
      }
    } else if (theirsRenamed && !oursRenamed) {
      if (takenOnOurs(t.tableId, oursId)) {
        const choice = conflict('TABLE_ID_TAKEN', oursId, null, null, { base: baseTableId, ours: oursId, theirs: t.tableId });
        if (choice?.take === 'THEIRS') {
          finalId = t.tableId;
          claims.push({ id: finalId, incoming: oursId });
        }
      } else finalId = t.tableId;
    }
    finalIds.set(oursId, finalId);
    contents.push(() => mergeTableContent(t, o, oursId));
  }

  /** The schema and rows of a table both sides have (merge.md §2.1, §2.2), under its settled id. */
  function mergeTableContent(t: SideTableChange, o: SideTableChange | null, oursId: string): void {
    const finalId = finalIds.get(oursId) ?? oursId;
    const renamed = finalId !== oursId;
    const writer = replaced.has(oursId)
      ? createTableWriter(oursId, null, 'MODIFIED')
      : writerFor(finalId, renamed ? oursId : null, renamed ? 'RENAMED' : 'MODIFIED');
    if (renamed) writer.rename(oursId);
    const oursSchema = (o?.schema ?? t.baseSchema) as Data;
    const theirsSchema = t.schema as Data;
    const schemas = { base: t.baseSchema as Data, ours: oursSchema, theirs: theirsSchema };
    // Every version of a row is brought to the result's schema before rows are compared (merge.md §2.1): the
    // changing side's patches replayed on the base rows and on the other side's rows, only rows a side changed.
    // When our schema becomes the result's, the rows its update migrates count as changed in the draft.
    const rowsIn = (result: Data, logged?: readonly SchemaPatch[]): [SideRowChange[], SideRowChange[], RowReplay] => {
      const replay = tableReplay(schemas, result, logged);
      const oursRows = o?.rows ?? [];
      const ours = replayRows(oursRows, replay.base, replay.ours);
      const theirs = replayRows(t.rows, replay.base, replay.theirs);
      if (result !== oursSchema) for (const rowId of migratedRowIds(oursRows, ours, t.rows, theirs)) writer.migrated(rowId);
      return [ours, theirs, replay.ours];
    };
    if (t.schemaChanged && o?.schemaChanged === true && !jsonDeepEqual(oursSchema, theirsSchema)) {
      const choice = conflict('TABLE_SCHEMA', oursId, null, null, { base: t.baseSchema, ours: oursSchema, theirs: theirsSchema });
      if (choice?.take === 'THEIRS') {
        writer.update(schemaPatches(oursSchema, theirsSchema));
        const [ours, theirs] = rowsIn(theirsSchema);
        takeTheirsRows(writer, ours, theirs);
      }
      return;
    }
    const resultSchema = t.schemaChanged && o?.schemaChanged !== true ? theirsSchema : oursSchema;
    // One side changed the schema: its patches from the log (a move carries values to the new name), else read
    // from the two schemas. They apply to the base schema, so only while the other side still has it.
    const changing = resultSchema === oursSchema ? o : t;
    const keeping = resultSchema === oursSchema ? theirsSchema : oursSchema;
    const logged = changing?.schemaChanged === true && jsonDeepEqual(keeping, t.baseSchema) ? changing.patches : undefined;
    if (resultSchema !== oursSchema) writer.update(logged ?? schemaPatches(oursSchema, theirsSchema));
    mergeRows(writer, oursId, resultSchema, ...rowsIn(resultSchema, logged));
  }

  for (const [tableId, rows] of input.rowOverrides ?? []) applyOverrides(writers.get(tableId) ?? writerFor(tableId, null, 'MODIFIED'), rows);

  const ordered = orderConflicts(conflicts);
  const { operations, tables } = orderOperations(preOps, [...drops, ...writers.values()], input.oursRow, input.oursTableIds);
  return {
    conflicts: ordered,
    open: orderConflicts(open),
    operations,
    tables,
    totalRowChanges: tables.reduce((sum, table) => sum + table.rowChanges.total, 0),
  };
}
