import type { Request } from 'express';
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInt,
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  type GraphQLInputObjectType,
  type GraphQLSchema,
} from 'graphql';
import { AppError, type ErrorDetail } from '../../../contracts/index.ts';
import { decodeQueryParams, searchParamsOf, type QueryParamKind } from '../../http/queryParams.ts';
import { coerceInput } from './checkInput.ts';
import { fieldInputOf } from '../graphql/systemSchema.ts';
import { pathParamsOf, type RestRoute } from './systemRoutes.ts';

/**
 * The GraphQL input type a route's input is checked against: the input (`data` or plain arguments) of the GraphQL
 * field of the same name; null for REST-only reads (their input is the path) and the body-less session routes.
 */
export function routeInputType(schema: GraphQLSchema, route: RestRoute): GraphQLInputObjectType | null {
  const { action } = route;
  switch (action.kind) {
    case 'login':
      return fieldInputOf(schema, 'Mutation', 'login');
    case 'write':
      return fieldInputOf(schema, 'Mutation', action.name);
    case 'keyRead':
      return fieldInputOf(schema, 'Query', action.name);
    case 'grant':
      return fieldInputOf(schema, action.name === 'myOAuthGrants' ? 'Query' : 'Mutation', action.name);
    case 'session':
    case 'operator':
      return null;
    case 'read': {
      const isQueryField = schema.getQueryType()?.getFields()[action.name] !== undefined;
      return isQueryField ? fieldInputOf(schema, 'Query', action.name) : null;
    }
  }
}

/** Whether the route takes its input from the query string (GET) rather than a JSON body. */
export function readsQueryString(route: RestRoute): boolean {
  return route.method === 'GET';
}

/** How the query string carries a field of the input type (URL-encoded JSON for lists, input objects and JSON). */
function kindOf(type: GraphQLInputObjectType, omit: ReadonlySet<string>, name: string): QueryParamKind | undefined {
  const field = type.getFields()[name];
  if (field === undefined || omit.has(name)) return undefined;
  const named = getNamedType(field.type);
  const isList = isListType(getNullableType(field.type));
  // Lists of enum values may also be written comma-separated (`changes=ADDED,UPDATED`, changes.md §1.2).
  if (isList && isEnumType(named)) return 'commaListOrJson';
  if (isList || isInputObjectType(named) || named.name === 'JSON') return 'json';
  if (named === GraphQLInt || named === GraphQLFloat) return 'number';
  if (named === GraphQLBoolean) return 'boolean';
  return 'text';
}

/**
 * Query-string values typed by the input type: numbers and booleans parsed, lists, input objects and JSON
 * URL-encoded JSON (lists of enum values also comma-separated). Parameters that are no input field (e.g. `api_key`) are ignored; a repeated field is refused.
 */
function decodeQueryString(req: Request, type: GraphQLInputObjectType, omit: ReadonlySet<string>): Record<string, unknown> {
  const params = searchParamsOf(req);
  const { values, errors } = decodeQueryParams(params, new Set(params.keys()), (name) => kindOf(type, omit, name));
  if (errors.length > 0) {
    const details: ErrorDetail[] = errors.map(({ name, message }) => ({ path: `/${name}`, message }));
    throw new AppError('BAD_USER_INPUT', `Invalid query parameter: ${String(details[0]?.message)}`, details);
  }
  return values;
}

/**
 * A route's checked input: the path ids plus the query string or JSON body, coerced against the route's input type
 * minus the path ids (which the body may not repeat). 400 BAD_USER_INPUT with JSON-Pointer details on failure.
 */
export function routeInput(req: Request, route: RestRoute, type: GraphQLInputObjectType | null): Record<string, unknown> {
  const ids: Record<string, string> = {};
  for (const name of pathParamsOf(route.path)) ids[name] = String(req.params[name]);
  if (type === null) return ids;
  const omit = new Set(Object.keys(ids));
  const raw = readsQueryString(route) ? decodeQueryString(req, type, omit) : (req.body as unknown);
  return { ...coerceInput(type, raw, omit), ...ids };
}
