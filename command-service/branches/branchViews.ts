import { fillSystemRefs, invariant } from '../../contracts/index.ts';
import type { BranchRecord, BranchView, JsonObject, RowView, SystemState, TableView } from '../../contracts/index.ts';
import { jsonHash } from '../domain/tables/jsonHash.ts';
import { draftHasChanges, draftRow, draftTableById, isHeadRow, type BranchContent, type DraftTable } from './branchContent.ts';
import type { TableModelCache } from './tableModelCache.ts';

/** The draft table as the REST API returns it; `readonly` = shown as its HEAD version (domain.md §4). */
export function tableViewOf(table: DraftTable): TableView {
  return {
    id: table.tableId,
    readonly: table.head !== null && table.overlay === null,
    schema: table.schema,
    count: table.count,
    createdAt: table.createdAt,
    updatedAt: table.updatedAt,
  };
}

export function draftTableView(state: BranchContent, tableId: string): TableView {
  const table = draftTableById(state, tableId);
  invariant(table, `table ${tableId} is in the draft`);
  return tableViewOf(table);
}

/** A draft row with its system-ref fields filled (domain.md §5.3). */
export function rowViewOf(table: DraftTable, rowId: string, models: TableModelCache): RowView {
  const row = draftRow(table, rowId);
  invariant(row, `row ${rowId} is in table ${table.tableId}`);
  const model = models(table.schema);
  // Most tables have no system refs: skip building the lazy hash closures (a bulk answer builds 1,000 views).
  const data =
    model.systemRefs.length === 0
      ? row.data
      : (fillSystemRefs(model, row.data, {
          id: rowId,
          createdAt: row.createdAt,
          updatedAt: row.updatedAt,
          hash: () => jsonHash(row.data),
          schemaHash: () => jsonHash(table.schema),
        }) as JsonObject);
  return {
    id: rowId,
    tableId: table.tableId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    readonly: isHeadRow(table, rowId),
    data,
  };
}

export function draftRowViews(state: BranchContent, tableId: string, rowIds: readonly string[], models: TableModelCache): RowView[] {
  const table = draftTableById(state, tableId);
  invariant(table, `table ${tableId} is in the draft`);
  return rowIds.map((rowId) => rowViewOf(table, rowId, models));
}

/** The branch as the REST API returns it, with head/draft ids and `touched` from the content state. */
export function branchViewOf(system: SystemState, branch: BranchRecord, state: BranchContent): BranchView {
  const source = branch.parent ? system.branches.get(branch.parent.branchId) : undefined;
  return {
    id: branch.id,
    projectId: branch.projectId,
    name: branch.name,
    isRoot: branch.isRoot,
    createdAt: branch.createdAt,
    headRevisionId: state.headRevisionId,
    draftRevisionId: state.draftRevisionId,
    startRevisionId: branch.startRevisionId,
    parent: branch.parent && source ? { branchName: source.name, revisionId: branch.parent.revisionId } : null,
    touched: draftHasChanges(state),
  };
}
