import type { TableModel } from '../../../contracts/index.ts';
import { jsonContent, type JsonSchema } from '../../http/openApi.ts';
import type { TableNames } from '../naming.ts';
import { csvCellsOf, csvColumnsOf } from '../../portability/csvColumns.ts';
import {
  portabilitySchemas,
  tableExportAnswer,
  tableExportParameters,
  tableImportBody,
  tableImportParameters,
} from '../../portability/portabilityOpenApi.ts';
import { csvLines } from '../../portability/tableExport.ts';
import { EXAMPLE_IMPORT_ROW_ID, type TableExamples } from './openApiExamples.ts';
import { READ_ERRORS, readOperation, responseRefs, type OperationOptions } from './openApiTablePaths.ts';

type PathItem = Record<string, unknown>;

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
 * `B/tables/{table}/export` (every document) and `B/tables/{table}/import` (draft documents), portability.md §1-§2,
 * with the parameters and bodies of the system routes (portabilityOpenApi.ts). Their operationIds follow §8.4's
 * pattern (`exportPosts`, `importPosts`); no other generated operationId starts with these verbs, so they stay
 * unique per document. Trying the import out is a dry run of a CSV row of example data.
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
        parameters: tableExportParameters,
        responses: { 200: tableExportAnswer, ...responseRefs(READ_ERRORS) },
      }),
    },
  };
  if (!writable) return paths;
  paths[`${base}/import`] = {
    post: {
      tags,
      summary: `Import rows into ${tableId} from JSON Lines or CSV (validated line by line, written atomically)`,
      operationId: `import${n.Ts}`,
      parameters: tableImportParameters(true),
      requestBody: tableImportBody(importCsvExample(model, examples)),
      responses: {
        200: { description: 'The counts of the import', content: jsonContent(importResult) },
        ...responseRefs([400, 401, 403, 404, 409, 413, 415]),
      },
    },
  };
  return paths;
}
