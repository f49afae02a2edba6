import type { IndexedField, JsonObject } from '../../contracts/index.ts';
import { assertUnique, uniqueClashes, uniqueValueAt, type UniqueCandidate, type UniqueClash, type UniqueFacts, type UniqueValue } from '../domain/rows/uniqueClashes.ts';
import { draftRows, type DraftTable } from './branchContent.ts';
import type { TableModelCache } from './tableModelCache.ts';

/**
 * The facts of a uniqueness decision (domain/rows/uniqueClashes.ts) gathered from the branch content in memory,
 * which the handler has folded from the log up to the stream revision it appends at: two writers of one value are
 * ordered by the log, the second one decides again on the first one's row and is refused.
 *
 * The holders of a value are found by one scan of the draft table per unique field (O(rows) per write to a table
 * with unique fields); the durable decision store answers the same question from its index on the field
 * (docs/reference/versioned-storage.md §2).
 */
export function uniqueFieldsOf(schema: JsonObject, models: TableModelCache): IndexedField[] {
  return models(schema).indexedFields.filter((field) => field.unique);
}

const keyOf = (value: UniqueValue): string => `${typeof value}:${String(value)}`;

/**
 * Which rows of `table` hold a value, leaving out `excluded` (the candidates, whose new data is checked instead). The
 * table must already be as the write leaves it apart from the candidates: a single command has not changed other
 * rows; ApplyDraftChanges checks on its folded draft.
 */
export function draftHolders(table: DraftTable | null, excluded: ReadonlySet<string>): UniqueFacts['holders'] {
  const byField = new Map<IndexedField, Map<string, string[]>>();
  return (field, value) => {
    if (table === null) return [];
    let values = byField.get(field);
    if (values === undefined) {
      values = new Map();
      for (const [rowId, row] of draftRows(table)) {
        if (excluded.has(rowId)) continue;
        const held = uniqueValueAt(row.data, field.dataPath);
        if (held === null) continue;
        const key = keyOf(held);
        const ids = values.get(key);
        if (ids === undefined) values.set(key, [rowId]);
        else ids.push(rowId);
      }
      byField.set(field, values);
    }
    return values.get(keyOf(value)) ?? [];
  };
}

/** The facts of writing `rows` (new data) into `table`. */
export function draftUniqueFacts(
  table: DraftTable | null,
  target: { readonly tableId: string; readonly schema: JsonObject },
  rows: readonly UniqueCandidate[],
  models: TableModelCache,
): UniqueFacts {
  const excluded = new Set(rows.map((row) => row.rowId));
  return { tableId: target.tableId, fields: uniqueFieldsOf(target.schema, models), candidates: rows, holders: draftHolders(table, excluded) };
}

/** Refuses (409 UNIQUE_VIOLATION) a write of `rows` to `table` that would repeat a unique value (domain.md §5.5). */
export function assertUniqueRows(table: DraftTable, rows: readonly UniqueCandidate[], models: TableModelCache): void {
  if (rows.length === 0 || uniqueFieldsOf(table.schema, models).length === 0) return;
  assertUnique(draftUniqueFacts(table, table, rows, models));
}

/** The clashes of `rows` written to `table` (the skipping writes of ApplyDraftChanges leave those rows out). */
export function uniqueClashesOf(table: DraftTable, rows: readonly UniqueCandidate[], models: TableModelCache): UniqueClash[] {
  if (rows.length === 0 || uniqueFieldsOf(table.schema, models).length === 0) return [];
  return uniqueClashes(draftUniqueFacts(table, table, rows, models));
}
