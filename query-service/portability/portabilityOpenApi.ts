import { componentRef, jsonContent, securityRequirements, type JsonSchema } from '../http/openApi.ts';

/** A system REST route of portability.md §1-§3 (served by portabilityRoutes.ts, documented here from the same list). */
export type PortabilityRoute = {
  readonly method: 'GET' | 'POST';
  /** Express path below `/api`. */
  readonly path: string;
  readonly operationId: 'exportTable' | 'importTable' | 'exportBundle' | 'importBundle';
};

export const PORTABILITY_ROUTES = {
  exportTable: { method: 'GET', path: '/revision/:revisionId/table/:tableId/export', operationId: 'exportTable' },
  importTable: { method: 'POST', path: '/revision/:revisionId/table/:tableId/import', operationId: 'importTable' },
  exportBundle: { method: 'GET', path: '/revision/:revisionId/bundle', operationId: 'exportBundle' },
  importBundle: {
    method: 'POST',
    path: '/organization/:organizationId/project/:projectName/branch/:branchName/bundle',
    operationId: 'importBundle',
  },
} as const satisfies Record<PortabilityRoute['operationId'], PortabilityRoute>;

/** The document's tag of the portability routes. */
export const PORTABILITY_TAG = 'Import and export';

/** Path examples of the story (systemOpenApiExamples.ts); revision ids are generated, the user types them. */
const PATH_EXAMPLES: Readonly<Record<string, string>> = { organizationId: 'acme', projectName: 'blog', branchName: 'master', tableId: 'posts' };

const pathParam = (name: string) => {
  const example = PATH_EXAMPLES[name];
  return { name, in: 'path', required: true, schema: { type: 'string' }, ...(example === undefined ? {} : { example }) };
};

const queryParam = (name: string, schema: JsonSchema, description: string) => ({ name, in: 'query', required: false, description, schema });

const dryRunParam = queryParam('dryRun', { type: 'boolean', default: false }, 'true: validate and count, write nothing');

const counts = ['processed', 'created', 'updated', 'unchanged', 'removed', 'invalid'] as const;

const countProperties = Object.fromEntries(counts.map((name) => [name, { type: 'integer', minimum: 0 }]));

/** The answers of the imports (portability.md §2-§3). */
export const portabilitySchemas: Record<string, JsonSchema> = {
  ImportLineError: {
    type: 'object',
    required: ['line', 'rowId', 'code', 'message'],
    properties: {
      line: { type: 'integer', description: 'Line of the file (1 = first line; a CSV header is line 1).' },
      rowId: { type: ['string', 'null'] },
      code: { type: 'string' },
      message: { type: 'string' },
      details: { type: 'array', items: componentRef('ErrorDetail') },
    },
    additionalProperties: false,
  },
  ImportResult: {
    type: 'object',
    required: [...counts, 'errors', 'dryRun'],
    properties: {
      ...countProperties,
      errors: { type: 'array', maxItems: 100, items: componentRef('ImportLineError'), description: 'The first 100 invalid lines.' },
      dryRun: { type: 'boolean' },
    },
    additionalProperties: false,
  },
  BundleImportResult: {
    type: 'object',
    description: "The draft's changes against its state before (changes.md §1.1) plus the counts of a table import.",
    required: ['revisionId', 'tables', 'totalRowChanges', ...counts, 'errors', 'dryRun'],
    properties: {
      revisionId: { type: 'string' },
      tables: {
        type: 'array',
        items: {
          type: 'object',
          required: ['tableId', 'previousTableId', 'change', 'schemaChanged', 'rowChanges'],
          properties: {
            tableId: { type: 'string' },
            previousTableId: { type: 'null' },
            change: { type: 'string', enum: ['ADDED', 'REMOVED', 'MODIFIED'] },
            schemaChanged: { type: 'boolean' },
            rowChanges: {
              type: 'object',
              required: ['added', 'updated', 'removed', 'renamed', 'total'],
              properties: Object.fromEntries(['added', 'updated', 'removed', 'renamed', 'total'].map((name) => [name, { type: 'integer' }])),
            },
          },
        },
      },
      totalRowChanges: { type: 'integer' },
      ...countProperties,
      errors: { type: 'array', maxItems: 100, items: componentRef('ImportLineError') },
      dryRun: { type: 'boolean' },
    },
    additionalProperties: false,
  },
};

// Swagger UI JSON-quotes a string example of a JSON-like media type such as application/x-ndjson, so NDJSON bodies
// have none (the user pastes a file); the CSV example continues the story of systemOpenApiExamples.ts (table `posts`).
const ndjson = (description: string) => ({ 'application/x-ndjson': { schema: { type: 'string', description } } });
const CSV_EXAMPLE = 'id,title\nimported,Imported post\n';

/** The query parameters of a table export (system and generated REST). */
export const tableExportParameters = [
  queryParam('format', { type: 'string', enum: ['jsonl', 'csv'], default: 'jsonl' }, 'File format (portability.md §1).'),
  queryParam('meta', { type: 'boolean', default: false }, 'JSON Lines only: each line adds createdAt and updatedAt.'),
];

