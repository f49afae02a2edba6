import { componentRef, type JsonSchema } from '../../http/openApi.ts';

/** Shared pieces of every generated OpenAPI document (generated-api.md §8.2–§8.3). */

const string = { type: 'string' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const boolean = { type: 'boolean' } as const;
const anyJson = {} as const;
const filterMode = { type: 'string', enum: ['default', 'insensitive'], default: 'default' } as const;
const direction = { type: 'string', enum: ['asc', 'desc'] } as const;
const listOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });
/** A list argument also accepts a single value (generated-api.md §3.1). */
const oneOrMany = (item: JsonSchema, limits: JsonSchema = {}): JsonSchema => ({ anyOf: [{ type: 'array', items: item, ...limits }, item] });
const dataPath = {
  description: 'Property names, array indexes or `*`; a single string may use dot/bracket notation (`items[0].price`).',
  anyOf: [{ type: 'array', items: string, minItems: 1 }, string],
} as const;
const closed = (properties: Record<string, JsonSchema>, required: readonly string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  ...(required.length > 0 ? { required } : {}),
  additionalProperties: false,
});

/** `first` of §3.4. */
export const firstSchema: JsonSchema = { type: 'integer', minimum: 0, maximum: 1000, default: 100 };
/** `orderBy` of §3.2: 1–10 entries with exactly one key each. */
export const orderByListSchema: JsonSchema = oneOrMany(componentRef('OrderByInput'), { minItems: 1, maxItems: 10 });

const comparable = (value: JsonSchema) => ({
  equals: value,
  not: value,
  in: listOf(value),
  notIn: listOf(value),
  lt: value,
  lte: value,
  gt: value,
  gte: value,
});

