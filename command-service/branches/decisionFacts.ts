import { and, fieldIndex, fieldsEqual, inChunks, invariant, resolveTableLayers, revisionLayers, visibleAt } from '../../contracts/index.ts';
import type { BranchRecord, Filter, JsonObject, SystemState, VersionLayer, ViewDoc, ViewStore } from '../../contracts/index.ts';
import { createBranchContent, type BranchContent, type RowRecord, type TableRecord } from './branchContent.ts';
import { DECISION_PROJECTION } from './decisionViews.ts';
import { FactRows, clearMisses, createFactMisses, gatheredValuesKey, hasMisses, type ValueMisses } from './factRows.ts';
import type { UniqueValue } from '../domain/rows/uniqueClashes.ts';
import { valueKey } from './headValueIndexes.ts';

const ROW_IDENTITY = ['tableKey', 'rowId'] as const;

/** Unique values asked per store read (one `IN` over the field index per layer arm). */
const VALUES_PER_READ = 200;

/** Distinct field paths indexed per process on the decision state (like the readers' MAX_FIELD_INDEXES). */
const MAX_FIELD_INDEXES = 500;

/**
 * Reads of the decision state (decisionViews.ts) into a branch's content as deciders see it
 * (docs/reference/versioned-storage.md §2): every table of HEAD and of the draft (tables are few), rows only as a
 * decision asks for them (FactRows records what it asked; `gatherMissing` reads it).
 */
export type DecisionFacts = {
  /** The branch's HEAD and draft tables as of the decision state's checkpoint, with no rows gathered. */
  load(system: SystemState, branch: BranchRecord): Promise<BranchContent>;
  /** Reads what decisions on `state` missed since the last call; false when they missed nothing. */
  gatherMissing(state: BranchContent): Promise<boolean>;
};

function rowRecord(doc: ViewDoc): RowRecord {
  return { data: doc.data as JsonObject, createdAt: doc.createdAt as string, updatedAt: doc.updatedAt as string };
}

