import type { TableNames } from '../naming.ts';
import { componentRef, errorResponse, jsonContent as json, securityRequirements, type JsonSchema } from '../../http/openApi.ts';
import { EXAMPLE_BULK_ROW_ID, EXAMPLE_ROW_ID, ORDER_BY_EXAMPLE, WHERE_EXAMPLE, type TableExamples } from './openApiExamples.ts';
import { firstSchema, orderByListSchema } from './openApiSharedComponents.ts';

type Operation = Record<string, unknown>;
type PathItem = Record<string, unknown>;

/** Error responses by status, shared through `components.responses`. */
const ERROR_RESPONSES: Readonly<Record<number, readonly [name: string, description: string]>> = {
  400: [
    'BadRequest',
    'Invalid request or input (BAD_REQUEST, BAD_USER_INPUT, INVALID_DATA, INVALID_PATCH, INVALID_ROW_ID, FOREIGN_KEY_NOT_FOUND, …)',
  ],
  401: ['Unauthorized', 'Authentication required, or the presented credential is invalid'],
  403: ['Forbidden', 'Not allowed, or outside the API key scope'],
  404: ['NotFound', 'Endpoint, table or row not found'],
  409: ['Conflict', 'Conflict (ROW_ALREADY_EXISTS, FOREIGN_KEY_IN_USE, CONCURRENT_MODIFICATION)'],
  413: ['PayloadTooLarge', 'The file is larger than IMPORT_MAX_BYTES'],
  415: ['UnsupportedMediaType', 'The body is not application/json'],
};

/** `components.responses`: every error response, each with the shared `Error` schema. */
export function errorResponseComponents(): Record<string, unknown> {
  return Object.fromEntries(Object.values(ERROR_RESPONSES).map(([name, description]) => [name, errorResponse(description)]));
}

/** The error responses of `errors`, as references to `components.responses`. */
export function responseRefs(errors: readonly number[]): Record<string, unknown> {
  return Object.fromEntries(errors.map((status) => [status, { $ref: `#/components/responses/${ERROR_RESPONSES[status]?.[0]}` }]));
}

export function responses(success: { status: number; description: string; schema: JsonSchema }, errors: readonly number[]) {
  return { [success.status]: { description: success.description, content: json(success.schema) }, ...responseRefs(errors) };
}

export const READ_ERRORS = [400, 401, 403, 404] as const;
const QUERY_ERRORS = [400, 401, 403, 404, 415] as const;
const WRITE_ERRORS = [400, 401, 403, 404, 409, 415] as const;
const DELETE_ERRORS = [400, 401, 403, 404, 409] as const;

export type OperationOptions = {
  /** Public project: read operations also allow anonymous callers (`{}`). */
  readonly isPublic: boolean;
};

/** A read operation: on public projects it lists `{}` besides the four credentials (§8.3). */
export function readOperation(options: OperationOptions, operation: Operation): Operation {
  return options.isPublic ? { ...operation, security: [...securityRequirements, {}] } : operation;
}

const body = (schema: JsonSchema, example: unknown, required = true) => ({ required, content: json(schema, example) });

/** The row id in the path; its example is a row the operation can act on (openApiExamples.ts). */
const rowIdParameter = (example: string) => ({
  name: 'rowId',
  in: 'path',
  required: true,
  description: 'The row id.',
  schema: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' },
  example,
});

// `where` and `orderBy` carry examples: Swagger UI fills an object (or array of objects) parameter without one
// with a sample of its schema, which no list accepts.
const listParameters = [
  { name: 'first', in: 'query', required: false, description: 'Page size (0–1000).', schema: firstSchema },
  {
    name: 'after',
    in: 'query',
    required: false,
    description: 'The endCursor of the previous page (same where and orderBy).',
    schema: { type: 'string' },
  },
  {
    name: 'where',
    in: 'query',
    required: false,
    description: 'Filter as URL-encoded JSON; `{}` matches every row.',
    content: json(componentRef('WhereInput'), WHERE_EXAMPLE),
  },
  { name: 'orderBy', in: 'query', required: false, description: 'Order as URL-encoded JSON.', content: json(orderByListSchema, ORDER_BY_EXAMPLE) },
];

const queryExample = { first: 100, where: WHERE_EXAMPLE, orderBy: ORDER_BY_EXAMPLE };

/**
 * The paths of one table (generated-api.md §7, §8.1): spelled out per table so each has typed schemas; write
 * operations only when `writable` (draft documents). Every parameter and body Swagger UI would fill has an example
 * it takes as is (openApiExamples.ts).
 */
