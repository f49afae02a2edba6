import { compileTableModel, createBoundedCache } from '../../contracts/index.ts';
import type { JsonObject, TableModel, TableSchema } from '../../contracts/index.ts';

/** Compiled models of stored (valid) schemas, by schema object: stored schemas are never mutated. */
export type TableModelCache = (schema: JsonObject) => TableModel;

/** Models kept by schema text: at most 500, and ~32 MiB estimated (a model counted as 4 bytes per schema character). */
const BY_TEXT = { maxEntries: 500, maxBytes: 32 * 1024 * 1024, sizeOf: (_model: TableModel, text: string) => 4 * text.length };

/**
 * By schema object first (free), then by schema text: a decision state read from the store (decisionFacts.ts)
 * parses a new schema object for every batch, and compiling the model again each time would cost more than the
 * write. By text in the one bounded cache (least recently used first).
 */
export function createTableModelCache(): TableModelCache {
  const models = new WeakMap<JsonObject, TableModel>();
  const byText = createBoundedCache<string, TableModel>(BY_TEXT);
  return (schema) => {
    let model = models.get(schema);
    if (model !== undefined) return model;
    const text = JSON.stringify(schema);
    model = byText.get(text);
    if (model === undefined) {
      model = compileTableModel(schema as TableSchema);
      byText.set(text, model);
    }
    models.set(schema, model);
    return model;
  };
}
