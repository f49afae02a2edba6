import { AppError } from '../../contracts/index.ts';
import type { DraftRef, TableFacts } from '../../contracts/index.ts';
import { draftTableById, type BranchContent, type DraftTable } from './branchContent.ts';

/**
 * DraftRef of each event of one decision. Tracks which tables will differ from HEAD after each event (the keys of
 * the draft overlay, as evolve will leave them), so `draftHasChanges` is exact for every event of a multi-event
 * append.
 */
export type DraftRefs = {
  /** After an event that leaves these tables as the facts describe. */
  afterTables(facts: readonly TableFacts[]): DraftRef;
  /** After deleting a table. */
  afterDelete(tableKey: string): DraftRef;
};

export function createDraftRefs(state: BranchContent, projectId: string): DraftRefs {
  const changed = new Set(state.draft.keys());
  const ref = (): DraftRef => ({
    projectId,
    draftRevisionId: state.draftRevisionId,
    draftSeq: state.headSeq + 1,
    draftHasChanges: changed.size > 0,
  });
  return {
    afterTables(facts) {
      for (const table of facts) {
        if (table.equalsHead) changed.delete(table.tableKey);
        else changed.add(table.tableKey);
      }
      return ref();
    },
    afterDelete(tableKey) {
      if (state.head.has(tableKey)) changed.add(tableKey);
      else changed.delete(tableKey);
      return ref();
    },
  };
}

/** The draft table with this exact id, or TABLE_NOT_FOUND. */
export function requireTable(state: BranchContent, tableId: string): DraftTable {
  const table = draftTableById(state, tableId);
  if (!table) throw new AppError('TABLE_NOT_FOUND', `Table "${tableId}" not found in the revision`);
  return table;
}
