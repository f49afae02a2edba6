import { ALLOWED_TAKES, AppError, conflictIdOf, isAppError, orderConflicts } from '../../contracts/index.ts';
import type {
  CommandContext,
  CommandGateway,
  DraftOperation,
  ErrorDetail,
  MergeConflict,
  MergeResolution,
  ThreeWayMergeResult,
} from '../../contracts/index.ts';

type Data = Record<string, unknown>;
type Overrides = Map<string, Map<string, Data | null>>;

export type ResultCheckDeps = {
  readonly gateway: CommandGateway;
  readonly context: CommandContext;
  readonly draftRevisionId: string;
  readonly expected: number | 'no_stream';
  readonly ids: { readonly source: string; readonly base: string };
};

/** Rounds of check, resolve, recompute: each round can only add overrides for rows a resolution names. */
const MAX_ROUNDS = 4;

const ROW_WRITES: ReadonlySet<DraftOperation['type']> = new Set(['CreateRows', 'UpdateRows', 'UpsertRows', 'PatchRows']);

/**
 * The checks on the result (merge.md §2.3): a dry run of the merge's operations on the draft (the command side's
 * own validation and foreign-key rules, so a merge can never write what a hand-typed write could not) reports rows
 * that fail; each becomes an INVALID_DATA or FOREIGN_KEY conflict. Resolutions naming them (VALUE, REMOVE) become
 * row overrides and the merge is recomputed. Every resolution must name a conflict of the merge or of its checks.
 */
export async function resultChecks(
  deps: ResultCheckDeps,
  run: (overrides?: Overrides) => ThreeWayMergeResult,
  resolutions: readonly MergeResolution[],
): Promise<{ readonly merged: ThreeWayMergeResult; readonly open: readonly MergeConflict[] }> {
  const byId = new Map(resolutions.map((resolution) => [resolution.conflictId, resolution]));
  const known = new Set<string>();
  const overrides: Overrides = new Map();
  let merged = run();
  for (let round = 1; ; round++) {
    for (const conflict of merged.conflicts) known.add(conflict.id);
    const checks = await checkConflicts(deps, merged);
    const open: MergeConflict[] = [];
    let changed = false;
    for (const { conflict, resultTableId, resultRowId } of checks) {
      known.add(conflict.id);
      const resolution = byId.get(conflict.id);
      if (resolution === undefined) {
        open.push(conflict);
        continue;
      }
      assertAllowed(conflict, resolution);
      const rows = overrides.get(resultTableId) ?? new Map<string, Data | null>();
      overrides.set(resultTableId, rows);
      rows.set(resultRowId, resolution.take === 'REMOVE' ? null : (resolution.value as Data));
      changed = true;
    }
    if (!changed || round >= MAX_ROUNDS) {
      for (const resolution of resolutions) {
        if (known.has(resolution.conflictId)) continue;
        const message = `conflict "${resolution.conflictId}" is not a conflict of this merge`;
        throw new AppError('BAD_USER_INPUT', message, [{ path: `/resolutions/${resolution.conflictId}`, message }]);
      }
      return { merged, open: orderConflicts([...merged.open, ...open]) };
    }
    merged = run(overrides);
  }
}

function assertAllowed(conflict: MergeConflict, resolution: MergeResolution): void {
  if (ALLOWED_TAKES[conflict.kind].includes(resolution.take) && (resolution.take !== 'VALUE' || isData(resolution.value))) return;
  const message =
    resolution.take === 'VALUE' ? 'value must be the row data (an object)' : `take ${resolution.take} is not allowed for a ${conflict.kind} conflict`;
  throw new AppError('BAD_USER_INPUT', message, [{ path: `/resolutions/${resolution.conflictId}`, message }]);
}

const isData = (value: unknown): value is Data => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A conflict of the checks, and the ids of its table and row in the result (where a resolution writes). */
type CheckConflict = { readonly conflict: MergeConflict; readonly resultTableId: string; readonly resultRowId: string };

