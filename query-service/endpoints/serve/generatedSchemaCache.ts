import { specifiedRules, type DocumentNode, type GraphQLError, type ValidationRule } from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import { queryLimitsRule } from '../../graphql/queryLimits.ts';
import type { GeneratedRequest } from '../dataSource/generatedRequest.ts';
import type { ServedTables } from '../dataSource/servedTables.ts';
import type { ServedEndpoint } from '../endpoint/servedEndpoint.ts';
import type { GeneratedDataSource } from '../graphql/generatedDataSource.ts';
import { buildGeneratedSchema, type GeneratedSchema } from '../graphql/buildGeneratedSchema.ts';
import { createLruCache, type LruCache } from '../lruCache.ts';

/**
 * A query text after parsing and validation against one compiled schema: the document (with its query operations
 * compiled by graphql-jit on first use, by operation name; null when jit declined and graphql-js executes it), or
 * why it failed.
 */
export type PreparedDocument =
  | { readonly ok: true; readonly document: DocumentNode; readonly compiled: Map<string, CompiledQuery | null> }
  | { readonly ok: false; readonly errors: readonly GraphQLError[]; readonly code: 'GRAPHQL_PARSE_FAILED' | 'GRAPHQL_VALIDATION_FAILED' };

/** A compiled generated schema with its validation rules and its documents, parsed and validated once per text. */
export type CompiledGenerated = {
  readonly generated: GeneratedSchema<GeneratedRequest>;
  /** specifiedRules, the builder's rules (mutations only on draft schemas) and the limits of operations.md §7. */
  readonly rules: readonly ValidationRule[];
  readonly documents: LruCache<string, PreparedDocument>;
};

export type GeneratedSchemaCacheOptions = {
  readonly dataSource: GeneratedDataSource<GeneratedRequest>;
  /** GRAPHQL_ROOT_FIELD_PREFIX. */
  readonly rootFieldPrefix: boolean;
  readonly maxSchemas?: number;
  readonly maxDocumentsPerSchema?: number;
};

/**
 * Compiled generated schemas by (revision, schema hash of all its tables, writability); the prefix setting is fixed
 * per process. A table created, changed, renamed or deleted changes the hash, so the next request builds anew; HEAD
 * and pinned endpoints of one revision share a schema.
 */
export function createGeneratedSchemaCache(options: GeneratedSchemaCacheOptions) {
  const schemas = createLruCache<string, CompiledGenerated>(options.maxSchemas ?? 100);
  const documentsPerSchema = options.maxDocumentsPerSchema ?? 500;
  return {
    get(served: ServedEndpoint, tables: ServedTables): CompiledGenerated {
      const mode = served.mode === 'draft' ? 'draft' : 'head';
      const key = `${served.revisionId}\0${mode}\0${tables.hash}`;
      let compiled = schemas.get(key);
      if (compiled === undefined) {
        const generated = buildGeneratedSchema({
          projectName: served.project.name,
          mode,
          tables: tables.list.map((table) => table.generated),
          rootFieldPrefix: options.rootFieldPrefix,
          dataSource: options.dataSource,
        });
        compiled = {
          generated,
          rules: [...specifiedRules, ...generated.validationRules, queryLimitsRule()],
          documents: createLruCache(documentsPerSchema),
        };
        schemas.set(key, compiled);
      }
      return compiled;
    },
  };
}

export type GeneratedSchemaCache = ReturnType<typeof createGeneratedSchemaCache>;
