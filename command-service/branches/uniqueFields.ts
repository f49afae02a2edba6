import type { IndexedField, JsonObject } from '../../contracts/index.ts';
import { assertUnique, uniqueClashes, type UniqueCandidate, type UniqueClash, type UniqueFacts } from '../domain/rows/uniqueClashes.ts';
import type { BranchContent, DraftTable } from './branchContent.ts';
import { createHeadValueIndexes, indexRows, valueKey, type HeadValueIndexes, type ValueIndex } from './headValueIndexes.ts';
import type { BranchDeciderTools } from './branchCommand.ts';
import type { TableModelCache } from './tableModelCache.ts';

/**
 * The facts of a uniqueness decision (domain/rows/uniqueClashes.ts) gathered from the branch content in memory,
 * which the handler has folded from the log up to the stream revision it appends at: two writers of one value are
 * ordered by the log, the second one decides again on the first one's row and is refused.
 *
 * The holders of a value come from a value index of the HEAD rows kept per HEAD revision, and from the draft's own
 * rows (indexed per decision: O(draft changes)); the durable decision store answers the same question from its index
 * on the field (docs/reference/versioned-storage.md §2).
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
  const overlays = new Map<IndexedField, ValueIndex>();
  return (field, value) => {
    if (table === null) return [];
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
