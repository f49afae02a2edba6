import type { JsonObject, VersionLayer } from '../../contracts/index.ts';
import type { FactMisses, GatheredValues } from './factRows.ts';

/** One stored row: data in stored form (system refs as `""`). Immutable: a change replaces the record. */
export type RowRecord = { readonly data: JsonObject; readonly createdAt: string; readonly updatedAt: string };

/** A HEAD table. Mutated in place only when a commit merges the draft into HEAD. */
export type TableRecord = {
  readonly tableKey: string;
  tableId: string;
  schema: JsonObject;
  readonly createdAt: string;
  updatedAt: string;
  readonly rows: Map<string, RowRecord>;
};

/**
 * The draft's version of one table: everything that differs from the HEAD table with the same key. `rows` holds
 * only rows that differ from HEAD (`null` = a HEAD row deleted in the draft); for a table HEAD lacks it holds every
 * row. An overlay equal to its HEAD table is dropped, so "no overlay" means "shown as HEAD".
 */
export type TableOverlay = {
  readonly tableKey: string;
  tableId: string;
  schema: JsonObject;
  readonly createdAt: string;
  updatedAt: string;
  readonly rows: Map<string, RowRecord | null>;
  count: number;
};

/**
 * Content of one branch: HEAD plus the draft as an overlay, so a commit merges O(changed) and a revert drops the
 * overlay. `streamRevision` is the last folded event of `branch-{id}` (null: none), the expected revision of the
 * next append.
 */
export type BranchContent = {
  readonly branchId: string;
  streamRevision: number | null;
  headSeq: number;
  headRevisionId: string;
  draftRevisionId: string;
  readonly head: Map<string, TableRecord>;
  /** tableKey -> draft version; `null` = HEAD table deleted in the draft. */
  readonly draft: Map<string, TableOverlay | null>;
  /** Draft table id -> tableKey (exact ids). */
  readonly draftIds: Map<string, string>;
  /**
   * Set when the rows were not all loaded (decisionFacts.ts): row maps are FactRows that record what a decision
   * asked and lacked; `headLayers` are the layers HEAD's rows are read through; `values` the holders of unique
   * values read so far. Absent: every row is in memory.
   */
  facts?: { readonly misses: FactMisses; readonly headLayers: readonly VersionLayer[]; readonly values: GatheredValues };
};

export type BranchContentInit = {
  readonly branchId: string;
  readonly headRevisionId: string;
  readonly draftRevisionId: string;
  /** Content of the start revision (already a private copy: it becomes this state's HEAD). */
  readonly head?: Map<string, TableRecord>;
};

export function createBranchContent(init: BranchContentInit): BranchContent {
  const head = init.head ?? new Map<string, TableRecord>();
  const state: BranchContent = {
    branchId: init.branchId,
    streamRevision: null,
    headSeq: 0,
    headRevisionId: init.headRevisionId,
    draftRevisionId: init.draftRevisionId,
    head,
    draft: new Map(),
    draftIds: new Map(),
  };
  for (const table of head.values()) state.draftIds.set(table.tableId, table.tableKey);
  return state;
}

/** A private copy of HEAD content (row records are immutable and shared). */
export function copyTables(tables: ReadonlyMap<string, TableRecord>): Map<string, TableRecord> {
  const out = new Map<string, TableRecord>();
  for (const [key, table] of tables) out.set(key, { ...table, rows: new Map(table.rows) });
  return out;
}

/** The draft's view of one table. */
export type DraftTable = {
  readonly tableKey: string;
  readonly tableId: string;
  readonly schema: JsonObject;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly count: number;
  /** HEAD table with the same key, or null for a table created in the draft. */
  readonly head: TableRecord | null;
  /** Draft changes, or null when the table equals HEAD. */
  readonly overlay: TableOverlay | null;
};

export function draftTable(state: BranchContent, tableKey: string): DraftTable | null {
  const overlay = state.draft.get(tableKey);
  if (overlay === null) return null;
  const head = state.head.get(tableKey) ?? null;
  if (overlay !== undefined) return { ...overlay, head, overlay };
  if (head === null) return null;
  return {
    tableKey,
    tableId: head.tableId,
    schema: head.schema,
    createdAt: head.createdAt,
    updatedAt: head.updatedAt,
    count: head.rows.size,
    head,
    overlay: null,
  };
}

export function draftTableById(state: BranchContent, tableId: string): DraftTable | null {
  const key = state.draftIds.get(tableId);
  return key === undefined ? null : draftTable(state, key);
}

/** Every table of the draft. */
export function draftTables(state: BranchContent): DraftTable[] {
  const out: DraftTable[] = [];
  for (const key of state.draftIds.values()) {
    const table = draftTable(state, key);
    if (table) out.push(table);
  }
  return out;
}

/** The draft row, or null. */
export function draftRow(table: DraftTable, rowId: string): RowRecord | null {
  if (table.overlay) {
    const changed = table.overlay.rows.get(rowId);
    if (changed !== undefined) return changed;
    if (table.head === null) return null;
  }
  return table.head?.rows.get(rowId) ?? null;
}

/** Whether the draft shows the HEAD version of the row (readers: readonly). */
export function isHeadRow(table: DraftTable, rowId: string): boolean {
  return table.head !== null && (table.overlay === null || !table.overlay.rows.has(rowId)) && table.head.rows.has(rowId);
}

/** Every row of a draft table as [rowId, record]. */
export function* draftRows(table: DraftTable): Generator<readonly [string, RowRecord]> {
  const overlayRows = table.overlay?.rows;
  if (overlayRows) {
    for (const entry of overlayRows) {
      if (entry[1] !== null) yield entry as readonly [string, RowRecord];
    }
  }
  if (table.head) {
    for (const entry of table.head.rows) {
      if (!overlayRows?.has(entry[0])) yield entry;
    }
  }
}

export function draftHasChanges(state: BranchContent): boolean {
  return state.draft.size > 0;
}

export function draftSeq(state: BranchContent): number {
  return state.headSeq + 1;
}
