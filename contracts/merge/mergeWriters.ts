import type { DraftOperation } from '../commands/draftChanges.ts';
import type { MergeTableChange } from './mergeTypes.ts';
import type { SchemaPatch } from './schemaPatches.ts';

type Data = Record<string, unknown>;

/** What a merge writes to one table of the target draft, gathered in any order and emitted in a safe one. */
export type TableWriter = {
  readonly tableId: string;
  create(schema: Data): void;
  rename(fromTableId: string): void;
  update(patches: readonly SchemaPatch[]): void;
  dropTable(): void;
  upsert(rowId: string, data: Data, kind: 'added' | 'updated'): void;
  remove(rowId: string): void;
  renameRow(fromRowId: string, toRowId: string): void;
  /** A rename that also carries the data already written under the old id, and later writes (`state.moved`). */
  moveRow(fromRowId: string, toRowId: string): void;
  /** A row the table's schema update changes without another write: counted as updated (changes.md §1.1). */
  migrated(rowId: string): void;
  /**
   * The row the result would have under `rowId` is left out (a result check resolved REMOVE): a row the merge
   * renames there is deleted under its id in the draft, a row the merge adds is not written.
   */
  leaveOut(rowId: string): void;
  readonly state: WriterState;
};

type WriterState = {
  readonly tableId: string;
  previousTableId: string | null;
  kind: MergeTableChange['change'];
  schema: Data | null;
  renamedFrom: string | null;
  patches: SchemaPatch[];
  dropped: boolean;
  readonly deletes: Set<string>;
  readonly renames: [string, string][];
  /** Rows moved with moveRow: old id → new id. */
  readonly moved: Map<string, string>;
  readonly upserts: Map<string, { data: Data; kind: 'added' | 'updated' }>;
  readonly migrated: Set<string>;
};

export function createTableWriter(tableId: string, previousTableId: string | null, kind: MergeTableChange['change']): TableWriter {
  const state: WriterState = {
    tableId,
    previousTableId,
    kind,
    schema: null,
    renamedFrom: null,
    patches: [],
    dropped: false,
    deletes: new Set(),
    renames: [],
    moved: new Map(),
    upserts: new Map(),
    migrated: new Set(),
  };
  return {
    tableId,
    state,
    create: (schema) => void (state.schema = schema),
    rename: (from) => void (state.renamedFrom = from),
    update: (patches) => void state.patches.push(...patches),
    dropTable: () => void (state.dropped = true),
    upsert: (rowId, data, kind) => void state.upserts.set(rowId, { data, kind: state.upserts.get(rowId)?.kind ?? kind }),
    remove: (rowId) => {
      state.upserts.delete(rowId);
      state.deletes.add(rowId);
    },
    renameRow: (from, to) => void state.renames.push([from, to]),
    migrated: (rowId) => void state.migrated.add(rowId),
    leaveOut: (rowId) => {
      const written = state.upserts.get(rowId);
      state.upserts.delete(rowId);
      // Renames go from draft ids to result ids: the row renamed onto `rowId` is deleted under its draft id.
      const index = state.renames.findIndex(([, to]) => to === rowId);
      const [origin] = index === -1 ? [rowId] : (state.renames.splice(index, 1)[0] as [string, string]);
      state.moved.delete(origin);
      if (written?.kind !== 'added' || origin !== rowId) state.deletes.add(origin);
    },
    moveRow: (from, to) => {
      state.renames.push([from, to]);
      state.moved.set(from, to);
      const written = state.upserts.get(from);
      if (written === undefined) return;
      state.upserts.delete(from);
      state.upserts.set(to, written);
    },
  };
}

/**
 * Renames in an order the draft accepts: none targets an id a later rename still has to move away. A cycle (a swap
 * of ids, as a merge taking theirs renames can produce) is broken through a spare id: its first move goes to
 * `merge-swap-N` (the first N that is `free` and that no move of this merge uses), the others follow, then it moves
 * on to its target.
 */
function renameOrder(moves: readonly (readonly [string, string])[], free: (id: string) => boolean): [string, string][] {
  const pending = moves.map(([from, to]): [string, string] => [from, to]);
  const out: [string, string][] = [];
  const used = new Set(moves.flat());
  let spare = 0;
  while (pending.length > 0) {
    const sources = new Set(pending.map((m) => m[0]));
    const index = pending.findIndex((m) => !sources.has(m[1]));
    if (index !== -1) {
      out.push(...pending.splice(index, 1));
      continue;
    }
    const [from, to] = pending.shift() as [string, string];
    let spareId = `merge-swap-${++spare}`;
    while (used.has(spareId) || !free(spareId)) spareId = `merge-swap-${++spare}`;
    used.add(spareId);
    out.push([from, spareId]);
    pending.push([spareId, to]);
  }
  return out;
}

