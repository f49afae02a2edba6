import { compileTableModel } from '../../contracts/index.ts';
import type { JsonObject, TableModel, TableSchema } from '../../contracts/index.ts';

/** Compiled models of stored (valid) schemas, by schema object: stored schemas are never mutated. */
export type TableModelCache = (schema: JsonObject) => TableModel;

/** Distinct schemas whose models are kept by text (the least recently used one goes first). */
const MAX_BY_TEXT = 500;

/**
 * By schema object first (free), then by schema text: a decision state read from the store (decisionFacts.ts)
 * parses a new schema object for every batch, and compiling the model again each time would cost more than the
 * write. Bounded by MAX_BY_TEXT models.
 */
export function createTableModelCache(): TableModelCache {
  const models = new WeakMap<JsonObject, TableModel>();
  const byText = new Map<string, TableModel>();
  return (schema) => {
    let model = models.get(schema);
    if (model !== undefined) return model;
    const text = JSON.stringify(schema);
    model = byText.get(text);
    if (model === undefined) {
      model = compileTableModel(schema as TableSchema);
      if (byText.size >= MAX_BY_TEXT) {
        const oldest = byText.keys().next();
        if (oldest.done !== true) byText.delete(oldest.value);
      }
    } else {
      byText.delete(text);
    }
    byText.set(text, model);
    models.set(schema, model);
    return model;
  };
}