const readSchemas: Record<string, JsonSchema> = {
  PageInfo: closed(
    {
      hasNextPage: boolean,
      hasPreviousPage: boolean,
      startCursor: { type: ['string', 'null'] },
      endCursor: { type: ['string', 'null'] },
    },
    ['hasNextPage', 'hasPreviousPage', 'startCursor', 'endCursor'],
  ),
  RowsQuery: closed({ first: firstSchema, after: string, where: componentRef('WhereInput'), orderBy: orderByListSchema }),
  WhereInput: {
    ...closed({
      AND: oneOrMany(componentRef('WhereInput')),
      OR: oneOrMany(componentRef('WhereInput')),
      NOT: oneOrMany(componentRef('WhereInput')),
      id: componentRef('StringFilter'),
      createdAt: componentRef('DateTimeFilter'),
      updatedAt: componentRef('DateTimeFilter'),
      readonly: componentRef('BooleanFilter'),
      data: componentRef('JsonFilter'),
    }),
    description: 'Keys are combined with AND; `{}` matches every row.',
  },
  OrderByInput: {
    ...closed({
      id: direction,
      createdAt: direction,
      updatedAt: direction,
      data: closed(
        {
          path: dataPath,
          direction: { ...direction, default: 'asc' },
          type: { type: 'string', enum: ['text', 'int', 'float', 'boolean', 'timestamp'], default: 'text' },
        },
        ['path'],
      ),
    }),
    minProperties: 1,
    maxProperties: 1,
    description: 'Exactly one key per entry.',
  },
  StringFilter: closed({ ...comparable(string), contains: string, startsWith: string, endsWith: string, mode: filterMode }),
  DateTimeFilter: closed(comparable(dateTime)),
  BooleanFilter: closed({ equals: boolean, not: boolean }),
  JsonFilter: closed(
    {
      path: dataPath,
      ...comparable(anyJson),
      string_contains: string,
      string_starts_with: string,
      string_ends_with: string,
      array_contains: anyJson,
      mode: filterMode,
    },
    ['path'],
  ),
  EndpointInfo: closed(
    {
      organizationId: string,
      projectName: string,
      branchName: string,
      mode: { type: 'string', enum: ['head', 'draft', 'pinned'] },
      revisionId: string,
      readOnly: boolean,
    },
    ['organizationId', 'projectName', 'branchName', 'mode', 'revisionId', 'readOnly'],
  ),
  TableList: closed(
    {
      tables: listOf(
        closed(
          {
            id: string,
            readonly: boolean,
            count: { type: 'integer', minimum: 0 },
            createdAt: dateTime,
            updatedAt: dateTime,
            schema: { type: 'object', description: 'The table JSON Schema.' },
          },
          ['id', 'readonly', 'count', 'createdAt', 'updatedAt', 'schema'],
        ),
      ),
    },
    ['tables'],
  ),
  RowChange: closed(
    {
      tableId: string,
      rowId: string,
      previousRowId: { type: ['string', 'null'], description: 'The id in `since` of a renamed row.' },
      change: { type: 'string', enum: ['ADDED', 'UPDATED', 'REMOVED', 'RENAMED'] },
      before: { description: "The row's data in `since` (null for an added row)." },
      after: { description: "The row's data in the served revision (null for a removed row)." },
      fieldChanges: { ...listOf(componentRef('FieldChange')), maxItems: 100 },
    },
    ['tableId', 'rowId', 'previousRowId', 'change', 'before', 'after', 'fieldChanges'],
  ),
  FieldChange: closed({ path: { ...string, description: 'A JSON Pointer into data.' }, before: anyJson, after: anyJson }, [
    'path',
    'before',
    'after',
  ]),
  RowChangeConnection: closed(
    { edges: listOf(componentRef('RowChangeEdge')), pageInfo: componentRef('PageInfo'), totalCount: { type: 'integer', minimum: 0 } },
    ['edges', 'pageInfo', 'totalCount'],
  ),
  RowChangeEdge: closed({ cursor: string, node: componentRef('RowChange') }, ['cursor', 'node']),
  TableChange: closed(
    {
      tableId: string,
      previousTableId: { type: ['string', 'null'] },
      change: { type: 'string', enum: ['ADDED', 'REMOVED', 'RENAMED', 'MODIFIED'] },
      schemaChanged: boolean,
      rowChanges: componentRef('RowChangeCounts'),
    },
    ['tableId', 'previousTableId', 'change', 'schemaChanged', 'rowChanges'],
  ),
  RowChangeCounts: closed(
    Object.fromEntries(['added', 'updated', 'removed', 'renamed', 'total'].map((name) => [name, { type: 'integer', minimum: 0 }])),
    ['added', 'updated', 'removed', 'renamed', 'total'],
  ),
  Error: closed(
    {
      statusCode: { type: 'integer' },
      code: { ...string, description: 'A stable error code, e.g. ROW_NOT_FOUND.' },
      message: string,
      details: listOf(componentRef('ErrorDetail')),
    },
    ['statusCode', 'code', 'message'],
  ),
  ErrorDetail: {
    type: 'object',
    description: 'Code-specific detail, e.g. `{path, message, keyword}` for INVALID_DATA.',
    properties: {
      path: string,
      message: string,
      keyword: string,
      rowId: string,
      index: { type: 'integer' },
      tableId: string,
      missingRowIds: listOf(string),
      rowIds: listOf(string),
    },
  },
};

const writeSchemas: Record<string, JsonSchema> = {
  PatchOperation: closed(
    {
      op: { type: 'string', enum: ['replace'] },
      path: { ...string, description: 'A JSON Pointer (`/a/b`) or dot/bracket notation (`a.b`, `items[0].name`).' },
      value: anyJson,
    },
    ['op', 'path', 'value'],
  ),
  DeleteResult: closed({ id: string, success: boolean }, ['id', 'success']),
  BulkResult: closed({ success: boolean, count: { type: 'integer', minimum: 0, description: 'Rows affected.' } }, ['success', 'count']),
};

/** The shared component schemas; write-only ones (patches, delete/bulk results) only in writable documents. */
export function sharedComponentSchemas(writable: boolean): Record<string, JsonSchema> {
  return writable ? { ...readSchemas, ...writeSchemas } : { ...readSchemas };
}
