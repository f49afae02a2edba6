import { isoTime, tableInScope, toJsonPointer } from '../../contracts/index.ts';
import type {
  BranchRecord,
  CommandContext,
  JsonObject,
  TableMigrationLossView,
  TableMigrationView,
  TableUpdatePreviewView,
} from '../../contracts/index.ts';
import type { Clock } from '../../contracts/index.ts';
import { draftRow, draftTableById, type BranchContent } from './branchContent.ts';
import type { BranchCommandData, BranchDeciderTools } from './branchCommand.ts';
import type { BranchContentStore } from './branchContentStore.ts';
import { recordCommandNeeds } from './commandFacts.ts';
import { decideOnFacts } from './decideOnFacts.ts';
import { draftTableView } from './branchViews.ts';
import { evolveBranchContent, undoChanges, type UndoLog } from './evolveBranchContent.ts';
import { decideUpdateTable, type RowLossListener } from './updateTableDecision.ts';

/** Changed rows shown in a dry run's `sample`, and lost values in its `lossySample` (domain.md §6 rule 6). */
const SAMPLE_SIZE = 5;

/** Counts the rows with a value the migration could not keep and keeps the first loss of the first few of them. */
function createLossCollector(): { readonly onLoss: RowLossListener; readonly rowsLossy: () => number; readonly sample: TableMigrationLossView[] } {
  const rows = new Set<string>();
  const sample: TableMigrationLossView[] = [];
  return {
    onLoss(rowId, path, before, after) {
      if (rows.has(rowId)) return;
      rows.add(rowId);
      // Copies: later migration steps change the row data the values belong to.
      if (sample.length < SAMPLE_SIZE)
        sample.push({ rowId, path: toJsonPointer(path), before: structuredClone(before), after: structuredClone(after) });
    },
    rowsLossy: () => rows.size,
    sample,
  };
}

export type PreviewDeps = {
  readonly store: BranchContentStore;
  readonly clock: Clock;
  readonly newId: () => string;
  readonly tools: BranchDeciderTools;
};

/**
 * updateTable's dry run (domain.md §6 rule 6): the same decision as a real run against the caught-up draft (so the
 * same failures), folded into the in-memory content with an undo record to read the table as it would be, then
 * taken back. Nothing is appended. Runs under the branch's lock, so no write of this process sees the fold.
 */
export function previewUpdateTable(
  deps: PreviewDeps,
  branch: BranchRecord,
  system: Parameters<BranchContentStore['withBranch']>[1],
  data: BranchCommandData['UpdateTable'],
  context: CommandContext,
): Promise<TableUpdatePreviewView> {
  return deps.store.withBranch(branch, system, async (state) => {
    const now = deps.clock.now();
    const meta = {
      now: isoTime(now),
      newId: deps.newId(),
      projectId: branch.projectId,
      tableInScope: (tableId: string) => tableInScope(context.principal, tableId),
    };
    const total = draftTableById(state, data.tableId)?.count ?? 0;
    let losses = createLossCollector();
    const outcome = await decideOnFacts(
      deps.store,
      state,
      () => {
        losses = createLossCollector();
        return decideUpdateTable(state, data, meta, deps.tools, losses.onLoss);
      },
      () => recordCommandNeeds(state, deps.tools, { type: 'UpdateTable', data }),
    );
    if (!outcome.ok) throw outcome.error;
    const events = outcome.value;
    const [event] = events;
    const changed = event?.type === 'TableSchemaUpdated' ? event.data.rows.map((row) => row.rowId) : [];
    // Read the "before" rows first: folding changes the draft's row maps in place.
    const before = rowData(state, data.tableId, changed.slice(0, SAMPLE_SIZE));
    const undo: UndoLog = [];
    try {
      const first = (state.streamRevision ?? -1) + 1;
      events.forEach((e, i) => evolveBranchContent(state, e, { revision: first + i, time: meta.now, undo }));
      const after = rowData(state, data.tableId, changed.slice(0, SAMPLE_SIZE));
      const sample = [...before].flatMap(([rowId, data]) => {
        const next = after.get(rowId);
        return next ? [{ rowId, before: data, after: next }] : [];
      });
      const migration: TableMigrationView = {
        rowsChanged: changed.length,
        rowsUnchanged: total - changed.length,
        rowsLossy: losses.rowsLossy(),
        sample,
        lossySample: losses.sample,
      };
      return { table: draftTableView(state, data.tableId), migration };
    } finally {
      undoChanges(undo);
    }
  });
}

function rowData(state: BranchContent, tableId: string, rowIds: readonly string[]): Map<string, JsonObject> {
  const table = draftTableById(state, tableId);
  const out = new Map<string, JsonObject>();
  for (const rowId of rowIds) {
    const row = table ? draftRow(table, rowId) : null;
    if (row) out.set(rowId, row.data);
  }
  return out;
}