/** Tables in creation order (ties by key): the order decisions list them in (error details, schema rewrites). */
function byCreation(tables: readonly ViewDoc[]): ViewDoc[] {
  const key = (doc: ViewDoc) => `${doc.createdAt as string}\u0000${doc.tableKey as string}`;
  return [...tables].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

export function createDecisionFacts(views: ViewStore): DecisionFacts {
  /** Field indexes ensured on the decision state (per path; the projection has one version). */
  const fieldIndexes = new Map<string, Promise<void>>();
  function ensureFieldIndex(dataPath: readonly string[]): Promise<void> {
    const pathKey = JSON.stringify(dataPath);
    let done = fieldIndexes.get(pathKey);
    if (done === undefined) {
      // Past the bound the reads still answer, from the table's part of the rows index.
      if (fieldIndexes.size >= MAX_FIELD_INDEXES) return Promise.resolve();
      done = views.ensureIndex(DECISION_PROJECTION, 'rows', fieldIndex(dataPath));
      fieldIndexes.set(pathKey, done);
      done.catch(() => fieldIndexes.delete(pathKey));
    }
    return done;
  }

  const find = (collection: string, filter: Filter, layers?: readonly VersionLayer[]) =>
    views.find(DECISION_PROJECTION, collection, { filter, ...(layers ? { versions: { layers, identity: ROW_IDENTITY } } : {}) });

  async function load(system: SystemState, branch: BranchRecord): Promise<BranchContent> {
    const head = await views.get(DECISION_PROJECTION, 'branch_heads', { branchId: branch.id });
    const headSeq = (head?.headSeq as number | null | undefined) ?? 0;
    const headLayers = revisionLayers(system, { branchId: branch.id, seq: headSeq });
    const draftSeq = headSeq + 1;
    const [lower, topHead, topDraft] = await Promise.all([
      Promise.all(headLayers.slice(1).map((layer) => find('tables', visibleAt(layer.branchId, layer.seq)))),
      find('tables', visibleAt(branch.id, headSeq)),
      find('tables', visibleAt(branch.id, draftSeq)),
    ]);
    const misses = createFactMisses();
    const headTables = new Map<string, TableRecord>();
    for (const doc of byCreation(resolveTableLayers([topHead, ...lower]))) {
      const tableKey = doc.tableKey as string;
      headTables.set(tableKey, {
        tableKey,
        tableId: doc.tableId as string,
        schema: doc.schema as JsonObject,
        createdAt: doc.createdAt as string,
        updatedAt: doc.updatedAt as string,
        rows: new FactRows<RowRecord>(tableKey, 'head', misses, doc.count as number),
      });
    }
    const state = createBranchContent({
      branchId: branch.id,
      headRevisionId: (head?.headRevisionId as string | null | undefined) ?? branch.startRevisionId,
      draftRevisionId: (head?.draftRevisionId as string | null | undefined) ?? branch.revisionIds[1] ?? branch.draftRevisionId,
      head: headTables,
    });
    state.streamRevision = (head?.streamRevision as number | null | undefined) ?? null;
    state.headSeq = headSeq;
    // The draft's own versions (fromSeq = D) are its overlays; a tombstone of a table HEAD lacks hides nothing.
    const draftTables = byCreation(resolveTableLayers([topDraft, ...lower]));
    const resolved = new Map(draftTables.map((doc) => [doc.tableKey as string, doc]));
    for (const doc of topDraft) {
      if (doc.fromSeq !== draftSeq) continue;
      const tableKey = doc.tableKey as string;
      if (doc.tombstone === true) {
        if (headTables.has(tableKey)) state.draft.set(tableKey, null);
        continue;
      }
      const table = resolved.get(tableKey);
      invariant(table, `draft table ${tableKey} of branch ${branch.id} resolves`);
      state.draft.set(tableKey, {
        tableKey,
        tableId: table.tableId as string,
        schema: table.schema as JsonObject,
        createdAt: table.createdAt as string,
        updatedAt: table.updatedAt as string,
        rows: new FactRows<RowRecord | null>(tableKey, 'draft', misses),
        count: table.count as number,
      });
    }
    state.draftIds.clear();
    for (const doc of draftTables) state.draftIds.set(doc.tableId as string, doc.tableKey as string);
    state.facts = { misses, headLayers, values: new Map() };
    return state;
  }

  /** Gathers the HEAD rows `rowIds` of a table (or all of them). */
  async function gatherHead(state: BranchContent, rows: FactRows<RowRecord>, rowIds: readonly string[] | 'all'): Promise<void> {
    const layers = state.facts?.headLayers;
    invariant(layers, 'a gathered state has layers');
    const scope = fieldsEqual({ tableKey: rows.tableKey });
    if (rowIds === 'all') {
      for (const doc of await find('rows', scope, layers)) rows.absorb(doc.rowId as string, rowRecord(doc));
      rows.markComplete();
      return;
    }
    const wanted = rowIds.filter((rowId) => !rows.complete && !rows.known.has(rowId));
    for (const ids of inChunks('rowId', wanted)) {
      for (const doc of await find('rows', and(scope, ids), layers)) rows.absorb(doc.rowId as string, rowRecord(doc));
    }
    for (const rowId of wanted) rows.absorb(rowId, undefined);
  }

  /**
   * Gathers the draft's changes of a table: a version at D is a changed row; a tombstone at D is a deleted HEAD row,
   * or nothing when HEAD lacks the row (a row created and deleted in the same draft).
   */
  async function gatherDraft(state: BranchContent, rows: FactRows<RowRecord | null>, rowIds: readonly string[] | 'all'): Promise<void> {
    const draftScope = fieldsEqual({ branchId: state.branchId, tableKey: rows.tableKey, fromSeq: state.headSeq + 1 });
    const wanted = rowIds === 'all' ? [] : rowIds.filter((rowId) => !rows.complete && !rows.known.has(rowId));
    const docs: ViewDoc[] = [];
    if (rowIds === 'all') docs.push(...(await find('rows', draftScope)));
    else for (const ids of inChunks('rowId', wanted)) docs.push(...(await find('rows', and(draftScope, ids))));
    const headRows = state.head.get(rows.tableKey)?.rows;
    const tombstones = docs.filter((doc) => doc.tombstone === true).map((doc) => doc.rowId as string);
    if (headRows instanceof FactRows && tombstones.length > 0) await gatherHead(state, headRows, tombstones);
    for (const doc of docs) {
      const rowId = doc.rowId as string;
      if (doc.tombstone !== true) rows.absorb(rowId, rowRecord(doc));
      else rows.absorb(rowId, headRows?.has(rowId) === true ? null : undefined);
    }
    for (const rowId of wanted) rows.absorb(rowId, undefined);
    if (rowIds === 'all') rows.markComplete();
  }

  /**
   * Gathers which rows of a table hold the asked values at one unique path (domain.md §5.5): a layered read of HEAD
   * and a read of the draft's versions at D, both on the field index (created on first use, idempotent), so the
   * rows read are the holders, never the table. HEAD holders get their draft side gathered too (a draft change or
   * deletion stands for them). The rows join the FactRows, the ids the state's gathered values.
   */
  async function gatherValues(state: BranchContent, tableKey: string, asked: ValueMisses): Promise<void> {
    const facts = state.facts;
    invariant(facts, 'a gathered state has facts');
    const key = gatheredValuesKey(tableKey, asked.dataPath);
    let gathered = facts.values.get(key);
    if (gathered === undefined) {
      gathered = new Map();
      facts.values.set(key, gathered);
    }
    const wanted = [...asked.values].filter(([valueKeyOf]) => !gathered.has(valueKeyOf)).map(([, value]) => value);
    if (wanted.length === 0) return;
    await ensureFieldIndex(asked.dataPath);
    const headRows = state.head.get(tableKey)?.rows;
    const draftRows = state.draft.get(tableKey)?.rows;
    const holders = new Map<string, string[]>(wanted.map((value) => [valueKey(value), []]));
    const hold = (doc: ViewDoc): string => {
      const rowId = doc.rowId as string;
      let value: unknown = doc.data;
      for (const segment of asked.dataPath) value = (value as Record<string, unknown> | null)?.[segment];
      holders.get(valueKey(value as UniqueValue))?.push(rowId);
      return rowId;
    };
    for (let at = 0; at < wanted.length; at += VALUES_PER_READ) {
      const values = wanted.slice(at, at + VALUES_PER_READ);
      const valueFilter: Filter = { kind: 'json', field: 'data', path: asked.dataPath, test: { op: 'in', values } };
      if (headRows instanceof FactRows) {
        const headIds: string[] = [];
        for (const doc of await find('rows', and(fieldsEqual({ tableKey }), valueFilter), facts.headLayers)) {
          headRows.absorb(hold(doc), rowRecord(doc));
          headIds.push(doc.rowId as string);
        }
        if (draftRows instanceof FactRows && headIds.length > 0) await gatherDraft(state, draftRows as FactRows<RowRecord | null>, headIds);
      }
      if (draftRows instanceof FactRows) {
        const draftScope = fieldsEqual({ branchId: state.branchId, tableKey, fromSeq: state.headSeq + 1 });
        for (const doc of await find('rows', and(draftScope, valueFilter))) {
          if (doc.tombstone !== true) draftRows.absorb(hold(doc), rowRecord(doc));
        }
      }
    }
    for (const [valueKeyOf, ids] of holders) gathered.set(valueKeyOf, ids);
  }

  async function gatherMissing(state: BranchContent): Promise<boolean> {
    const misses = state.facts?.misses;
    if (misses === undefined || !hasMisses(misses)) return false;
    const rowMisses = new Map([...misses.rows].map(([tableKey, ids]) => [tableKey, [...ids]]));
    const fullHead = new Set(misses.fullHead);
    const fullDraft = new Set(misses.fullDraft);
    const valueMisses = [...misses.values].flatMap(([tableKey, paths]) => [...paths.values()].map((asked) => [tableKey, asked] as const));
    clearMisses(misses);
    for (const [tableKey, asked] of valueMisses) await gatherValues(state, tableKey, asked);
    const tableKeys = new Set([...rowMisses.keys(), ...fullHead, ...fullDraft]);
    for (const tableKey of tableKeys) {
      const headRows = state.head.get(tableKey)?.rows;
      const draftRows = state.draft.get(tableKey)?.rows;
      const ids = rowMisses.get(tableKey) ?? [];
      if (headRows instanceof FactRows && !headRows.complete) {
        await gatherHead(state, headRows as FactRows<RowRecord>, fullHead.has(tableKey) ? 'all' : ids);
      }
      if (draftRows instanceof FactRows && !draftRows.complete) {
        await gatherDraft(state, draftRows as FactRows<RowRecord | null>, fullDraft.has(tableKey) ? 'all' : ids);
      }
    }
    clearMisses(misses);
    return true;
  }

  return { load, gatherMissing };
}
