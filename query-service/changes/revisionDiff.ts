import { jsonDeepEqual } from '../../contracts/index.ts';
import type { RevisionRecord, SystemState, ViewDoc } from '../../contracts/index.ts';
import type { ChangeReader, StoredRowMark } from './changeReader.ts';
import { revisionScopeOf, type RevisionScope } from '../readers/revisionScope.ts';
import type { SchemaReader, TableVersion } from '../readers/schemaReader.ts';
import { diffPaths, type Segment } from './revisionAncestry.ts';
import { pairRows, type PairedRow, type RowMark } from './rowPairing.ts';

export type TableChangeKind = 'ADDED' | 'REMOVED' | 'RENAMED' | 'MODIFIED';

/** One changed table between base and target; `rows` holds its changed rows when they were asked for. */
export type TableDiff = {
  readonly tableId: string;
  readonly previousTableId: string | null;
  readonly change: TableChangeKind;
  readonly schemaChanged: boolean;
  readonly base: TableVersion | null;
  readonly target: TableVersion | null;
  readonly rows: readonly PairedRow[];
};

export type RevisionDiff = {
  readonly targetScope: RevisionScope;
  readonly baseScope: RevisionScope;
  /** Changed tables, by `tableId`. */
  readonly tables: readonly TableDiff[];
};

type Pair = { readonly base: TableVersion | null; readonly target: TableVersion | null };

/** Candidate row ids and marks per table key, gathered from the changed segments of both paths. */
type Candidates = {
  readonly ids: Map<string, Set<string>>;
  readonly toBase: StoredRowMark[];
  readonly toTarget: StoredRowMark[];
};

export type RevisionDiffDeps = { readonly schemas: SchemaReader; readonly changes: ChangeReader };

/**
 * Table and row changes between `base` and `target` (changes.md §1). Only what changed between them is read: the
 * row versions that start or end in the revisions between their common ancestor and each of them, the renames and
 * deletions of those revisions, then the versions of just those row ids on both sides. `includeRows` picks the
 * tables whose rows are paired (every table when absent); the others list no rows but are still detected.
 */
export async function revisionDiff(
  deps: RevisionDiffDeps,
  state: SystemState,
  target: RevisionRecord,
  base: RevisionRecord,
  includeRows?: (pair: Pair) => boolean,
): Promise<RevisionDiff> {
  const targetScope = revisionScopeOf(state, target);
  const baseScope = revisionScopeOf(state, base);
  const paths = diffPaths(state, target, base);
  const [candidates, baseTables, targetTables] = await Promise.all([
    gatherCandidates(deps.changes, paths.toTarget, paths.toBase),
    deps.schemas.allTables(baseScope),
    deps.schemas.allTables(targetScope),
  ]);
  const tables: TableDiff[] = [];
  for (const pair of pairTables(baseTables, targetTables)) {
    const schemaChanged = pair.base !== null && pair.target !== null && !jsonDeepEqual(pair.base.schema, pair.target.schema);
    const keys = [pair.base?.tableKey, pair.target?.tableKey].filter((key): key is string => key !== undefined);
    const touched = whole(pair) || keys.some((key) => candidates.ids.has(key));
    const paired = touched && (includeRows === undefined || includeRows(pair));
    const rows = paired ? await pairedRows(deps.changes, pair, keys, candidates, baseScope, targetScope) : [];
    const kind = changeKind(pair, schemaChanged, paired ? rows.length > 0 : touched);
    if (kind === null) continue;
    const tableId = (pair.target ?? pair.base)?.tableId as string;
    const previousTableId = kind === 'RENAMED' ? (pair.base?.tableId ?? null) : null;
    tables.push({ tableId, previousTableId, change: kind, schemaChanged, base: pair.base, target: pair.target, rows });
  }
  tables.sort((a, b) => (a.tableId < b.tableId ? -1 : a.tableId > b.tableId ? 1 : 0));
  return { targetScope, baseScope, tables };
}