/**
 * Per result table id: a result row id → the row's id in the draft, following the merge's row renames in order (a
 * swap through a spare id too). A row the merge does not rename keeps its id.
 */
function draftRowIds(operations: readonly DraftOperation[]): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const op of operations) {
    if (op.type !== 'RenameRow') continue;
    const rows = out.get(op.tableId) ?? new Map<string, string>();
    out.set(op.tableId, rows);
    const origin = rows.get(op.rowId) ?? op.rowId;
    rows.delete(op.rowId);
    rows.set(op.nextRowId, origin);
  }
  return out;
}

async function checkConflicts(deps: ResultCheckDeps, merged: ThreeWayMergeResult): Promise<CheckConflict[]> {
  if (merged.operations.length === 0) return [];
  // Conflicts name our table and row (merge.md §2.4): those the merge renames are reported under their ids in the
  // draft, as the row conflicts are; a row only theirs has keeps its id.
  const oursRowIds = draftRowIds(merged.operations);
  const oursIdOf = new Map(
    merged.tables.filter((t) => t.change === 'RENAMED' && t.previousTableId !== null).map((t) => [t.tableId, t.previousTableId as string]),
  );
  // Rows a schema update migrates into invalid data are reported too (what the merge leaves of them, with their data).
  const operations = merged.operations.map((op): DraftOperation => {
    if (ROW_WRITES.has(op.type)) return { ...op, onInvalidRow: 'skip' } as DraftOperation;
    return op.type === 'UpdateTable' ? { ...op, onInvalidRow: 'report' } : op;
  });
  const conflict = (
    kind: 'INVALID_DATA' | 'FOREIGN_KEY',
    tableId: string,
    rowId: string,
    theirs: unknown,
    details: readonly ErrorDetail[],
  ): CheckConflict => {
    const oursTableId = oursIdOf.get(tableId) ?? tableId;
    const oursRowId = oursRowIds.get(tableId)?.get(rowId) ?? rowId;
    const id = conflictIdOf([deps.ids.source, deps.ids.base, kind, oursTableId, oursRowId, theirs]);
    const found = { id, kind, tableId: oursTableId, rowId: oursRowId, path: null, base: null, ours: null, theirs, details };
    return { conflict: found, resultTableId: tableId, resultRowId: rowId };
  };
  try {
    const { result } = await deps.gateway.execute(
      'ApplyDraftChanges',
      // Referenced deletions are answered with the other failures, so a preview lists every conflict in one round.
      { revisionId: deps.draftRevisionId, operations, expectedStreamRevision: deps.expected, dryRun: true, onReferencedRow: 'report' },
      deps.context,
    );
    const out: CheckConflict[] = [];
    result.operations.forEach((report, index) => {
      const op = operations[index];
      if (op === undefined) return;
      for (const invalid of report.invalid) {
        const kind = invalid.code === 'FOREIGN_KEY_NOT_FOUND' ? 'FOREIGN_KEY' : 'INVALID_DATA';
        const row = 'rows' in op ? (op.rows[invalid.index] as { data?: unknown } | undefined) : { data: invalid.data };
        out.push(conflict(kind, report.tableId, invalid.rowId, row?.data ?? null, invalid.details ?? [{ message: invalid.message }]));
      }
    });
    for (const referenced of result.referenced ?? []) out.push(...referencing(referenced.message, referenced.details));
    return out;
  } catch (err) {
    if (!isAppError(err, 'FOREIGN_KEY_IN_USE') || err.details === undefined) throw err;
    return referencing(err.message, err.details);
  }

  /** Rows of the draft that reference a row the merge removes (merge.md §2.3): one FOREIGN_KEY conflict each. */
  function referencing(message: string, details: readonly ErrorDetail[]): CheckConflict[] {
    return details.flatMap((detail) => {
      const tableId = detail.tableId as string;
      const rowIds = (detail.rowIds as string[] | undefined) ?? [];
      return rowIds.map((rowId) => conflict('FOREIGN_KEY', tableId, rowId, null, [{ message, tableId, rowId }]));
    });
  }
}
