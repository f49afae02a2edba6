import {
  getNamedType,
  getOperationAST,
  isInputObjectType,
  typeFromAST,
  type DocumentNode,
  type GraphQLInputObjectType,
  type GraphQLSchema,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { createBoundedCache } from '../../../contracts/index.ts';

/** How generated GraphQL documents are kept and when their query operations are compiled (see README). */
export type GraphqlExecutionConfig = {
  /** A query operation is compiled by graphql-jit on this execution of its document; the ones before run on graphql-js. */
  readonly compileOnExecution: number;
  /** Parsed and validated documents kept per compiled schema (LRU, by query text). */
  readonly maxDocumentsPerSchema: number;
  /** Compiled operations kept in the process, over all schemas (LRU). */
  readonly maxCompiledOperations: number;
  /** Estimated bytes of the compiled operations kept (each counted as 16 KiB plus 32 bytes per character of its document). */
  readonly maxCompiledOperationBytes?: number;
  /**
   * Estimated bytes of the parsed documents kept per compiled schema (each counted as 16 bytes per character of its
   * text plus 256, its valid shape as the shape's text); the schema cache counts this budget in every schema it keeps.
   */
  readonly maxDocumentBytesPerSchema?: number;
};

/**
 * Compiling costs ~2 ms and pays back after some tens of executions (graphql-jit saves tens of µs on each), so a
 * document seen once (a client that inlines its arguments sends a new text per request) stays on the interpreter;
 * mature servers do the same (mercurius `jit: N`). The bounds keep a client sending ever new texts from growing the
 * process: a compiled operation holds generated code (tens of KB).
 */
export const GRAPHQL_EXECUTION_DEFAULTS: GraphqlExecutionConfig = {
  compileOnExecution: 10,
  maxDocumentsPerSchema: 500,
  maxCompiledOperations: 1_000,
  maxCompiledOperationBytes: 64 * 1024 * 1024,
  maxDocumentBytesPerSchema: 2 * 1024 * 1024,
};

/** Executions so far of one operation (by operation name) of a kept document, and whether graphql-jit declined it. */
export type OperationUse = { runs: number; declined: boolean };

export type CompiledOperations = {
  /**
   * Counts one execution of the operation and returns its compiled form from the execution the config names on,
   * or null: graphql-js runs it (before the threshold, or when graphql-jit cannot compile it).
   */
  compiledFor(use: OperationUse, schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): CompiledQuery | null;
};

/** Whether a cycle of input object types can be reached from `type` (the `where` inputs nest AND/OR/NOT). */
function reachesCycle(type: GraphQLInputObjectType, known: WeakMap<GraphQLInputObjectType, boolean>): boolean {
  const cached = known.get(type);
  if (cached !== undefined) return cached;
  const onPath = new Set<GraphQLInputObjectType>();
  const done = new Set<GraphQLInputObjectType>();
  const visit = (from: GraphQLInputObjectType): boolean => {
    if (onPath.has(from)) return true;
    if (done.has(from)) return false;
    onPath.add(from);
    for (const field of Object.values(from.getFields())) {
      const named = getNamedType(field.type);
      if (isInputObjectType(named) && visit(named)) return true;
    }
    onPath.delete(from);
    done.add(from);
    return false;
  };
  const cyclic = visit(type);
  known.set(type, cyclic);
  return cyclic;
}

/**
 * graphql-jit generates the coercion of an operation's variables by unrolling their input types: on a recursive one
 * it recurses until the stack overflows, which took tens of seconds of blocked event loop here. Such operations are
 * declined before compiling (graphql-js runs them).
 */
function hasRecursiveVariable(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  known: WeakMap<GraphQLInputObjectType, boolean>,
): boolean {
  for (const definition of getOperationAST(document, operationName)?.variableDefinitions ?? []) {
    const named = getNamedType(typeFromAST(schema, definition.type));
    if (isInputObjectType(named) && reachesCycle(named, known)) return true;
  }
  return false;
}

/**
 * The process's compiled query operations, bounded by entries. Keyed by the document's operation record, so a
 * document dropped from its schema's LRU (or a schema dropped) leaves with its compiled operations once they are
 * evicted here too. `onCompile` is told about each compilation, and whether graphql-jit declined it (tests count
 * them; it declines e.g. variables of recursive input types such as the `where` inputs).
 */
export function createCompiledOperations(config: GraphqlExecutionConfig, onCompile?: (compiled: boolean) => void): CompiledOperations {
  const compiled = createBoundedCache<OperationUse, CompiledQuery>({
    maxEntries: config.maxCompiledOperations,
    maxBytes: config.maxCompiledOperationBytes ?? 64 * 1024 * 1024,
  });
  const recursiveInputs = new WeakMap<GraphQLInputObjectType, boolean>();
  return {
    compiledFor(use, schema, document, operationName) {
      use.runs += 1;
      if (use.declined || use.runs < config.compileOnExecution) return null;
      let query = compiled.get(use);
      if (query !== undefined) return query;
      try {
        if (!hasRecursiveVariable(schema, document, operationName, recursiveInputs)) {
          const result = compileQuery(schema, document, operationName);
          if (isCompiledQuery(result)) query = result;
        }
      } catch {
        // graphql-jit could not compile it: graphql-js runs it (the document was valid).
      }
      onCompile?.(query !== undefined);
      if (query === undefined) {
        use.declined = true;
        return null;
      }
      compiled.set(use, query, 16 * 1024 + 32 * (document.loc?.source.body.length ?? 0));
      return query;
    },
  };
}
