import type { TableModel } from '../../../contracts/index.ts';
import { jsonContent, type JsonSchema } from '../../http/openApi.ts';
import type { TableNames } from '../naming.ts';
import { csvCellsOf, csvColumnsOf } from '../../portability/csvColumns.ts';
import { portabilitySchemas } from '../../portability/portabilityOpenApi.ts';
import { csvLines } from '../../portability/tableExport.ts';
import { EXAMPLE_IMPORT_ROW_ID, type TableExamples } from './openApiExamples.ts';
import { READ_ERRORS, readOperation, responseRefs, type OperationOptions } from './openApiTablePaths.ts';

type PathItem = Record<string, unknown>;

const query = (name: string, schema: JsonSchema, description: string, example?: unknown) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
  ...(example === undefined ? {} : { example }),
});

// Swagger UI JSON-quotes a string example of a JSON-like media type such as application/x-ndjson: the JSON Lines
// alternatives carry none (the user pastes a file); the CSV body's example is a row Swagger UI can send as is.
const ndjson = (description: string) => ({ 'application/x-ndjson': { schema: { type: 'string', description } } });

/** The import answer, inline: its line errors name `ErrorDetail`, a shared component of every document (§8.2). */
const importResult: JsonSchema = (() => {
  const result = structuredClone(portabilitySchemas.ImportResult) as { properties: { errors: { items: JsonSchema } } };
  result.properties.errors.items = structuredClone(portabilitySchemas.ImportLineError as JsonSchema);
  return result;
})();

/** The CSV example of an import: the header an export writes and one row of example data (EXAMPLE_IMPORT_ROW_ID). */
export function importCsvExample(model: TableModel, examples: TableExamples): string {
  const columns = csvColumnsOf(model);
  return csvLines([['id', ...columns.map((column) => column.name)], csvCellsOf(columns, EXAMPLE_IMPORT_ROW_ID, examples.data)]);
}

/**
 * `B/tables/{table}/export` (every document) and `B/tables/{table}/import` (draft documents), portability.md §1-§2.
 * Their operationIds follow §8.4's pattern (`exportPosts`, `importPosts`); no other generated operationId starts
 * with these verbs, so they stay unique per document.
 */
export function transferPaths(
  tableId: string,
  model: TableModel,
  n: TableNames,
  writable: boolean,
  options: OperationOptions,
  examples: TableExamples,
): Record<string, PathItem> {
  const tags = [tableId];
  const base = `/tables/${tableId}`;
  const paths: Record<string, PathItem> = {
    [`${base}/export`]: {
      get: readOperation(options, {
        tags,
        summary: `Export the rows of ${tableId} as JSON Lines or CSV, streamed in row id order`,
        operationId: `export${n.Ts}`,
        parameters: [
          query('format', { type: 'string', enum: ['jsonl', 'csv'], default: 'jsonl' }, 'File format.'),
          query('meta', { type: 'boolean', default: false }, 'JSON Lines only: each line adds createdAt and updatedAt.'),
        ],
        responses: {
          200: {
            description: 'The file (Content-Disposition: attachment)',
            content: {
              ...ndjson('One {"id","data"} object per line.'),
              'text/csv': { schema: { type: 'string', description: 'A header line (id, then one column per schema leaf), then one line per row.' } },
            },
          },
          ...responseRefs(READ_ERRORS),
        },
      }),
    },
  };
  if (!writable) return paths;
  paths[`${base}/import`] = {
    post: {
      tags,
      summary: `Import rows into ${tableId} from JSON Lines or CSV (validated line by line, written atomically)`,
      operationId: `import${n.Ts}`,
      parameters: [
        query('format', { type: 'string', enum: ['jsonl', 'csv'] }, 'Must agree with Content-Type when given.'),
        // The example upserts, so trying the operation out twice answers the same.
        query(
          'mode',
          { type: 'string', enum: ['insert', 'upsert', 'replace'], default: 'insert' },
          'replace: rows not in the file are removed.',
          'upsert',
        ),
        query(
          'onError',
          { type: 'string', enum: ['fail', 'skip'], default: 'fail' },
          'fail: any invalid line refuses the whole file (400 IMPORT_INVALID).',
        ),
        // Trying the operation out validates the example file and writes nothing until the user sets false.
        query('dryRun', { type: 'boolean', default: false }, 'true: validate and count, write nothing', true),
      ],
      requestBody: {
        required: true,
        description: 'The file, streamed, up to IMPORT_MAX_BYTES.',
        content: {
          'text/csv': {
            schema: { type: 'string', description: 'As an export writes it: a header line, then one line per row.' },
            example: importCsvExample(model, examples),
          },
          ...ndjson('One {"id","data"} object per line.'),
        },
      },
      responses: {
        200: { description: 'The counts of the import', content: jsonContent(importResult) },
        ...responseRefs([400, 401, 403, 404, 409, 413, 415]),
      },
    },
  };
  return paths;
}