export function tablePaths(
  tableId: string,
  n: TableNames,
  writable: boolean,
  options: OperationOptions,
  examples: TableExamples,
): Record<string, PathItem> {
  const c = n.components;
  const ids = n.operationIds;
  const tags = [tableId];
  const row = componentRef(c.row);
  const connection = componentRef(c.connection);
  const base = `/tables/${tableId}`;
  const paths: Record<string, PathItem> = {};

  paths[`${base}/schema`] = {
    get: readOperation(options, {
      tags,
      summary: `The JSON Schema of table ${tableId}`,
      operationId: ids.getSchema,
      responses: responses({ status: 200, description: 'The table JSON Schema', schema: { type: 'object' } }, READ_ERRORS),
    }),
  };
  const rows: PathItem = {
    get: readOperation(options, {
      tags,
      summary: `List rows of ${tableId}`,
      operationId: ids.list,
      parameters: listParameters,
      responses: responses({ status: 200, description: 'A page of rows', schema: connection }, READ_ERRORS),
    }),
  };
  if (writable) {
    rows.post = {
      tags,
      summary: `Create a row in ${tableId}`,
      operationId: ids.create,
      requestBody: body(componentRef(c.createRequest), { id: EXAMPLE_ROW_ID, data: examples.data }),
      responses: responses({ status: 201, description: 'The created row', schema: row }, WRITE_ERRORS),
    };
  }
  paths[`${base}/rows`] = rows;
  paths[`${base}/rows/query`] = {
    post: readOperation(options, {
      tags,
      summary: `Query rows of ${tableId}`,
      operationId: ids.query,
      requestBody: body(componentRef('RowsQuery'), queryExample, false),
      responses: responses({ status: 200, description: 'A page of rows', schema: connection }, QUERY_ERRORS),
    }),
  };
  if (writable) {
    const bulk = (operationId: string, summary: string, schema: string, example: unknown, status = 200) => ({
      tags,
      summary,
      operationId,
      requestBody: body(componentRef(schema), example),
      responses: responses({ status, description: 'Rows affected', schema: componentRef('BulkResult') }, WRITE_ERRORS),
    });
    const bulkRow = { id: EXAMPLE_BULK_ROW_ID, data: examples.data };
    paths[`${base}/rows/bulk`] = {
      post: bulk(ids.bulkCreate, `Create rows in ${tableId} (all or none)`, c.createManyRequest, { rows: [bulkRow] }, 201),
      put: bulk(ids.bulkUpdate, `Replace the data of rows in ${tableId} (all or none)`, c.updateManyRequest, { rows: [bulkRow] }),
      patch: bulk(ids.bulkPatch, `Patch rows in ${tableId} (all or none)`, c.patchManyRequest, {
        rows: [{ id: EXAMPLE_BULK_ROW_ID, patches: examples.patches }],
      }),
      delete: bulk(ids.bulkDelete, `Delete rows of ${tableId} (all or none)`, c.deleteManyRequest, { ids: [EXAMPLE_BULK_ROW_ID] }),
    };
  }
  const single: PathItem = {
    get: readOperation(options, {
      tags,
      summary: `Get a row of ${tableId}`,
      operationId: ids.get,
      parameters: [rowIdParameter(examples.rowId)],
      responses: responses({ status: 200, description: 'The row', schema: row }, READ_ERRORS),
    }),
  };
  if (writable) {
    const exampleRow = [rowIdParameter(EXAMPLE_ROW_ID)];
    single.put = {
      tags,
      summary: `Replace the data of a row of ${tableId}`,
      operationId: ids.update,
      parameters: exampleRow,
      requestBody: body(componentRef(c.updateRequest), { data: examples.data }),
      responses: responses({ status: 200, description: 'The updated row', schema: row }, WRITE_ERRORS),
    };
    single.patch = {
      tags,
      summary: `Patch a row of ${tableId}`,
      operationId: ids.patch,
      parameters: exampleRow,
      requestBody: body(componentRef(c.patchRequest), { patches: examples.patches }),
      responses: responses({ status: 200, description: 'The patched row', schema: row }, WRITE_ERRORS),
    };
    single.delete = {
      tags,
      summary: `Delete a row of ${tableId}`,
      operationId: ids.delete,
      parameters: exampleRow,
      responses: responses({ status: 200, description: 'The row was deleted', schema: componentRef('DeleteResult') }, DELETE_ERRORS),
    };
  }
  paths[`${base}/rows/{rowId}`] = single;
  return paths;
}
