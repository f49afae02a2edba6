import { getNamedType, getNullableType, isInputObjectType, isListType, isNonNullType, isScalarType, type GraphQLSchema } from 'graphql';
import { errorCatalogue, invariant } from '../../../contracts/index.ts';
import { nestedFields } from '../graphql/systemObjectTypeDefs.ts';
import { systemWrites } from '../operations/systemWrites.ts';
import { componentRef, errorResponse, jsonContent, openApiDocument, securityRequirements, type JsonSchema } from '../../http/openApi.ts';
import { createJsonSchemas } from './jsonSchemaOf.ts';
import { readsQueryString, routeInputType } from './routeInput.ts';
import { SYSTEM_BODY_EXAMPLES, systemParameterExample } from './systemOpenApiExamples.ts';
import { pathParamsOf, type RestRoute } from './systemRoutes.ts';

/** Shared error responses, referenced by status. */
const errorResponses: Readonly<Record<string, string>> = {
  '400': 'Invalid input or request',
  '401': 'Authentication required or credential invalid',
  '403': 'Not allowed',
  '404': 'Not found',
  '405': 'Method not allowed on this route',
  '409': 'Conflict with the current state',
  '413': 'Request body too large',
  '415': 'Body is not application/json',
  '429': 'Too many failed login attempts',
  '503': 'Service unavailable or read-your-writes timeout',
};

const errorSchemas: Record<string, JsonSchema> = {
  ErrorDetail: {
    type: 'object',
    description: 'Depends on the code (errors.md §4); `path` is a JSON Pointer.',
    properties: { path: { type: 'string' }, message: { type: 'string' } },
    additionalProperties: true,
  },
  Error: {
    type: 'object',
    required: ['statusCode', 'code', 'message'],
    properties: {
      statusCode: { type: 'integer' },
      code: { type: 'string', enum: Object.keys(errorCatalogue) },
      message: { type: 'string' },
      details: { type: 'array', items: componentRef('ErrorDetail') },
    },
    additionalProperties: false,
  },
  SuccessResult: {
    type: 'object',
    required: ['success'],
    properties: { success: { type: 'boolean', const: true } },
    additionalProperties: false,
  },
  RowList: { type: 'object', required: ['rows'], properties: { rows: { type: 'array', items: componentRef('Row') } } },
};

/** An Express path in OpenAPI form (`:id` → `{id}`). */
export const openApiPath = (path: string): string => path.replace(/:([A-Za-z]+)/g, '{$1}');

/** Routes served beside the route table (the portability routes), documented by their own module. */
export type ExtraOpenApi = {
  readonly paths: Readonly<Record<string, Record<string, unknown>>>;
  readonly schemas: Readonly<Record<string, JsonSchema>>;
  readonly tags: readonly string[];
};

/** Session routes answer no body (204) or these shapes. */
const sessionSchemas: Record<string, JsonSchema> = {
  RefreshResult: {
    type: 'object',
    required: ['expiresIn'],
    properties: { expiresIn: { type: 'integer', description: 'Seconds.' } },
    additionalProperties: false,
  },
};

/** Routes that need no credential (auth.md §1): login, refresh and logout. */
const isPublic = (route: RestRoute): boolean =>
  route.action.kind === 'login' || (route.action.kind === 'session' && route.action.name !== 'logoutAll' && route.action.name !== 'issueAccessToken');

function errorStatuses(route: RestRoute, hasBody: boolean): string[] {
  const { action } = route;
  if (action.kind === 'login') return ['400', '401', '403', '405', '413', '415', '429'];
  if (action.kind === 'session') {
    if (action.name === 'logout') return ['403', '405'];
    if (action.name === 'refresh') return ['401', '403', '405', '409', '503'];
    return ['400', '401', '403', '405', '503'];
  }
  const statuses = ['400', '401', '403', '404', '405'];
  if (route.action.kind === 'write' || route.status === 202) statuses.push('409');
  if (hasBody) statuses.push('413', '415');
  statuses.push('503');
  return statuses;
}

/**
 * The OpenAPI 3.1.0 document of the system REST API (system-api.md §4.6), built from the route table and the
 * GraphQL types the routes share with the system GraphQL API (request and response schemas).
 */
