import type { DeferredReference, JsonObject, ReferenceChecks } from '../../contracts/index.ts';
import type { BranchContent, DraftTable } from './branchContent.ts';
import type { BranchDeciderTools } from './branchCommand.ts';
import { draftRowExists, foreignKeyValues } from './foreignKeys.ts';

/**
 * A staged bundle's chunk (ReferenceChecks, docs/reference/versioned-storage.md §6): the foreign-key values of
 * `rows` that only the bundle's rows in other chunks can satisfy: those naming no row of the draft, and every one
 * naming a row of a table the bundle replaces (its rows become exactly the bundle's). `""` is not among them: it
 * never names a row, and is refused as in any write.
 */
export function deferredReferencesOf(
  state: BranchContent,
  tools: BranchDeciderTools,
  table: DraftTable,
  rows: readonly { readonly index: number; readonly rowId: string; readonly data?: JsonObject }[],
  checks: ReferenceChecks,
): DeferredReference[] {
  const fields = tools.models(table.schema).foreignKeys;
  if (fields.length === 0) return [];
  const replaced = new Set(checks.replacedTables);
  const exists = draftRowExists(state);
  const out: DeferredReference[] = [];
  for (const row of rows) {
    for (const field of fields) {
      const byPath = new Map<string, string[]>();
      for (const { pointer, value } of foreignKeyValues(row.data, field.dataPath)) {
        if (value === '' || (!replaced.has(field.tableId) && exists(field.tableId, value))) continue;
        const rowIds = byPath.get(pointer) ?? [];
        if (!rowIds.includes(value)) rowIds.push(value);
        byPath.set(pointer, rowIds);
      }
      for (const [path, rowIds] of byPath) out.push({ index: row.index, rowId: row.rowId, path, tableId: field.tableId, rowIds });
    }
  }
  return out;
}
