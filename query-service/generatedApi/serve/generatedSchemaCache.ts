import { specifiedRules, type DocumentNode, type GraphQLError, type ValidationRule } from 'graphql';
import { queryLimitsRule } from '../../graphqlKit/queryLimits.ts';
import type { GeneratedRequest } from '../dataSource/generatedRequest.ts';
import type { ServedTables } from '../dataSource/servedTables.ts';
import type { ServedEndpoint } from '../endpoint/servedEndpoint.ts';
import type { GeneratedDataSource } from '../graphql/generatedDataSource.ts';
import { createBoundedCache, type BoundedCache } from '../../../contracts/index.ts';
import { buildGeneratedSchema, type GeneratedSchema } from '../graphql/buildGeneratedSchema.ts';
import { literalRules } from './documentShape.ts';
import {
  GRAPHQL_EXECUTION_DEFAULTS,
  createCompiledOperations,
  type CompiledOperations,
  type GraphqlExecutionConfig,
  type OperationUse,
} from './compiledOperations.ts';

/**
 * A query text after parsing and validation against one compiled schema: the document with the executions of its
 * operations by name (compiledOperations.ts decides when one is compiled), or why it failed.
 */
export type PreparedDocument =
  | {
      readonly ok: true;
      readonly document: DocumentNode;
      readonly operations: Map<string, OperationUse>;
      /** Whether the per-request cost check with variables is needed (queryLimits.ts limitsReadVariables). */
      readonly limitsReadVariables: boolean;
    }
  | { readonly ok: false; readonly errors: readonly GraphQLError[]; readonly code: 'GRAPHQL_PARSE_FAILED' | 'GRAPHQL_VALIDATION_FAILED' };

/** A compiled generated schema with its validation rules and its documents, parsed and validated once per text. */
export type CompiledGenerated = {
  readonly generated: GeneratedSchema<GeneratedRequest>;
  /** specifiedRules, the builder's rules (mutations only on draft schemas) and the limits of operations.md §7. */
  readonly rules: readonly ValidationRule[];
  /** The rules that look at literal values (documentShape.ts), for texts whose shape passed `rules` before. */
  readonly literalRules: readonly ValidationRule[];
  readonly documents: BoundedCache<string, PreparedDocument>;
  /** Shapes of texts that passed every rule (as many as documents): a text a client inlines values into validates once. */
  readonly validShapes: BoundedCache<string, true>;
  /** Compiled query operations (shared by all schemas of the process). */
  readonly operations: CompiledOperations;
};

/**
 * Bytes of the compiled schemas kept, each counted as 64 KiB plus 64 KiB per table (types, resolvers and inputs of a
 * table; unmeasured, a conservative guess) plus the full budget of its documents and shapes.
 */
export const GENERATED_SCHEMAS_MAX_BYTES = 256 * 1024 * 1024;

const generatedSchemaBytes = (tables: ServedTables): number => 64 * 1024 * (1 + tables.list.length);

export type GeneratedSchemaCacheOptions = {
  readonly dataSource: GeneratedDataSource<GeneratedRequest>;
  /** GRAPHQL_ROOT_FIELD_PREFIX. */
  readonly rootFieldPrefix: boolean;
  readonly maxSchemas?: number;
  /** Estimated bytes of the schemas kept, each with its documents' budget (default GENERATED_SCHEMAS_MAX_BYTES). */
  readonly maxSchemaBytes?: number;
  /** Documents, compilation threshold and compiled operations (default GRAPHQL_EXECUTION_DEFAULTS). */
  readonly execution?: GraphqlExecutionConfig;
  /** Told about each compilation attempt (false: graphql-jit declined the operation). */
  readonly onCompile?: (compiled: boolean) => void;
};

/**
 * Compiled generated schemas by (revision, schema hash of all its tables, writability); the prefix setting is fixed
 * per process. A table created, changed, renamed or deleted changes the hash, so the next request builds anew; HEAD
 * and pinned endpoints of one revision share a schema.
 */
export function createGeneratedSchemaCache(options: GeneratedSchemaCacheOptions) {
  const execution = options.execution ?? GRAPHQL_EXECUTION_DEFAULTS;
  const documentBytes = execution.maxDocumentBytesPerSchema ?? GRAPHQL_EXECUTION_DEFAULTS.maxDocumentBytesPerSchema ?? 0;
  // A schema is counted with the full budget of its documents and shapes (they grow after it is kept).
  const schemas = createBoundedCache<string, CompiledGenerated>({
    maxEntries: options.maxSchemas ?? 100,
    maxBytes: options.maxSchemaBytes ?? GENERATED_SCHEMAS_MAX_BYTES,
  });
  const operations = createCompiledOperations(execution, options.onCompile);
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
        const limits = queryLimitsRule();
        compiled = {
          generated,
          rules: [...specifiedRules, ...generated.validationRules, limits],
          literalRules: literalRules(limits),
          documents: createBoundedCache({
            maxEntries: execution.maxDocumentsPerSchema,
            maxBytes: documentBytes,
            sizeOf: (_document, text) => 256 + 15 * text.length,
          }),
          validShapes: createBoundedCache({ maxEntries: execution.maxDocumentsPerSchema, maxBytes: documentBytes / 4, sizeOf: () => 0 }),
          operations,
        };
        schemas.set(key, compiled, generatedSchemaBytes(tables) + documentBytes + documentBytes / 4);
      }
      return compiled;
    },
  };
}

export type GeneratedSchemaCache = ReturnType<typeof createGeneratedSchemaCache>;
