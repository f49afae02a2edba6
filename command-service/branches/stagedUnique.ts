import { AppError } from '../../contracts/index.ts';
import type {
  DeferredUniqueValue,
  DomainEvent,
  DraftOperation,
  DraftStaging,
  EventStaging,
  InvalidDraftRow,
  StagedUniqueClash,
} from '../../contracts/index.ts';
import { uniqueViolation } from '../domain/rows/uniqueClashes.ts';
import type { DraftChangesReport } from './draftChangesDecision.ts';

/**
 * Unique fields in a staged import (docs/reference/versioned-storage.md §6): a chunk cannot decide them alone (a value
 * may repeat one of a chunk 40 rows away, or be freed by a row a later chunk replaces or `mode=replace` deletes), so
 * the chunks of a table with unique fields (`stage.firstIndex` set) write without checking them and record each
 * written row's values and the draft row holding each in the staging store; `checkUnique` then finds the clashes of
 * the whole import in SQL, with the rule of one command (uniqueClashes). A second pass (`clashesFrom`) leaves the
 * clashing rows out.
 */

/** The chunk's operations as they are decided: row writes defer their unique checks and, in a second pass, lose their clashing rows. */
export async function uniqueAware(store: EventStaging, stage: DraftStaging, operations: readonly DraftOperation[]): Promise<DraftOperation[]> {
  if (stage.firstIndex === undefined) return [...operations];
  const out: DraftOperation[] = [];
  for (const op of operations) {
    if (op.type !== 'CreateRows' && op.type !== 'UpsertRows') {
      out.push(op);
      continue;
    }
    if (op.onInvalidRow !== 'skip') {
      throw new AppError('BAD_USER_INPUT', 'A staged chunk skips its invalid rows', [{ path: '/operations', message: 'onInvalidRow must be skip' }]);
    }
    let rows = op.rows;
    if (stage.clashesFrom !== undefined) {
      const clashing = await store.clashingRows(
        stage.clashesFrom,
        rows.map((row) => row.rowId),
      );
      if (clashing.size > 0) rows = rows.filter((row) => !clashing.has(row.rowId));
    }
    out.push({ ...op, rows, uniqueChecks: 'defer' });
  }
  return out;
}

/** Records the chunk's unique values (their index moved to the import's row list) and every row id it writes or deletes. */
export async function recordUnique(
  store: EventStaging,
  stage: DraftStaging,
  report: Pick<DraftChangesReport, 'operations'>,
  events: readonly DomainEvent[],
): Promise<void> {
  const first = stage.firstIndex ?? 0;
  const values: DeferredUniqueValue[] = report.operations.flatMap((op) =>
    (op.deferredUnique ?? []).map((value) => ({ ...value, index: value.index + first })),
  );
  const rowIds = events.flatMap((event) => {
    if (event.type === 'RowsCreated' || event.type === 'RowsUpdated') return event.data.rows.map((row) => row.rowId);
    return event.type === 'RowsDeleted' ? [...event.data.rowIds] : [];
  });
  await store.recordUnique(stage.stagingId, values, rowIds);
}

/** The clashes `checkUnique` found, as the invalid rows a skipping write reports (one UNIQUE_VIOLATION per row, a detail per clash). */
export function clashingRowsOf(tableId: string, clashes: readonly StagedUniqueClash[]): InvalidDraftRow[] {
  const byRow = new Map<number, StagedUniqueClash[]>();
  for (const clash of clashes) {
    const list = byRow.get(clash.index);
    if (list === undefined) byRow.set(clash.index, [clash]);
    else list.push(clash);
  }
  return [...byRow.entries()].map(([index, list]) => {
    const error = uniqueViolation(tableId, list);
    const rowId = list[0]?.rowId ?? '';
    return { index, rowId, code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
  });
}
