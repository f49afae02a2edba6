import { GraphQLError, coerceInputValue, isInputType, typeFromAST, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { AppError, MAX_ERROR_DETAILS, escapePointerToken, type ErrorDetail } from '../../contracts/index.ts';

/** Variables with more values than this are coerced here first; smaller ones go straight to execution. */
const CHECK_ABOVE_VALUES = 100;

/** Whether a variables object holds more than `limit` values (object members and array items), counted iteratively. */
function holdsMoreValuesThan(variables: Readonly<Record<string, unknown>>, limit: number): boolean {
  let count = 0;
  const stack: unknown[] = [variables];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (typeof next !== 'object' || next === null) continue;
    for (const child of Object.values(next)) {
      if (++count > limit) return true;
      stack.push(child);
    }
  }
  return false;
}

const STOP = Symbol('enough errors');

/**
 * Coerces the request's variables the way execution will, but words each failure without the invalid value and
 * stops at 100: graphql-js quotes the whole value in every one of its (up to 50) messages, which made a variable
 * with 20,000 unknown keys cost seconds of CPU and a 14 MB answer. Invalid → BAD_USER_INPUT (HTTP 400, no `data`)
 * with one `{path, message}` detail per failure; valid or small variables → nothing, execution coerces them.
 */
export function assertVariablesCoercible(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>> | undefined,
): void {
  if (variables === undefined || !holdsMoreValuesThan(variables, CHECK_ABOVE_VALUES)) return;
  const details: ErrorDetail[] = [];
  try {
    for (const definition of operation.variableDefinitions ?? []) {
      const name = definition.variable.name.value;
      const type = typeFromAST(schema, definition.type);
      const value = Object.prototype.hasOwnProperty.call(variables, name) ? variables[name] : undefined;
      // Unknown types, and missing or null values, are reported cheaply by execution itself.
      if (type === undefined || !isInputType(type) || value === undefined || value === null) continue;
      coerceInputValue(value, type, (path, _invalid, error) => {
        details.push({ path: `/${[name, ...path.map(String)].map(escapePointerToken).join('/')}`, message: error.message });
        if (details.length >= MAX_ERROR_DETAILS) throw STOP;
      });
    }
  } catch (err) {
    if (err !== STOP) throw err;
  }
  const [first] = details;
  if (first === undefined) return;
  const message =
    details.length === 1
      ? `Variable at "${String(first.path)}" is invalid: ${String(first.message)}`
      : `Variables are invalid: ${details.length}${details.length >= MAX_ERROR_DETAILS ? ' or more' : ''} errors`;
  const appError = new AppError('BAD_USER_INPUT', message, details);
  throw new GraphQLError(message, { originalError: appError, extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
}
