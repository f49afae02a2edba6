import { compileTableModel } from '../../contracts/index.ts';
import type { JsonObject, TableModel, TableSchema } from '../../contracts/index.ts';

/** Compiled models of stored (valid) schemas, by schema object: stored schemas are never mutated. */
export type TableModelCache = (schema: JsonObject) => TableModel;

export function createTableModelCache(): TableModelCache {
  const models = new WeakMap<JsonObject, TableModel>();
  return (schema) => {
    let model = models.get(schema);
    if (model === undefined) {
      model = compileTableModel(schema as TableSchema);
      models.set(schema, model);
    }
    return model;
  };
}
