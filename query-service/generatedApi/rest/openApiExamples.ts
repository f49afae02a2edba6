import { defaultValueOf, toJsonPointer, type JsonValue, type TableModel } from '../../../contracts/index.ts';

/**
 * Examples of a generated OpenAPI document (generated-api.md §8), chosen so that Swagger UI's "Try it out" succeeds
 * with what it fills in: Swagger UI prefers an explicit `example` over a sample it generates from the schema, and
 * its samples are invalid here (`where` gets every filter at once, strings are random matches of their pattern).
 *
 * The write examples work on rows of their own: `create` makes EXAMPLE_ROW_ID, which the by-id writes then replace,
 * patch and delete; the bulk writes do the same with EXAMPLE_BULK_ROW_ID, and an import's example (a dry run)
 * names EXAMPLE_IMPORT_ROW_ID. Trying them out never touches a row the user wrote. Reads of one row name a row the served revision has.
 */
export const EXAMPLE_ROW_ID = 'example-row';
export const EXAMPLE_BULK_ROW_ID = 'example-row-2';
export const EXAMPLE_IMPORT_ROW_ID = 'example-row-3';

/** `where` matching every row and the default order, as list examples. */
export const WHERE_EXAMPLE = {};
export const ORDER_BY_EXAMPLE = [{ id: 'asc' }];

export type TableExamples = {
  /** A row of the served revision (or, for a table without readable rows, the row `create` makes). */
  readonly rowId: string;
  /** Valid row data: every default, and an existing row for each foreign key whose table has one. */
  readonly data: JsonValue;
  /** A patch replacing the first property by its example value. */
  readonly patches: readonly JsonValue[];
};

/** Defaults everywhere (arrays empty), then a row of the target table in each foreign key outside an array. */
function exampleData(model: TableModel, rowIds: ReadonlyMap<string, string>): { [key: string]: JsonValue } {
  const data = defaultValueOf(model.root) as { [key: string]: JsonValue };
  for (const field of model.foreignKeys) {
    const target = rowIds.get(field.tableId);
    if (target === undefined || field.dataPath.includes('*')) continue;
    const parents = field.dataPath.slice(0, -1);
    const parent = parents.reduce((object, name) => object[name] as { [key: string]: JsonValue }, data);
    parent[field.dataPath[field.dataPath.length - 1] as string] = target;
  }
  return data;
}

/**
 * The examples of one table. `rowIds` holds a row id per table the caller may read and that has rows (the table's
 * own for reads of one row, the targets' for foreign keys).
 */
export function tableExamples(tableId: string, model: TableModel, rowIds: ReadonlyMap<string, string>): TableExamples {
  const data = exampleData(model, rowIds);
  const first = model.root.properties[0];
  const patches: JsonValue[] = first === undefined ? [] : [{ op: 'replace', path: toJsonPointer([first.name]), value: data[first.name] ?? null }];
  return { rowId: rowIds.get(tableId) ?? EXAMPLE_ROW_ID, data, patches };
}
