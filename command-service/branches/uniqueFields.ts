import { toJsonPointer } from '../../contracts/index.ts';
import type { DeferredUniqueValue, IndexedField, JsonObject } from '../../contracts/index.ts';
import {
  assertUnique,
  uniqueClashes,
  uniqueValueAt,
  type UniqueCandidate,
  type UniqueClash,
  type UniqueFacts,
} from '../domain/rows/uniqueClashes.ts';
import { draftRow, type BranchContent, type DraftTable } from './branchContent.ts';
import { FactRows, addValueMiss, gatheredValuesKey } from './factRows.ts';
import { createHeadValueIndexes, indexRows, valueKey, type HeadValueIndexes, type ValueIndex } from './headValueIndexes.ts';
import type { BranchDeciderTools } from './branchCommand.ts';
import type { TableModelCache } from './tableModelCache.ts';

/**
 * The facts of a uniqueness decision (domain/rows/uniqueClashes.ts) gathered from the branch content in memory,
 * which the handler has folded from the log up to the stream revision it appends at: two writers of one value are
 * ordered by the log, the second one decides again on the first one's row and is refused.
 *
 * The holders of a value come from a value index of the HEAD rows kept per HEAD revision, and from the draft's own
 * rows (indexed per decision: O(draft changes)). On the durable decision state (rows not all gathered) the holders of
 * a value are read from the store's index on the field, through the revision's layers (`gatheredHolders`,
 * docs/reference/versioned-storage.md §2).
 */
export function uniqueFieldsOf(schema: JsonObject, models: TableModelCache): IndexedField[] {
  return models(schema).indexedFields.filter((field) => field.unique);
}

/**
 * Which rows of `table` hold a value, leaving out `excluded` (the candidates, whose new data is checked instead). The
 * table must already be as the write leaves it apart from the candidates: a single command has not changed other
 * rows; ApplyDraftChanges checks on its folded draft. HEAD rows come from a value index kept per HEAD revision; the
 * draft's own rows (the overlay, usually small) are indexed once per decision.
 */
export function draftHolders(
  state: BranchContent,
  table: DraftTable | null,
  excluded: ReadonlySet<string>,
  headValues: HeadValueIndexes = createHeadValueIndexes(),
): UniqueFacts['holders'] {
  if (table === null) return () => [];
  const gathered = gatheredHolders(state, table, excluded);
  if (gathered !== null) return gathered;
  const overlays = new Map<IndexedField, ValueIndex>();
  return (field, value) => {
    const key = valueKey(value);
    const out: string[] = [];
    const { overlay, head } = table;
    if (overlay !== null) {
      let values = overlays.get(field);
      if (values === undefined) {
        values = indexRows(overlay.rows, field.dataPath);
        overlays.set(field, values);
      }
      for (const rowId of values.get(key) ?? []) if (!excluded.has(rowId)) out.push(rowId);
    }
    // A table the draft created has no HEAD part.
    if (head === null) return out;
    for (const rowId of headValues.of(head, state.headRevisionId, field.dataPath).get(key) ?? []) {
      // The draft's version of a row (or its deletion) stands for the row.
      if (!excluded.has(rowId) && !(overlay?.rows.has(rowId) ?? false)) out.push(rowId);
    }
    return out;
  };
}

const incomplete = (rows: Map<string, unknown> | undefined): boolean => rows instanceof FactRows && !rows.complete;

/**
 * Keys folds changed since the state was gathered: a FactRows' `written`, or every key of a plain map (an overlay a
 * fold opened in this batch holds only folded changes).
 */
const folded = (rows: Map<string, unknown> | undefined): Iterable<string> =>
  rows === undefined ? [] : rows instanceof FactRows ? rows.written : rows.keys();

/**
 * Tables with fewer rows are gathered whole for their unique checks (one read, then the in-memory indexes): reading
 * them is cheap, and the field index on state.db is only created once a table is this large, so that SQLite's
 * statistics (ANALYZE, run when an index is created) describe a filled table; on statistics of an empty one the
 * planner reads a layer by `(branchId, fromSeq)` instead of the field index.
 */
export const HOLDERS_BY_VALUE_FROM_ROWS = 1000;
let holdersByValueFromRows = HOLDERS_BY_VALUE_FROM_ROWS;

/** Tests only: the table size from which holders are read by value (0: always, to compare both ways on small tables). */
export function setHoldersByValueFromRows(rows: number): void {
  holdersByValueFromRows = rows;
}

/** Whether the unique checks of `table` read holders by value from the decision store (gatheredHolders). */
export function readsHoldersByValue(state: BranchContent, table: DraftTable): boolean {
  const overlayRows = table.overlay?.rows;
  const headRows = table.head?.rows;
  return state.facts !== undefined && table.count >= holdersByValueFromRows && (incomplete(overlayRows) || incomplete(headRows));
}

