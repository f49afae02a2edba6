import { AppError, MAX_ERROR_DETAILS, applySchemaPatch, jsonDeepEqual, normalizeRowData } from '../../contracts/index.ts';
import type { DomainEvent, ErrorDetail, ForeignKeyField, JsonObject, MigrationDataPath, RowWrite } from '../../contracts/index.ts';
import { assertValidTableSchema } from '../domain/tables/validateTableSchema.ts';
import { draftRows, draftTables, type BranchContent } from './branchContent.ts';
import type { BranchCommandData, BranchCommandMetadata, BranchDeciderTools } from './branchCommand.ts';
import { createDraftRefs, requireTable } from './draftRefs.ts';
import { assertForeignKeysExist, type RowToCheck } from './foreignKeys.ts';
import { createTableEdit, sameSchema } from './tableEdit.ts';
import { assertUnique } from '../domain/rows/uniqueClashes.ts';

type Violation = { readonly rowId: string; readonly path: string; readonly message: string; readonly keyword: string };

export function invalidMigratedData(tableId: string, violations: readonly Violation[], total: number, rowCount: number): AppError {
  const [first] = violations;
  let message: string;
  if (total === 1 && first) {
    message = `Validation error at "${first.path}" in table "${tableId}" for row "${first.rowId}": ${first.message}`;
  } else if (rowCount === 1 && first) {
    message = `Validation failed with ${total} errors in table "${tableId}" for row "${first.rowId}"`;
  } else {
    message = `Validation failed with ${total} errors in table "${tableId}" in ${rowCount} rows`;
  }
  const details: ErrorDetail[] = violations.map((v) => ({ path: v.path, message: v.message, keyword: v.keyword, rowId: v.rowId }));
  return new AppError('INVALID_DATA', message, details);
}

/** A migrated row that fails the patched schema, handed over instead of refused (ApplyDraftChanges checks it at the end). */
export type InvalidRowListener = (rowId: string) => void;

/** A value of row `rowId` the migration could not keep (domain.md §6 rule 6), at `path` in the row data. */
export type RowLossListener = (rowId: string, path: MigrationDataPath, before: unknown, after: unknown) => void;

const fieldKey = (field: ForeignKeyField): string => `${field.dataPath.join('/')}>${field.tableId}`;

/**
 * updateTable (domain.md §6): the patched schema must be valid; every row is migrated, then validated (INVALID_DATA
 * with `rowId`), and foreign keys are checked on the migrated data (all of them when data moved, else the added or
 * retargeted ones), and so are unique values (all rows, when data moved or a field became unique: 409
 * UNIQUE_VIOLATION). Rows whose data changed get a new `updatedAt`; all of it is one event. A patch that changes
 * neither schema nor data appends nothing. The dry run passes `onLoss` to hear of the values no conversion could keep.
 * ApplyDraftChanges passes `onInvalid`: a row that fails is written migrated and handed to it, so a later operation of
 * the command may still correct or remove it (merge.md §2.3 validates the merge's result, not its steps).
 */
export function decideUpdateTable(
  state: BranchContent,
  data: BranchCommandData['UpdateTable'],
  meta: BranchCommandMetadata,
  tools: BranchDeciderTools,
  onLoss?: RowLossListener,
  onInvalid?: InvalidRowListener,
): DomainEvent[] {
  const table = requireTable(state, data.tableId);
  const patched = applySchemaPatch(table.schema, data.patches);
  const schema = patched.schema as JsonObject;
  const existingTableIds = draftTables(state).map((t) => t.tableId);
  assertValidTableSchema(schema, { existingTableIds, selfTableId: table.tableId });
  const schemaChanged = !sameSchema(schema, table.schema);
  if (!schemaChanged && !patched.changesData) return [];

  const model = tools.models(schema);
  const edit = createTableEdit(table);
  const rows: RowWrite[] = [];
  const migrated: RowToCheck[] = [];
  const violations: Violation[] = [];
  const failedRows = new Set<string>();
  let total = 0;
  for (const [rowId, row] of draftRows(table)) {
    const listener = onLoss && ((path: MigrationDataPath, before: unknown, after: unknown) => onLoss(rowId, path, before, after));
    const next = patched.changesData ? patched.migrate(row.data, listener) : row.data;
    const found = tools.rowValidators.check(schema, next);
    if (found.length > 0 && onInvalid !== undefined) {
      onInvalid(rowId);
      if (patched.changesData && !jsonDeepEqual(next, row.data)) rows.push(edit.write(rowId, next as JsonObject, row.createdAt, meta.now));
      continue;
    }
    if (found.length > 0) {
      total += found.length;
      failedRows.add(rowId);
      for (const v of found) if (violations.length < MAX_ERROR_DETAILS) violations.push({ ...v, rowId });
      continue;
    }
    const normalized = normalizeRowData(model, next) as JsonObject;
    migrated.push({ rowId, data: normalized });
    if (patched.changesData && !jsonDeepEqual(normalized, row.data)) {
      rows.push(edit.write(rowId, normalized, row.createdAt, meta.now));
    }
  }
  if (total > 0) throw invalidMigratedData(table.tableId, violations, total, failedRows.size);

  const before = new Set(tools.models(table.schema).foreignKeys.map(fieldKey));
  const fields = patched.changesData ? model.foreignKeys : model.foreignKeys.filter((field) => !before.has(fieldKey(field)));
  if (fields.length > 0) assertForeignKeysExist(state, { tableId: table.tableId, schema }, migrated, tools.models, true, fields);

  // Every row is a candidate: a field made unique over repeated values, or values migrated into a clash, is refused.
  const wasUnique = new Set(
    tools
      .models(table.schema)
      .indexedFields.filter((f) => f.unique)
      .map((f) => f.dataPath.join('/')),
  );
  const unique = model.indexedFields.filter((f) => f.unique && (patched.changesData || !wasUnique.has(f.dataPath.join('/'))));
  assertUnique({ tableId: table.tableId, fields: unique, candidates: migrated, holders: () => [] });

  if (!schemaChanged && rows.length === 0) return [];
  const facts = edit.facts({ schema });
  const ref = createDraftRefs(state, meta.projectId).afterTables([facts]);
  return [
    {
      type: 'TableSchemaUpdated',
      data: {
        ...ref,
        tableKey: table.tableKey,
        tableId: table.tableId,
        schema,
        patches: data.patches as readonly unknown[],
        rows,
        table: facts,
      },
    },
  ];
}