export function buildSystemOpenApi(
  schema: GraphQLSchema,
  routes: readonly RestRoute[],
  extra: ExtraOpenApi = { paths: {}, schemas: {}, tags: [] },
): Record<string, unknown> {
  const schemas = createJsonSchemas(nestedFields);
  const mutationFields = schema.getMutationType()?.getFields() ?? {};
  const queryFields = schema.getQueryType()?.getFields() ?? {};

  function responseSchema(route: RestRoute): JsonSchema | null {
    const { action } = route;
    if (action.kind === 'login') return schemas.schemaOf(mutationFields.login!.type);
    if (action.kind === 'session') {
      if (action.name === 'refresh') return componentRef('RefreshResult');
      if (action.name === 'issueAccessToken') return schemas.schemaOf(queryFields.issueAccessToken!.type);
      return null;
    }
    if (action.kind === 'keyRead') return schemas.schemaOf(queryFields[action.name]!.type);
    if (action.kind === 'operator' || action.kind === 'grant')
      return schemas.schemaOf((queryFields[action.name] ?? mutationFields[action.name])!.type);
    if (action.kind === 'read') {
      if (action.name === 'tableSchema') return { type: 'object', description: 'The table JSON Schema (domain.md §5)' };
      if (action.name === 'revisionEndpoints') return { type: 'array', items: schemas.schemaOf(getNamedType(queryFields.endpoint!.type)) };
      const field = queryFields[action.name];
      invariant(field !== undefined, `Query.${action.name} exists`);
      return schemas.schemaOf(field.type);
    }
    const output = systemWrites[action.name].output;
    if (output === 'success') return componentRef('SuccessResult');
    if (output === 'rowList') return componentRef('RowList');
    return schemas.schemaOf(mutationFields[action.name]!.type);
  }

  function operation(route: RestRoute): Record<string, unknown> {
    const type = routeInputType(schema, route);
    const ids = pathParamsOf(route.path);
    const example = (name: string) => {
      const value = systemParameterExample(route.operationId, name);
      return value === undefined ? {} : { example: value };
    };
    const parameters: Record<string, unknown>[] = ids.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
      ...example(name),
    }));
    let requestBody: Record<string, unknown> | undefined;
    const omit = new Set(ids);
    if (type !== null && readsQueryString(route)) {
      for (const field of Object.values(type.getFields())) {
        if (omit.has(field.name)) continue;
        const fieldSchema = schemas.schemaOf(field.type);
        const named = getNamedType(field.type);
        // Lists, objects and JSON travel as URL-encoded JSON (the router decodes them so).
        const encoded = isListType(getNullableType(field.type)) || isInputObjectType(named) || (isScalarType(named) && named.name === 'JSON');
        parameters.push({
          name: field.name,
          in: 'query',
          required: isNonNullType(field.type),
          ...(encoded
            ? { content: jsonContent(fieldSchema, systemParameterExample(route.operationId, field.name)) }
            : { schema: fieldSchema, ...example(field.name) }),
        });
      }
    } else if (type !== null) {
      const body = schemas.objectOf(type, omit);
      if (Object.keys(body.properties as object).length > 0) {
        // Swagger UI sends the example as is; its sample of the schema fails (systemOpenApiExamples.ts).
        const bodyExample = SYSTEM_BODY_EXAMPLES[route.operationId];
        invariant(bodyExample !== undefined, `the system OpenAPI document has a body example for ${route.operationId}`);
        requestBody = {
          required: (body.required as string[]).length > 0,
          content: jsonContent(body, bodyExample),
        };
      }
    }
    if (route.action.kind === 'write' && systemWrites[route.action.name].dryRun !== undefined) {
      parameters.push({
        name: 'dryRun',
        in: 'query',
        required: false,
        description: 'true: validate and migrate without changing anything; answers the table plus `migration` (domain.md §6 rule 6)',
        schema: { type: 'boolean', default: false },
      });
    }
    const okSchema = responseSchema(route);
    const responses: Record<string, unknown> = {
      [String(route.status)]: {
        description: { 201: 'Created', 202: 'Accepted', 204: 'No Content' }[route.status as number] ?? 'OK',
        ...(route.action.kind === 'write' ? { headers: { 'X-Strata-Position': { $ref: '#/components/headers/Position' } } } : {}),
        ...(okSchema === null ? {} : { content: jsonContent(okSchema) }),
      },
    };
    for (const status of errorStatuses(route, requestBody !== undefined)) responses[status] = { $ref: `#/components/responses/E${status}` };
    return {
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.tag],
      ...(isPublic(route) ? { security: [] } : route.action.kind === 'read' ? { security: [...securityRequirements, {}] } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  }

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route) };
  }
  for (const [path, methods] of Object.entries(extra.paths)) paths[path] = { ...paths[path], ...methods };
  const tags = [...new Set([...routes.map((route) => route.tag), ...extra.tags])].map((name) => ({ name }));
  return openApiDocument({
    info: {
      title: 'Strata system API',
      version: '1.0.0',
      description:
        'Sessions, users, organizations, projects, branches, revisions, tables, rows, endpoints and API keys (system-api.md §4); table and bundle import and export (portability.md).',
    },
    servers: [{ url: '/api' }],
    tags,
    paths,
    schemas: { ...schemas.components, ...errorSchemas, ...sessionSchemas, ...extra.schemas },
    responses: Object.fromEntries(Object.entries(errorResponses).map(([status, description]) => [`E${status}`, errorResponse(description)])),
    headers: {
      Position: { description: 'Event-log position of the write (operations.md §4)', schema: { type: 'string' } },
    },
  });
}