/**
 * A table that is not the same table (stable key) on both sides: every row of each side is a change. Its rows need
 * not have versions in the changed segments (a branch deleting a table it inherits writes none for its rows).
 */
function whole(pair: Pair): boolean {
  return pair.base === null || pair.target === null || pair.base.tableKey !== pair.target.tableKey;
}

/**
 * A table whose row versions moved but whose rows are all equal again is unchanged; a table whose rows were not
 * paired (`includeRows` said no) counts as changed when any of its versions moved.
 */
function changeKind(pair: Pair, schemaChanged: boolean, rowsMayDiffer: boolean): TableChangeKind | null {
  if (pair.target === null) return 'REMOVED';
  if (pair.base === null) return 'ADDED';
  if (pair.base.tableId !== pair.target.tableId) return 'RENAMED';
  return schemaChanged || rowsMayDiffer ? 'MODIFIED' : null;
}

/** Tables are the same table by their stable key, or (deleted and created again) by an equal id. */
function pairTables(baseTables: readonly TableVersion[], targetTables: readonly TableVersion[]): Pair[] {
  const baseByKey = new Map(baseTables.map((table) => [table.tableKey, table]));
  const pairs: Pair[] = [];
  const unpairedTargets: TableVersion[] = [];
  for (const target of targetTables) {
    const base = baseByKey.get(target.tableKey);
    if (base === undefined) unpairedTargets.push(target);
    else {
      baseByKey.delete(target.tableKey);
      pairs.push({ base, target });
    }
  }
  const baseById = new Map([...baseByKey.values()].map((table) => [table.tableId, table]));
  for (const target of unpairedTargets) {
    const base = baseById.get(target.tableId) ?? null;
    if (base !== null) baseById.delete(target.tableId);
    pairs.push({ base, target });
  }
  for (const base of baseById.values()) pairs.push({ base, target: null });
  return pairs;
}

async function gatherCandidates(reader: ChangeReader, toTarget: readonly Segment[], toBase: readonly Segment[]): Promise<Candidates> {
  const ids = new Map<string, Set<string>>();
  const add = (tableKey: string, rowId: string | null): void => {
    if (rowId === null) return;
    let set = ids.get(tableKey);
    if (set === undefined) ids.set(tableKey, (set = new Set()));
    set.add(rowId);
  };
  const read = (segments: readonly Segment[]) =>
    Promise.all(segments.map(async (segment) => ({ versions: await reader.changedVersions(segment), marks: await reader.marks(segment) })));
  const [targetReads, baseReads] = await Promise.all([read(toTarget), read(toBase)]);
  for (const { versions, marks } of [...targetReads, ...baseReads]) {
    for (const doc of versions) add(doc.tableKey as string, doc.rowId as string);
    for (const mark of marks) {
      add(mark.tableKey, mark.rowId);
      add(mark.tableKey, mark.previousRowId);
    }
  }
  return {
    ids,
    toTarget: targetReads.flatMap((read) => read.marks),
    toBase: baseReads.flatMap((read) => read.marks).reverse(),
  };
}

async function pairedRows(
  reader: ChangeReader,
  pair: Pair,
  keys: readonly string[],
  candidates: Candidates,
  baseScope: RevisionScope,
  targetScope: RevisionScope,
): Promise<PairedRow[]> {
  const ids = [...new Set(keys.flatMap((key) => [...(candidates.ids.get(key) ?? [])]))];
  const visible = (table: TableVersion | null, scope: RevisionScope): Promise<Map<string, ViewDoc>> => {
    if (table === null) return Promise.resolve(new Map());
    return whole(pair) ? reader.allRows(scope, table.tableKey) : reader.visibleRows(scope, table.tableKey, ids);
  };
  const [baseRows, targetRows] = await Promise.all([visible(pair.base, baseScope), visible(pair.target, targetScope)]);
  const ofTable = (marks: readonly StoredRowMark[]): RowMark[] => marks.filter((mark) => keys.includes(mark.tableKey));
  return pairRows(baseRows, targetRows, { toBase: ofTable(candidates.toBase), toTarget: ofTable(candidates.toTarget) });
}
