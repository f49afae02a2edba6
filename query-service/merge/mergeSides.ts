import type { RevisionRecord, SideRowChange, SideTableChange, SystemState, ViewDoc, ViewStore } from '../../contracts/index.ts';
import type { ChangeReader } from '../changes/changeReader.ts';
import { revisionDiff, type RevisionDiff, type TableDiff } from '../changes/revisionDiff.ts';
import type { RevisionScope } from '../readers/revisionScope.ts';
import type { SchemaReader, TableVersion } from '../readers/schemaReader.ts';
import { withSidePatches } from './sidePatches.ts';

type Data = Record<string, unknown>;

/** The two change sets of a merge (merge.md §2): base → ours and base → theirs, read with the diff machinery. */
export type MergeSides = {
  readonly ours: readonly SideTableChange[];
  readonly theirs: readonly SideTableChange[];
  readonly oursTableIds: ReadonlySet<string>;
  readonly oursRow: (tableId: string, rowId: string) => Data | null;
  /** Table ids the merge reads on the source side (key scopes apply to them). */
  readonly theirsTableIds: readonly string[];
};

const dataOf = (doc: ViewDoc | null): Data | null => (doc === null ? null : ((doc.data as Data | null) ?? {}));

function sideOf(table: TableDiff): SideTableChange & { readonly tableKey: string | null } {
  const rows: SideRowChange[] = table.rows.map((row) => ({
    baseRowId: row.change === 'ADDED' ? null : (row.previousRowId ?? row.rowId),
    rowId: row.change === 'REMOVED' ? null : row.rowId,
    base: dataOf(row.before),
    data: dataOf(row.after),
  }));
  return {
    tableKey: table.base?.tableKey ?? null,
    baseTableId: table.base?.tableId ?? null,
    tableId: table.target?.tableId ?? null,
    schemaChanged: table.schemaChanged,
    baseSchema: (table.base?.schema as Data | undefined) ?? null,
    schema: (table.target?.schema as Data | undefined) ?? null,
    rows,
  };
}

/**
 * Reads both diffs (with the schema patches each side applied: `withSidePatches`) and the rows of the target draft the merge may collide with (ids theirs adds or renames to), so
 * the pure merge needs no further reads. Cost: the changes of both sides since the base, never a table's size
 * (a table one side adds or removes is listed whole, as in changes.md §1).
 */
export async function readMergeSides(
  deps: { readonly schemas: SchemaReader; readonly changes: ChangeReader; readonly views: Pick<ViewStore, 'find'> },
  state: SystemState,
  args: {
    readonly base: RevisionRecord;
    readonly ours: RevisionRecord;
    readonly theirs: RevisionRecord;
    /** The branch stream revision the draft (ours) was read at. */
    readonly oursEnd: number | 'no_stream';
  },
): Promise<MergeSides & { readonly oursDiff: RevisionDiff }> {
  const [oursDiff, theirsDiff] = await Promise.all([
    revisionDiff(deps, state, args.ours, args.base),
    revisionDiff(deps, state, args.theirs, args.base),
  ]);
  const oursTables = await deps.schemas.allTables(oursDiff.targetScope);
  const oursTableIds = new Set(oursTables.map((table) => table.tableId));
  const [ours, theirs] = await Promise.all([
    withSidePatches(deps.views, state, { base: args.base, side: args.ours, draftEnd: args.oursEnd }, oursDiff.tables.map(sideOf)),
    withSidePatches(deps.views, state, { base: args.base, side: args.theirs, draftEnd: null }, theirsDiff.tables.map(sideOf)),
  ]);
  const rows = await collisionRows(deps.changes, oursDiff.targetScope, oursTables, ours, theirs);
  return {
    oursDiff,
    ours,
    theirs,
    oursTableIds,
    oursRow: (tableId, rowId) => rows.get(tableId)?.get(rowId) ?? null,
    theirsTableIds: [
      ...new Set(theirsDiff.tables.flatMap((t) => [t.base?.tableId, t.target?.tableId]).filter((id): id is string => id !== undefined)),
    ],
  };
}

/** Our rows under the ids theirs adds or renames to, per our table id. */
async function collisionRows(
  reader: ChangeReader,
  scope: RevisionScope,
  oursTables: readonly TableVersion[],
  ours: readonly SideTableChange[],
  theirs: readonly SideTableChange[],
): Promise<Map<string, Map<string, Data>>> {
  const byId = new Map(oursTables.map((table) => [table.tableId, table]));
  const oursIdOf = new Map(ours.filter((t) => t.baseTableId !== null).map((t) => [t.baseTableId as string, t.tableId]));
  const out = new Map<string, Map<string, Data>>();
  await Promise.all(
    theirs.map(async (table) => {
      const oursId =
        table.baseTableId === null ? table.tableId : oursIdOf.has(table.baseTableId) ? oursIdOf.get(table.baseTableId) : table.baseTableId;
      if (oursId === null || oursId === undefined) return;
      const version = byId.get(oursId);
      if (version === undefined) return;
      const ids = table.rows.filter((row) => row.rowId !== null && row.rowId !== row.baseRowId).map((row) => row.rowId as string);
      if (ids.length === 0) return;
      const docs = await reader.visibleRows(scope, version.tableKey, ids);
      out.set(oursId, new Map([...docs].map(([rowId, doc]) => [rowId, dataOf(doc) as Data])));
    }),
  );
  return out;
}
