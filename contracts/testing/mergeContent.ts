// The content of one revision in the merge-law model (mergeHistory.ts) and the draft operations on it, with the
// effects domain.md gives them: a table keeps its stable key across renames (a created table gets a new one), a
// schema patch migrates every row (domain.md §6, by the real applySchemaPatch: add → the node's default, remove →
// value removed, move → value moved, replace → value converted; keyword paths change the schema only), row renames
// and deletions leave row marks for the diff.
import type { DraftOperation } from '../commands/draftChanges.ts';
import { applySchemaPatch } from '../tables/applySchemaPatch.ts';
import { jsonDeepEqual } from '../tables/jsonValue.ts';
import { normalizeRowData } from '../tables/rowData.ts';
import { compileTableModel } from '../tables/tableModel.ts';

export type Data = Record<string, unknown>;
export type TableContent = { readonly key: string; schema: Data; rows: Map<string, Data> };
export type Content = Map<string, TableContent>;
/** A rename or deletion of a row (the `row_marks` the diff follows renames with). */
export type RowMark = {
  readonly tableKey: string;
  readonly kind: 'renamed' | 'deleted';
  readonly rowId: string;
  readonly previousRowId: string | null;
};

export const clone = <T>(value: T): T => structuredClone(value);

export function cloneContent(content: Content): Content {
  return new Map(
    [...content].map(([id, t]) => [id, { key: t.key, schema: clone(t.schema), rows: new Map([...t.rows].map(([r, d]) => [r, clone(d)])) }]),
  );
}

/** Equal tables by id: schema and rows (keys, the storage identity, are not content). */
export function sameContent(a: Content, b: Content): boolean {
  if (a.size !== b.size) return false;
  for (const [id, table] of a) {
    const other = b.get(id);
    if (other === undefined || !sameTable(table, other)) return false;
  }
  return true;
}

export function sameTable(a: TableContent, b: TableContent): boolean {
  if (!jsonDeepEqual(a.schema, b.schema) || a.rows.size !== b.rows.size) return false;
  for (const [rowId, data] of a.rows) if (!jsonDeepEqual(data, b.rows.get(rowId))) return false;
  return true;
}

/** Content as plain JSON, for failure messages. */
export const describeContent = (content: Content): string => JSON.stringify([...content].map(([id, t]) => [id, t.schema.properties, [...t.rows]]));

/** The value a new node gives every row (domain.md §6). */
export function defaultOf(node: unknown): unknown {
  const n = (node ?? {}) as Data;
  if (n.default !== undefined) return clone(n.default);
  if (n.type === 'object') {
    const props = (n.properties ?? {}) as Data;
    return Object.fromEntries(Object.entries(props).map(([k, child]) => [k, defaultOf(child)]));
  }
  if (n.type === 'array') return [];
  if (n.type === 'string') return '';
  if (n.type === 'boolean') return false;
  return 0;
}

/**
 * One UpdateTable on the schema and every row, by the real patch application (contracts/tables/applySchemaPatch.ts:
 * the same migration and conversions as decideUpdateTable), each migrated row in the stored form of the new schema.
 * Throws on a patch updateTable refuses (INVALID_PATCH). Like the rest of the model, rows are not validated.
 */
function updateTable(table: TableContent, patches: unknown): void {
  const patched = applySchemaPatch(table.schema, patches);
  table.schema = patched.schema as Data;
  if (!patched.changesData) return;
  const model = compileTableModel(patched.schema);
  for (const [rowId, data] of table.rows) table.rows.set(rowId, normalizeRowData(model, patched.migrate(data)) as Data);
}

export type WriteHooks = { readonly newTableKey: () => string; readonly mark: (mark: RowMark) => void };

/** The operations applied in order to a copy of `content` (ApplyDraftChanges); throws on an impossible one. */
export function applyDraftOperations(content: Content, operations: readonly DraftOperation[], hooks: WriteHooks): Content {
  const out = cloneContent(content);
  const tableOf = (tableId: string) => {
    const table = out.get(tableId);
    if (table === undefined) throw new Error(`table ${tableId} not found`);
    return table;
  };
  for (const op of operations) {
    switch (op.type) {
      case 'CreateTable':
        if (out.has(op.tableId)) throw new Error(`table ${op.tableId} exists`);
        out.set(op.tableId, { key: hooks.newTableKey(), schema: clone(op.schema as Data), rows: new Map() });
        break;
      case 'RenameTable': {
        const table = tableOf(op.tableId);
        if (out.has(op.nextTableId)) throw new Error(`table ${op.nextTableId} exists`);
        out.delete(op.tableId);
        out.set(op.nextTableId, table);
        break;
      }
      case 'DeleteTable':
        tableOf(op.tableId);
        out.delete(op.tableId);
        break;
      case 'UpdateTable': {
        const table = tableOf(op.tableId);
        updateTable(table, op.patches);
        break;
      }
      case 'UpsertRows': {
        const table = tableOf(op.tableId);
        for (const row of op.rows) table.rows.set(row.rowId, clone(row.data as Data));
        break;
      }
      case 'DeleteRows': {
        const table = tableOf(op.tableId);
        for (const rowId of op.rowIds) {
          if (!table.rows.delete(rowId)) throw new Error(`row ${op.tableId}/${rowId} not found`);
          hooks.mark({ tableKey: table.key, kind: 'deleted', rowId, previousRowId: null });
        }
        break;
      }
      case 'RenameRow': {
        const table = tableOf(op.tableId);
        const data = table.rows.get(op.rowId);
        if (data === undefined || table.rows.has(op.nextRowId)) throw new Error(`rename ${op.tableId}/${op.rowId} -> ${op.nextRowId}`);
        table.rows.delete(op.rowId);
        table.rows.set(op.nextRowId, data);
        hooks.mark({ tableKey: table.key, kind: 'renamed', rowId: op.nextRowId, previousRowId: op.rowId });
        break;
      }
      default:
        throw new Error(`operation ${op.type} is not used by merges`);
    }
  }
  return out;
}
