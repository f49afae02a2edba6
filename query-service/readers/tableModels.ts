import { createHash } from 'node:crypto';
import { canonicalJson, compileTableModel, createBoundedCache } from '../../contracts/index.ts';
import type { JsonObject, TableModel, TableSchema } from '../../contracts/index.ts';

export type CompiledSchema = { readonly model: TableModel; readonly schemaHash: string };

/** Compiled models kept: entries, and bytes (the canonical text as key, the model counted at 4× it plus 4 KiB). */
const MODELS_CACHE = { maxEntries: 500, maxBytes: 32 * 1024 * 1024 };

/** SHA-256 hex of canonical JSON (domain.md §5.3 row hash and schema hash). */
export function jsonHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/**
 * Compiled models and schema hashes by canonical schema text. Stored schemas are valid (the write side validated
 * them); a version's schema can change while it is a draft version, so entries are keyed by content, not version.
 */
export function createTableModels(): (schema: JsonObject) => CompiledSchema {
  const cache = createBoundedCache<string, CompiledSchema>(MODELS_CACHE);
  return (schema) => {
    const text = canonicalJson(schema);
    const hit = cache.get(text);
    if (hit !== undefined) return hit;
    const compiled = {
      model: compileTableModel(schema as unknown as TableSchema),
      schemaHash: createHash('sha256').update(text).digest('hex'),
    };
    cache.set(text, compiled, 4 * text.length + 4096);
    return compiled;
  };
}

export type TableModels = ReturnType<typeof createTableModels>;