/** The 200 answer of a table export. */
export const tableExportAnswer = {
  description: 'The file (Content-Disposition: attachment)',
  content: {
    ...ndjson('One {"id","data"} object per line.'),
    'text/csv': {
      schema: { type: 'string', description: 'RFC 4180: a header line (id, then one column per schema leaf), then one line per row.' },
    },
  },
};

/**
 * The query parameters of a table import. `dryRunExample`: Swagger UI's "Try it out" fills `dryRun=true` (a
 * generated document, whose body example is made up from the table's schema).
 */
export function tableImportParameters(dryRunExample: boolean) {
  return [
    queryParam('format', { type: 'string', enum: ['jsonl', 'csv'] }, 'Must agree with Content-Type when given.'),
    queryParam('mode', { type: 'string', enum: ['insert', 'upsert', 'replace'], default: 'insert' }, 'replace: rows not in the file are removed.'),
    queryParam(
      'onError',
      { type: 'string', enum: ['fail', 'skip'], default: 'fail' },
      'fail: any invalid line refuses the whole file (400 IMPORT_INVALID).',
    ),
    dryRunExample ? { ...dryRunParam, example: true } : dryRunParam,
  ];
}

/** The body of a table import, with a CSV example (Swagger UI offers the first media type). */
export function tableImportBody(csvExample: string) {
  return {
    required: true,
    description: 'The file, streamed, up to IMPORT_MAX_BYTES.',
    content: {
      'text/csv': { schema: { type: 'string', description: 'As an export writes it: a header line, then one line per row.' }, example: csvExample },
      ...ndjson('One {"id","data"} object per line.'),
    },
  };
}

const errors = (statuses: readonly string[]) => Object.fromEntries(statuses.map((status) => [status, { $ref: `#/components/responses/E${status}` }]));

/** The `paths` entries of the portability routes in the system OpenAPI document (keys in OpenAPI form). */
export function portabilityPaths(openApiPath: (path: string) => string): Record<string, Record<string, unknown>> {
  const { exportTable, importTable, exportBundle, importBundle } = PORTABILITY_ROUTES;
  const readSecurity = { security: [...securityRequirements, {}] };
  return {
    [openApiPath(exportTable.path)]: {
      get: {
        operationId: exportTable.operationId,
        summary: "Export a table's rows as JSON Lines or CSV, streamed in row id order",
        tags: [PORTABILITY_TAG],
        ...readSecurity,
        parameters: [pathParam('revisionId'), pathParam('tableId'), ...tableExportParameters],
        responses: {
          '200': tableExportAnswer,
          ...errors(['400', '401', '403', '404', '503']),
        },
      },
    },
    [openApiPath(importTable.path)]: {
      post: {
        operationId: importTable.operationId,
        summary: 'Import rows into a draft table from JSON Lines or CSV (validated line by line, written atomically)',
        tags: [PORTABILITY_TAG],
        parameters: [pathParam('revisionId'), pathParam('tableId'), ...tableImportParameters(false)],
        requestBody: tableImportBody(CSV_EXAMPLE),
        responses: {
          '200': {
            description: 'OK',
            headers: { 'X-Strata-Position': { $ref: '#/components/headers/Position' } },
            content: jsonContent(componentRef('ImportResult')),
          },
          ...errors(['400', '401', '403', '404', '409', '413', '415', '503']),
        },
      },
    },
    [openApiPath(exportBundle.path)]: {
      get: {
        operationId: exportBundle.operationId,
        summary: "Export a revision's tables and rows as a bundle (JSON Lines; a header line, then one line per row)",
        tags: [PORTABILITY_TAG],
        ...readSecurity,
        parameters: [pathParam('revisionId')],
        responses: {
          '200': {
            description: 'The bundle (Content-Disposition: attachment)',
            content: ndjson('Line 1 the strata-bundle header, then {"table","id","data"} lines.'),
          },
          ...errors(['400', '401', '403', '404', '503']),
        },
      },
    },
    [openApiPath(importBundle.path)]: {
      post: {
        operationId: importBundle.operationId,
        summary: "Import a bundle into the branch's draft (refused whole if a line is invalid)",
        tags: [PORTABILITY_TAG],
        parameters: [
          pathParam('organizationId'),
          pathParam('projectName'),
          pathParam('branchName'),
          queryParam(
            'mode',
            { type: 'string', enum: ['replace', 'merge'], default: 'replace' },
            "replace: the draft's content becomes the bundle's.",
          ),
          dryRunParam,
        ],
        requestBody: { required: true, description: 'The bundle, streamed, up to IMPORT_MAX_BYTES.', content: ndjson('A strata-bundle file.') },
        responses: {
          '200': {
            description: 'OK',
            headers: { 'X-Strata-Position': { $ref: '#/components/headers/Position' } },
            content: jsonContent(componentRef('BundleImportResult')),
          },
          ...errors(['400', '401', '403', '404', '409', '413', '415', '503']),
        },
      },
    },
  };
}
