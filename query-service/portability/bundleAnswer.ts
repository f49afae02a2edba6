import { AppError } from '../../contracts/index.ts';
import type { DraftOperationResult } from '../../contracts/index.ts';
import type { ImportAnswer } from './importAnswer.ts';
import type { ParsedBundle } from './bundleParse.ts';

/** changes.md §1.1 TableChange, counted from what the import does to the draft. */
export type BundleTableChange = {
  readonly tableId: string;
  readonly previousTableId: null;
  readonly change: 'ADDED' | 'REMOVED' | 'MODIFIED';
  readonly schemaChanged: boolean;
  readonly rowChanges: { added: number; updated: number; removed: number; renamed: number; total: number };
};

/** The draft's changes against its state before (changes.md §1.1 shape) plus a table import's counts. */
export type BundleImportAnswer = ImportAnswer & {
  readonly revisionId: string;
  readonly tables: readonly BundleTableChange[];
  readonly totalRowChanges: number;
};

/**
 * What a bundle import does, operation by operation (one command's operations, or a staged import's chunks): the
 * tables' changes and the answer's counts. Row errors are added to the bundle's line errors by the caller.
 */
export function createBundleTally() {
  const changes = new Map<string, BundleTableChange>();
  const counts = { created: 0, updated: 0, unchanged: 0, removed: 0 };
  const changeOf = (tableId: string): BundleTableChange => {
    let change = changes.get(tableId);
    if (change === undefined) {
      change = {
        tableId,
        previousTableId: null,
        change: 'MODIFIED',
        schemaChanged: false,
        rowChanges: { added: 0, updated: 0, removed: 0, renamed: 0, total: 0 },
      };
      changes.set(tableId, change);
    }
    return change;
  };
  return {
    /** Counts an operation's result; `removedTableRows`: the rows of the table a DeleteTable removes. */
    add(op: DraftOperationResult, removedTableRows = 0): void {
      const change = changeOf(op.tableId);
      const rows = change.rowChanges;
      if (op.type === 'CreateTable') changes.set(op.tableId, { ...change, change: 'ADDED', schemaChanged: true });
      if (op.type === 'UpdateTable') changes.set(op.tableId, { ...change, schemaChanged: true });
      if (op.type === 'DeleteTable') {
        rows.removed += removedTableRows;
        counts.removed += removedTableRows;
        changes.set(op.tableId, { ...change, change: 'REMOVED' });
      }
      rows.added += op.created;
      rows.updated += op.updated;
      rows.removed += op.deleted;
      counts.created += op.created;
      counts.updated += op.updated;
      counts.unchanged += op.unchanged;
      counts.removed += op.deleted;
    },

    answer(bundle: ParsedBundle, revisionId: string, dryRun: boolean): BundleImportAnswer {
      const tables = [...changes.values()]
        .map((change) => ({
          ...change,
          rowChanges: { ...change.rowChanges, total: change.rowChanges.added + change.rowChanges.updated + change.rowChanges.removed },
        }))
        .filter((change) => change.change !== 'MODIFIED' || change.schemaChanged || change.rowChanges.total > 0)
        .sort((a, b) => (a.tableId < b.tableId ? -1 : a.tableId > b.tableId ? 1 : 0));
      return {
        revisionId,
        tables,
        totalRowChanges: tables.reduce((sum, change) => sum + change.rowChanges.total, 0),
        processed: bundle.processed,
        ...counts,
        invalid: bundle.errors.count(),
        errors: bundle.errors.first(),
        dryRun,
      };
    },
  };
}

/** The bundle is refused whole if a line is invalid (portability.md §3): 400 IMPORT_INVALID listing the first lines. */
export function refuseIfInvalid(answer: BundleImportAnswer): void {
  if (answer.invalid === 0) return;
  const details = answer.errors.map((error) => ({ path: `/line/${error.line}`, message: `${error.code}: ${error.message}` }));
  throw new AppError('IMPORT_INVALID', `${answer.invalid} of ${answer.processed} lines are invalid; nothing was imported`, details);
}