/** A table's row renames in an order the draft accepts (a cycle: theirs swapped ids that ours has the other way round). */
function rowRenameOrder(w: WriterState, free: (rowId: string) => boolean): [string, string][] {
  const written = new Set([...w.deletes, ...w.upserts.keys()]);
  return renameOrder(w.renames, (rowId) => !written.has(rowId) && free(rowId));
}

function foreignTables(schema: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) foreignTables(item, out);
  else if (typeof schema === 'object' && schema !== null) {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'foreignKey' && typeof value === 'string') out.add(value);
      else foreignTables(value, out);
    }
  }
  return out;
}

/** Created tables ordered so a table comes after the tables its foreign keys name. */
function creationOrder(writers: readonly WriterState[]): WriterState[] {
  const created = writers.filter((w) => w.schema !== null);
  const ids = new Set(created.map((w) => w.tableId));
  const done = new Set<string>();
  const out: WriterState[] = [];
  const visit = (writer: WriterState, path: Set<string>): void => {
    if (done.has(writer.tableId) || path.has(writer.tableId)) return;
    path.add(writer.tableId);
    for (const target of foreignTables(writer.schema, new Set())) {
      const dependency = created.find((w) => w.tableId === target);
      if (dependency !== undefined && ids.has(target)) visit(dependency, path);
    }
    done.add(writer.tableId);
    out.push(writer);
  };
  for (const writer of created) visit(writer, new Set());
  return out;
}

/**
 * The operations in a safe order (table deletions, renames, creations by foreign-key dependency, schema updates,
 * then per table row deletions, renames and writes) and what they change, per result table.
 */
export function orderOperations(
  preOps: readonly DraftOperation[],
  tableWriters: readonly TableWriter[],
  oursRow: (tableId: string, rowId: string) => unknown,
  oursTableIds: ReadonlySet<string>,
): { operations: DraftOperation[]; tables: MergeTableChange[] } {
  const writers = tableWriters.map((writer) => writer.state);
  const operations: DraftOperation[] = [...preOps];
  for (const w of writers) if (w.dropped) operations.push({ type: 'DeleteTable', tableId: w.tableId });
  const live = writers.filter((w) => !w.dropped);
  // Table ids are unique regardless of case (domain.md §2): a spare id must differ from every id of the draft and merge.
  const taken = new Set([...oursTableIds, ...writers.map((w) => w.tableId)].map((id) => id.toLowerCase()));
  const tableMoves = live.filter((w) => w.renamedFrom !== null).map((w): [string, string] => [w.renamedFrom as string, w.tableId]);
  for (const [tableId, nextTableId] of renameOrder(tableMoves, (id) => !taken.has(id.toLowerCase()))) {
    operations.push({ type: 'RenameTable', tableId, nextTableId });
  }
  for (const w of creationOrder(live)) operations.push({ type: 'CreateTable', tableId: w.tableId, schema: w.schema });
  for (const w of live) if (w.patches.length > 0) operations.push({ type: 'UpdateTable', tableId: w.tableId, patches: w.patches });
  const tables: MergeTableChange[] = [];
  for (const w of writers) {
    const counts = { added: 0, updated: 0, removed: 0, renamed: 0, total: 0 };
    if (!w.dropped) {
      if (w.deletes.size > 0) operations.push({ type: 'DeleteRows', tableId: w.tableId, rowIds: [...w.deletes] });
      for (const [rowId, nextRowId] of rowRenameOrder(w, (rowId) => oursRow(w.renamedFrom ?? w.tableId, rowId) === null)) {
        operations.push({ type: 'RenameRow', tableId: w.tableId, rowId, nextRowId });
      }
      if (w.upserts.size > 0) {
        operations.push({ type: 'UpsertRows', tableId: w.tableId, rows: [...w.upserts].map(([rowId, { data }]) => ({ rowId, data })) });
      }
      const renamedTo = new Set(w.renames.map((m) => m[1]));
      counts.removed = w.deletes.size;
      counts.renamed = w.renames.length;
      for (const [rowId, { kind }] of w.upserts) {
        if (renamedTo.has(rowId)) continue;
        if (kind === 'added') counts.added += 1;
        else counts.updated += 1;
      }
      const renamedFrom = new Set(w.renames.map((m) => m[0]));
      for (const rowId of w.migrated) {
        if (!w.upserts.has(rowId) && !w.deletes.has(rowId) && !renamedFrom.has(rowId) && !renamedTo.has(rowId)) counts.updated += 1;
      }
      counts.total = counts.added + counts.updated + counts.removed + counts.renamed;
    }
    const schemaChanged = w.patches.length > 0;
    const effect = w.dropped || w.schema !== null || w.renamedFrom !== null || schemaChanged || counts.total > 0;
    if (!effect) continue;
    const change = w.dropped ? 'REMOVED' : w.kind;
    tables.push({ tableId: w.tableId, previousTableId: change === 'RENAMED' ? w.previousTableId : null, change, schemaChanged, rowChanges: counts });
  }
  tables.sort((a, b) => (a.tableId < b.tableId ? -1 : a.tableId > b.tableId ? 1 : 0));
  return { operations, tables };
}
