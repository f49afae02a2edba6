import { computeNames, type GeneratedTable, type TableNames } from '../naming.ts';
import { componentRef, openApiDocument, type JsonSchema, type OpenApiDocument } from '../../http/openApi.ts';
import { tableExamples } from './openApiExamples.ts';
import { firstSchema, sharedComponentSchemas } from './openApiSharedComponents.ts';
import { READ_ERRORS, errorResponseComponents, readOperation, responses, tablePaths, type OperationOptions } from './openApiTablePaths.ts';
import { tableJsonSchema } from './tableJsonSchema.ts';
import { transferPaths } from './openApiTransferPaths.ts';

export type BuildOpenApiOptions = {
  readonly org: string;
  readonly projectName: string;
  /** The branch as the URL names it. */
  readonly branchName: string;
  /** The URL mode segment: `head`, `draft` or the pinned revision id. */
  readonly segment: string;
  /** The served revision (`info.version`). */
  readonly revisionId: string;
  readonly mode: 'head' | 'draft' | 'pinned';
  readonly isPublic: boolean;
  /** Every table of the revision, regardless of the caller's scope. */
  readonly tables: readonly GeneratedTable[];
  /**
   * A row id of each table the caller may read that has rows: the examples of reads of one row and of foreign keys
   * name them, so Swagger UI's "Try it out" finds the row (openApiExamples.ts). Default: none.
   */
  readonly exampleRowIds?: ReadonlyMap<string, string>;
};

export type { OpenApiDocument };

const rowId: JsonSchema = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' };
const closed = (properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});
const rowsOf = (items: JsonSchema, key = 'rows'): JsonSchema => closed({ [key]: { type: 'array', items, minItems: 1, maxItems: 1000 } });

/** The component schemas of one table (§8.2); the write requests only in writable documents. */
function tableComponents(table: GeneratedTable, n: TableNames, writable: boolean): Record<string, JsonSchema> {
  const c = n.components;
  const data = componentRef(c.data);
  const patches: JsonSchema = { type: 'array', items: componentRef('PatchOperation') };
  const out: Record<string, JsonSchema> = {
    [c.data]: tableJsonSchema(table.model),
    [c.row]: closed({
      id: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
      readonly: { type: 'boolean' },
      data,
    }),
    [c.connection]: closed({
      edges: { type: 'array', items: componentRef(c.edge) },
      pageInfo: componentRef('PageInfo'),
      totalCount: { type: 'integer', minimum: 0 },
    }),
    [c.edge]: closed({ cursor: { type: 'string' }, node: componentRef(c.row) }),
  };
  if (!writable) return out;
  return {
    ...out,
    [c.createRequest]: closed({ id: rowId, data }),
    [c.updateRequest]: closed({ data }),
    [c.patchRequest]: closed({ patches }),
    [c.createManyRequest]: rowsOf(componentRef(c.createRequest)),
    [c.updateManyRequest]: rowsOf(closed({ id: rowId, data })),
    [c.patchManyRequest]: rowsOf(closed({ id: rowId, patches })),
    [c.deleteManyRequest]: rowsOf(rowId, 'ids'),
  };
}

function endpointPaths(options: OperationOptions, revisionId: string): Record<string, unknown> {
  // The served revision itself is a valid `since` (no changes): Swagger UI sends it as is.
  const sinceParameter = { ...sinceSchema, example: revisionId };
  const ok = (description: string, schema: string) => responses({ status: 200, description, schema: componentRef(schema) }, READ_ERRORS);
  return {
    '/': {
      get: readOperation(options, {
        summary: 'The endpoint and the revision it serves',
        operationId: 'getEndpoint',
        responses: ok('The endpoint', 'EndpointInfo'),
      }),
    },
    '/tables': {
      get: readOperation(options, {
        summary: 'The tables of the revision',
        operationId: 'listTables',
        responses: ok('The tables (by id)', 'TableList'),
      }),
    },
    '/changes': {
      get: readOperation(options, {
        summary: 'Row changes of every table since an earlier revision, by table id and row id',
        operationId: 'listChanges',
        parameters: [sinceParameter, firstParameter, afterParameter, changesParameter],
        responses: ok('The changed rows', 'RowChangeConnection'),
      }),
    },
    '/changes/tables': {
      get: readOperation(options, {
        summary: 'Changed tables since an earlier revision, by table id',
        operationId: 'listTableChanges',
        parameters: [sinceParameter],
        responses: responses(
          { status: 200, description: 'The changed tables', schema: { type: 'array', items: componentRef('TableChange') } },
          READ_ERRORS,
        ),
      }),
    },
  };
}

const query = (name: string, description: string, schema: JsonSchema, required = false) => ({ name, in: 'query', required, description, schema });
const sinceSchema = query('since', 'The served revision or one of its ancestors (the base of the changes).', { type: 'string' }, true);
const firstParameter = query('first', 'Page size.', firstSchema);
const afterParameter = query('after', 'The endCursor of the previous page.', { type: 'string' });
const changesParameter = query('changes', 'Comma-separated kinds to list: ADDED, UPDATED, REMOVED, RENAMED.', {
  type: 'string',
  pattern: '^(ADDED|UPDATED|REMOVED|RENAMED)(,(ADDED|UPDATED|REMOVED|RENAMED))*$',
});

/**
 * The OpenAPI 3.1.0 document of a generated REST endpoint (generated-api.md §8): per-table paths and schemas named
 * by §2, read operations only for `head`/pinned, security schemes of §8.3 (anonymous reads on public projects).
 */
export function buildOpenApi(options: BuildOpenApiOptions): OpenApiDocument {
  const { org, projectName, branchName, segment, revisionId, mode, isPublic, tables } = options;
  const exampleRowIds = options.exampleRowIds ?? new Map<string, string>();
  const writable = mode === 'draft';
  const names = computeNames(projectName, tables, { rootFieldPrefix: false });
  const ordered = [...tables].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const operationOptions: OperationOptions = { isPublic };
  const paths: Record<string, unknown> = endpointPaths(operationOptions, revisionId);
  const schemas: Record<string, JsonSchema> = {};
  for (const table of ordered) {
    const n = names.tables.get(table.id);
    if (n === undefined) continue;
    const examples = tableExamples(table.id, table.model, exampleRowIds);
    Object.assign(paths, tablePaths(table.id, n, writable, operationOptions, examples));
    Object.assign(paths, transferPaths(table.id, table.model, n, writable, operationOptions, examples));
    Object.assign(schemas, tableComponents(table, n, writable));
  }
  Object.assign(schemas, sharedComponentSchemas(writable));
  // A deep copy: the document shares no objects with other documents, so a consumer may mutate (dereference) it.
  return structuredClone(
    openApiDocument({
      info: { title: `Strata ${org}/${projectName}/${branchName} (${segment})`, version: revisionId },
      servers: [{ url: `/endpoint/rest/${org}/${projectName}/${branchName}/${segment}` }],
      tags: ordered.map((table) => ({
        name: table.id,
        ...(table.model.root.description !== undefined ? { description: table.model.root.description } : {}),
      })),
      paths,
      schemas,
      responses: errorResponseComponents(),
    }),
  );
}
