// The content of one revision in the merge-law model (mergeHistory.ts) and the draft operations on it, with the
// effects domain.md gives them: a table keeps its stable key across renames (a created table gets a new one), a
// schema patch migrates every row (domain.md §6: add → the node's default, remove → value removed, move → value
// moved; keyword paths change the schema only), row renames and deletions leave row marks for the diff.
import type { DraftOperation } from '../commands/draftChanges.ts';
import { jsonDeepEqual } from '../tables/jsonValue.ts';

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

type Patch = { op: string; path: string; from?: string; value?: unknown };

/** `/properties/k` → `k`; null for keyword and nested paths (the model's schemas patch top-level fields only). */
function topField(path: string): string | null {
  const parts = path.split('/').slice(1);
  return parts.length === 2 && parts[0] === 'properties' ? (parts[1] as string) : null;
}

/** A path made of `/properties/<name>` and `/items` segments only (domain.md §6), not a keyword's. */
function isNodePath(path: string): boolean {
  const parts = path.split('/').slice(1);
  for (let i = 0; i < parts.length;) {
    if (parts[i] === 'properties' && i + 1 < parts.length) i += 2;
    else if (parts[i] === 'items') i += 1;
    else return false;
  }
  return true;
}

function keywordParent(schema: Data, path: string): { parent: Data; key: string } {
  const parts = path.split('/').slice(1);
  const key = parts.pop() as string;
  let parent: Data = schema;
  for (const part of parts) parent = parent[part] as Data;
  if (typeof parent !== 'object' || parent === null) throw new Error(`patch path ${path} names no node`);
  return { parent, key };
}

/** One UpdateTable patch on the schema and every row. */
function applyPatch(table: TableContent, patch: Patch): void {
  const props = table.schema.properties as Data;
  const field = topField(patch.path);
  if (patch.op === 'move') {
    const from = topField(patch.from ?? '');
    if (from === null || field === null || !(from in props) || field in props) throw new Error(`move ${patch.from} -> ${patch.path}`);
    const node = props[from];
    delete props[from];
    props[field] = node;
    for (const data of table.rows.values()) {
      const value = data[from];
      delete data[from];
      if (value !== undefined) data[field] = value;
    }
    return;
  }
  if (field !== null) {
    if (patch.op === 'remove') {
      if (!(field in props)) throw new Error(`remove of missing field ${field}`);
      delete props[field];
      for (const data of table.rows.values()) delete data[field];
    } else if (patch.op === 'add' && !(field in props)) {
      props[field] = clone(patch.value);
      for (const data of table.rows.values()) data[field] = defaultOf(patch.value);
    } else throw new Error(`patch ${JSON.stringify(patch)} has no model (replace of a node, add of a present field)`);
    return;
  }
  if (isNodePath(patch.path)) throw new Error(`nested node patch ${patch.path} has no model`);
  // A keyword: the schema only.
  const { parent, key } = keywordParent(table.schema, patch.path);
  if (patch.op === 'remove') delete parent[key];
  else parent[key] = clone(patch.value);
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
        for (const patch of op.patches as Patch[]) applyPatch(table, patch);
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