/**
 * Holders on a gathered state (decisionFacts.ts) whose table is not gathered whole: the rows the decision store's
 * field index named for the value (HEAD through the layers, the draft's changes at D; gathered with their draft
 * side, so a draft change or deletion of a HEAD row stands for it), plus the rows folds changed since (`folded`,
 * indexed once per decision), each judged by its current draft version. A value not gathered yet is a
 * miss: the decision is taken again once the store has answered (O(values written) rows read, never the table).
 * Null when the rows are in memory, gathered whole or few: the in-memory indexes answer then.
 */
function gatheredHolders(state: BranchContent, table: DraftTable, excluded: ReadonlySet<string>): UniqueFacts['holders'] | null {
  const facts = state.facts;
  const overlayRows = table.overlay?.rows;
  const headRows = table.head?.rows;
  if (facts === undefined || !readsHoldersByValue(state, table)) return null;
  const writtenIndexes = new Map<IndexedField, ValueIndex>();
  const written = (field: IndexedField): ValueIndex => {
    let values = writtenIndexes.get(field);
    if (values === undefined) {
      const ids = new Set<string>([...folded(overlayRows), ...folded(headRows)]);
      values = indexRows(
        [...ids].map((rowId) => [rowId, draftRow(table, rowId)] as const),
        field.dataPath,
      );
      writtenIndexes.set(field, values);
    }
    return values;
  };
  return (field, value) => {
    const key = valueKey(value);
    const ids = facts.values.get(gatheredValuesKey(table.tableKey, field.dataPath))?.get(key);
    if (ids === undefined) {
      addValueMiss(facts.misses, table.tableKey, field.dataPath, key, value);
      return [];
    }
    const out = new Set<string>();
    for (const rowId of [...ids, ...(written(field).get(key) ?? [])]) {
      if (excluded.has(rowId) || out.has(rowId)) continue;
      const row = draftRow(table, rowId);
      const held = row === null ? null : uniqueValueAt(row.data, field.dataPath);
      if (held !== null && valueKey(held) === key) out.add(rowId);
    }
    return out;
  };
}

/** The facts of writing `rows` (new data) into `table`. */
export function draftUniqueFacts(
  state: BranchContent,
  table: DraftTable | null,
  target: { readonly tableId: string; readonly schema: JsonObject },
  rows: readonly UniqueCandidate[],
  tools: BranchDeciderTools,
): UniqueFacts {
  const excluded = new Set(rows.map((row) => row.rowId));
  const fields = uniqueFieldsOf(target.schema, tools.models);
  return { tableId: target.tableId, fields, candidates: rows, holders: draftHolders(state, table, excluded, tools.headValues) };
}

/** Refuses (409 UNIQUE_VIOLATION) a write of `rows` to `table` that would repeat a unique value (domain.md §5.5). */
export function assertUniqueRows(state: BranchContent, table: DraftTable, rows: readonly UniqueCandidate[], tools: BranchDeciderTools): void {
  if (rows.length === 0 || uniqueFieldsOf(table.schema, tools.models).length === 0) return;
  assertUnique(draftUniqueFacts(state, table, table, rows, tools));
}

/** The clashes of `rows` written to `table` (the skipping writes of ApplyDraftChanges leave those rows out). */
export function uniqueClashesOf(state: BranchContent, table: DraftTable, rows: readonly UniqueCandidate[], tools: BranchDeciderTools): UniqueClash[] {
  if (rows.length === 0 || uniqueFieldsOf(table.schema, tools.models).length === 0) return [];
  return uniqueClashes(draftUniqueFacts(state, table, table, rows, tools));
}

/**
 * A staged import's chunk (`uniqueChecks: 'defer'`): the unique values of the rows it writes and the draft row
 * holding each (leaving out the chunk's rows), in field order then row order; the staging checks them across the
 * whole import (EventStaging.checkUnique) as uniqueClashes would in one command.
 */
export function deferredUniqueValues(
  state: BranchContent,
  table: DraftTable,
  rows: readonly (UniqueCandidate & { readonly index: number; readonly created: boolean })[],
  tools: BranchDeciderTools,
): DeferredUniqueValue[] {
  const fields = uniqueFieldsOf(table.schema, tools.models);
  if (rows.length === 0 || fields.length === 0) return [];
  const holders = draftUniqueFacts(state, table, table, rows, tools).holders;
  const out: DeferredUniqueValue[] = [];
  fields.forEach((field, position) => {
    const path = toJsonPointer(field.dataPath);
    for (const row of rows) {
      const value = uniqueValueAt(row.data, field.dataPath);
      if (value === null) continue;
      let holder: string | null = null;
      for (const rowId of holders(field, value)) {
        if (rowId !== row.rowId) {
          holder = rowId;
          break;
        }
      }
      out.push({ index: row.index, rowId: row.rowId, field: position, path, value, holder, created: row.created });
    }
  });
  return out;
}
