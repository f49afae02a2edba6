import { createHash } from 'node:crypto';
import { AppError } from '../../contracts/index.ts';
import type { DomainEvent, DraftOperation, DraftStaging, StagedTotals } from '../../contracts/index.ts';

/**
 * The chunks of a staged bundle import (DraftStaging `bundle`, docs/reference/versioned-storage.md §6): the
 * bundle's table operations are decided again before every chunk's rows (their events staged once), the rows'
 * foreign keys left to the bundle's check (ReferenceChecks), and the events' facts taken on the safe side.
 */

const TABLE_OPERATIONS = new Set<string>(['CreateTable', 'UpdateTable', 'DeleteTable']);
const ROW_OPERATIONS = new Set<string>(['CreateRows', 'UpsertRows', 'DeleteRows']);

function refuse(message: string): AppError {
  return new AppError('BAD_USER_INPUT', `A staged bundle chunk holds ${message}`, [{ path: '/operations', message }]);
}

/** The seed of the created tables' keys: one per staging, so every chunk names the bundle's new tables alike. */
export function tableKeySeedOf(stagingId: string): string {
  return createHash('sha256').update(stagingId).digest('base64url').slice(0, 21);
}

/** The chunk's operations as decided: table operations, then rows of one table, these with ReferenceChecks. */
export function bundleOperations(operations: readonly DraftOperation[], bundle: NonNullable<DraftStaging['bundle']>): DraftOperation[] {
  const { prefix, replacedTables } = bundle;
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > operations.length) throw refuse('a prefix within its operations');
  const rest = operations.slice(prefix);
  if (operations.slice(0, prefix).some((op) => !TABLE_OPERATIONS.has(op.type))) throw refuse('table operations in its prefix');
  if (rest.some((op) => !TABLE_OPERATIONS.has(op.type) && !ROW_OPERATIONS.has(op.type))) throw refuse('table and row operations only');
  if (new Set(rest.filter((op) => ROW_OPERATIONS.has(op.type)).map((op) => op.tableId)).size > 1) throw refuse('rows of one table');
  const referenceChecks = { replacedTables };
  return [...operations.slice(0, prefix), ...rest.map((op) => (ROW_OPERATIONS.has(op.type) ? ({ ...op, referenceChecks } as DraftOperation) : op))];
}

/** The events of the operations after the prefix (`eventCounts`: how many each operation decided). */
export function eventsAfterPrefix(events: readonly DomainEvent[], eventCounts: readonly number[], prefix: number): DomainEvent[] {
  return events.slice(eventCounts.slice(0, prefix).reduce((sum, count) => sum + count, 0));
}

const rowIdsOf = (event: DomainEvent): readonly string[] | null => {
  if (event.type === 'RowsCreated' || event.type === 'RowsUpdated') return event.data.rows.map((row) => row.rowId);
  return event.type === 'RowsDeleted' ? event.data.rowIds : null;
};

/**
 * A bundle chunk's events with the facts of the draft after the chunks staged before it. The chunk was decided on
 * the draft with the bundle's tables but without the earlier chunks' rows, so a row event's `table.count` is moved
 * by the rows the earlier chunks created and deleted in its table (`netRowsByTable`). Whether a table then equals
 * HEAD is not known chunk by chunk across several tables: the events say it differs and the draft has changes (the
 * safe side: readers show an unchanged version as changed, never the reverse).
 */
export function stagedBundleFacts(events: readonly DomainEvent[], before: StagedTotals): { events: DomainEvent[]; after: StagedTotals } {
  const earlier = before.netRowsByTable ?? {};
  const net: Record<string, number> = { ...earlier };
  let rowChanges = before.rowChanges;
  let netRows = before.netRows;
  const out = events.map((event): DomainEvent => {
    const rowIds = rowIdsOf(event);
    if (rowIds === null) {
      if (event.type === 'TableSchemaUpdated') rowChanges += event.data.rows.length;
      return 'draftHasChanges' in event.data ? ({ ...event, data: { ...event.data, draftHasChanges: true } } as DomainEvent) : event;
    }
    const data = (event as Extract<DomainEvent, { type: 'RowsCreated' | 'RowsUpdated' | 'RowsDeleted' }>).data;
    const delta = event.type === 'RowsCreated' ? rowIds.length : event.type === 'RowsDeleted' ? -rowIds.length : 0;
    rowChanges += rowIds.length;
    netRows += delta;
    net[data.tableKey] = (net[data.tableKey] ?? 0) + delta;
    const table = { ...data.table, count: data.table.count + (earlier[data.tableKey] ?? 0), equalsHead: false };
    return { ...event, data: { ...data, draftHasChanges: true, table } } as DomainEvent;
  });
  const after: StagedTotals = {
    ...before,
    events: before.events + out.length,
    rowChanges,
    netRows,
    hasChanges: before.hasChanges || out.length > 0,
    netRowsByTable: net,
  };
  return { events: out, after };
}
