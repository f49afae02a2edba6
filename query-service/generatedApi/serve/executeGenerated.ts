import { GraphQLError, execute, getOperationAST, parse, validate, type ExecutionResult, type GraphQLFormattedError } from 'graphql';
import { AppError, type Position } from '../../../contracts/index.ts';
import { QUERY_LIMITS, assertOperationLimits, limitsReadVariables } from '../../graphqlKit/queryLimits.ts';
import { assertVariablesCoercible } from '../../graphqlKit/variableCoercion.ts';
import type { GeneratedRequest } from '../dataSource/generatedRequest.ts';
import type { OperationUse } from './compiledOperations.ts';
import { documentShapeOf } from './documentShape.ts';
import type { CompiledGenerated, PreparedDocument } from './generatedSchemaCache.ts';

/** An HTTP GraphQL request after its transport checks (graphqlParams.ts). */
export type GraphqlParams = {
  readonly query: string;
  readonly variables: Readonly<Record<string, unknown>> | undefined;
  readonly operationName: string | undefined;
};

/** Apollo's `formatError` shape (graphqlErrors.ts createGraphqlErrorFormatter). */
export type ErrorFormatter = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

export type GraphqlReply = { readonly status: number; readonly body: Readonly<Record<string, unknown>> };

type FallbackCode = 'GRAPHQL_PARSE_FAILED' | 'GRAPHQL_VALIDATION_FAILED' | 'QUERY_TOO_COMPLEX' | 'BAD_USER_INPUT' | 'INTERNAL_SERVER_ERROR';

/** Errors in the errors.md §3 envelope; `fallback` is the code of errors that carry none (as Apollo tags them). */
export function formatErrors(errors: readonly GraphQLError[], fallback: FallbackCode, format: ErrorFormatter): GraphQLFormattedError[] {
  return errors.map((error) => {
    const formatted = error.toJSON();
    const code = formatted.extensions?.code;
    return format(
      typeof code === 'string'
        ? formatted
        : Object.assign({}, formatted, { extensions: Object.assign({}, formatted.extensions, { code: fallback }) }),
      error,
    );
  });
}

/** Parses (with the token limit) and validates a query text against a compiled schema. */
export function prepareDocument(compiled: CompiledGenerated, query: string): PreparedDocument {
  let document;
  try {
    document = parse(query, { maxTokens: QUERY_LIMITS.maxTokens });
  } catch (err) {
    if (!(err instanceof GraphQLError)) throw err;
    return { ok: false, errors: [err], code: 'GRAPHQL_PARSE_FAILED' };
  }
  // A text of a shape that passed every rule before (the same document with other literal values) needs only the
  // rules that look at literal values: they answer as the whole set would, since the others passed on that shape.
  const shape = documentShapeOf(query);
  const shapeValid = shape !== null && compiled.validShapes.get(shape) === true;
  const errors = validate(compiled.generated.schema, document, shapeValid ? compiled.literalRules : compiled.rules);
  if (errors.length === 0 && shape !== null && !shapeValid) compiled.validShapes.set(shape, true);
  return errors.length > 0
    ? { ok: false, errors, code: 'GRAPHQL_VALIDATION_FAILED' }
    : { ok: true, document, operations: new Map(), limitsReadVariables: limitsReadVariables(document) };
}

/** The execution record of an operation of a kept document (by name; '' for the only one). */
function useOf(operations: Map<string, OperationUse>, operationName: string | undefined): OperationUse {
  const name = operationName ?? '';
  let use = operations.get(name);
  if (use === undefined) {
    use = { runs: 0, declined: false };
    operations.set(name, use);
  }
  return use;
}

/**
 * Runs one GraphQL request on a generated schema without Apollo (docs/reference/performance.md): the document comes from the
 * schema's cache of parsed and validated texts, then operation resolution (400), mutation over GET (405), the cost
 * limit with this request's variables (400), and graphql-js `execute`. Failures before execution answer with their
 * HTTP status and no `data` (errors.md §3.1), the rest with 200 (§3.2); a write adds `extensions.position`.
 */
export async function executeGenerated(input: {
  readonly compiled: CompiledGenerated;
  readonly params: GraphqlParams;
  readonly method: 'GET' | 'POST';
  readonly request: GeneratedRequest;
  /** Position of the request's last successful write so far. */
  readonly position: () => Position | null;
  readonly format: ErrorFormatter;
}): Promise<GraphqlReply> {
  const { compiled, params, format } = input;
  const { schema } = compiled.generated;
  let prepared = compiled.documents.get(params.query);
  if (prepared === undefined) {
    prepared = prepareDocument(compiled, params.query);
    compiled.documents.set(params.query, prepared);
  }
  if (!prepared.ok) return { status: 400, body: { errors: formatErrors(prepared.errors, prepared.code, format) } };
  const { document } = prepared;
  const operation = getOperationAST(document, params.operationName);
  if (operation === null || operation === undefined) {
    const message =
      params.operationName === undefined
        ? 'Must provide operation name if query contains multiple operations.'
        : `Unknown operation named "${params.operationName}".`;
    throw new AppError('BAD_REQUEST', message);
  }
  if (input.method === 'GET' && operation.operation !== 'query') {
    throw new AppError('METHOD_NOT_ALLOWED', `Can only perform a ${operation.operation} operation from a POST request.`, undefined, {
      Allow: 'POST',
    });
  }
  try {
    if (prepared.limitsReadVariables) assertOperationLimits(schema, document, operation, params.variables);
    assertVariablesCoercible(schema, operation, params.variables);
  } catch (err) {
    if (!(err instanceof GraphQLError)) throw err;
    return { status: 400, body: { errors: formatErrors([err], 'QUERY_TOO_COMPLEX', format) } };
  }
  const contextValue = compiled.generated.createContext(input.request);
  const jit =
    operation.operation === 'query'
      ? compiled.operations.compiledFor(useOf(prepared.operations, params.operationName), schema, document, params.operationName)
      : null;
  const interpret = () =>
    execute({
      schema,
      document,
      ...(params.operationName !== undefined ? { operationName: params.operationName } : {}),
      variableValues: params.variables,
      contextValue,
    });
  let result: ExecutionResult =
    jit !== null ? await jit.query(undefined, contextValue, params.variables as Record<string, unknown> | undefined) : await interpret();
  // graphql-jit words variable coercion failures its own way: graphql-js (which ran nothing either) gives the
  // answer, so the first (interpreted) and later (compiled) runs of a document fail alike.
  if (jit !== null && !('data' in result)) result = await interpret();
  // No `data` at all: the variables could not be coerced, so nothing ran.
  if (!('data' in result)) return { status: 400, body: { errors: formatErrors(result.errors ?? [], 'BAD_USER_INPUT', format) } };
  const position = input.position();
  return {
    status: 200,
    body: Object.assign(
      result.errors !== undefined ? { errors: formatErrors(result.errors, 'INTERNAL_SERVER_ERROR', format) } : {},
      { data: result.data },
      position !== null ? { extensions: { position } } : {},
    ),
  };
}
