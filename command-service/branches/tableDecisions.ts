import { AppError, sameIdentifier } from '../../contracts/index.ts';
import type { DomainEvent, JsonObject, TableFacts } from '../../contracts/index.ts';
import { assertValidTableSchema } from '../domain/tables/validateTableSchema.ts';
import { draftTables, type BranchContent } from './branchContent.ts';
import { MAX_TABLES_PER_REVISION, type BranchCommandData, type BranchCommandMetadata, type BranchDeciderTools } from './branchCommand.ts';
import { createDraftRefs, requireTable } from './draftRefs.ts';
import { rewriteSchemaForeignKeys } from './foreignKeys.ts';
import { createTableEdit } from './tableEdit.ts';

function scopeError(tableId: string): AppError {
  return new AppError('API_KEY_SCOPE', `API key scope does not allow access to table "${tableId}"`);
}

/** createTable (domain.md §5, §2): schema valid (foreign keys name other tables), id unique, at most 1000 tables. */
export function decideCreateTable(state: BranchContent, data: BranchCommandData['CreateTable'], meta: BranchCommandMetadata): DomainEvent[] {
  const tables = draftTables(state);
  const schema = structuredClone(data.schema);
  assertValidTableSchema(schema, { existingTableIds: tables.map((t) => t.tableId), selfTableId: data.tableId });
  if (tables.some((t) => sameIdentifier(t.tableId, data.tableId))) {
    throw new AppError('TABLE_ALREADY_EXISTS', `A table with the id "${data.tableId}" already exists in the revision`);
  }
  if (tables.length >= MAX_TABLES_PER_REVISION) {
    throw new AppError('LIMIT_EXCEEDED', `A revision can hold at most ${MAX_TABLES_PER_REVISION} tables`);
  }
  const table: TableFacts = { tableKey: meta.newId, count: 0, equalsHead: false };
  const ref = createDraftRefs(state, meta.projectId).afterTables([table]);
  return [
    {
      type: 'TableCreated',
      data: { ...ref, tableKey: meta.newId, tableId: data.tableId, schema: schema as JsonObject, table },
    },
  ];
}

/**
 * renameTable (domain.md §6): the new id is unique (case-insensitively, the table itself aside) and every
 * `foreignKey` naming the old id in other tables is rewritten in the same event.
 */
export function decideRenameTable(
  state: BranchContent,
  data: BranchCommandData['RenameTable'],
  meta: BranchCommandMetadata,
  tools: BranchDeciderTools,
): DomainEvent[] {
  const table = requireTable(state, data.tableId);
  const tables = draftTables(state);
  if (tables.some((t) => t.tableKey !== table.tableKey && sameIdentifier(t.tableId, data.nextTableId))) {
    throw new AppError('TABLE_ALREADY_EXISTS', `A table with the id "${data.nextTableId}" already exists in the revision`);
  }
  const schemaRewrites: { tableKey: string; schema: JsonObject; table: TableFacts }[] = [];
  for (const other of tables) {
    if (other.tableKey === table.tableKey) continue;
    if (!tools.models(other.schema).foreignKeys.some((field) => field.tableId === table.tableId)) continue;
    if (!meta.tableInScope(other.tableId)) throw scopeError(other.tableId);
    const schema = rewriteSchemaForeignKeys(other.schema, table.tableId, data.nextTableId);
    schemaRewrites.push({ tableKey: other.tableKey, schema, table: createTableEdit(other).facts({ schema }) });
  }
  const facts = createTableEdit(table).facts({ tableId: data.nextTableId });
  const ref = createDraftRefs(state, meta.projectId).afterTables([facts, ...schemaRewrites.map((r) => r.table)]);
  return [
    {
      type: 'TableRenamed',
      data: {
        ...ref,
        tableKey: table.tableKey,
        tableId: data.nextTableId,
        previousTableId: table.tableId,
        table: facts,
        schemaRewrites,
      },
    },
  ];
}

/** deleteTable (domain.md §7): refused while another table's schema references it. */
export function decideDeleteTable(
  state: BranchContent,
  data: BranchCommandData['DeleteTable'],
  meta: BranchCommandMetadata,
  tools: BranchDeciderTools,
): DomainEvent[] {
  const table = requireTable(state, data.tableId);
  const referencing = draftTables(state).filter(
    (other) => other.tableKey !== table.tableKey && tools.models(other.schema).foreignKeys.some((field) => field.tableId === table.tableId),
  );
  if (referencing.length > 0) {
    const names = referencing.map((other) => `"${other.tableId}"`).join(', ');
    throw new AppError(
      'FOREIGN_KEY_IN_USE',
      `Table "${table.tableId}" is referenced by the schema of ${names}`,
      referencing.map((other) => ({ tableId: other.tableId })),
    );
  }
  const ref = createDraftRefs(state, meta.projectId).afterDelete(table.tableKey);
  return [{ type: 'TableDeleted', data: { ...ref, tableKey: table.tableKey, tableId: table.tableId } }];
}
