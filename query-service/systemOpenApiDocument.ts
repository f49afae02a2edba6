import type { GraphQLSchema } from 'graphql';
import { PORTABILITY_TAG, portabilityPaths, portabilitySchemas } from './portability/portabilityOpenApi.ts';
import { buildSystemOpenApi, openApiPath } from './systemApi/rest/openapi.ts';
import { systemRestRoutes } from './systemApi/rest/systemRoutes.ts';

/**
 * The system REST API's OpenAPI document as `/api/openapi.json` serves it: the route table's operations plus the
 * portability routes (portability.md §1-§3), which have a router of their own (streamed bodies, not JSON).
 */
export function buildSystemOpenApiDocument(schema: GraphQLSchema): Record<string, unknown> {
  return buildSystemOpenApi(schema, systemRestRoutes, { paths: portabilityPaths(openApiPath), schemas: portabilitySchemas, tags: [PORTABILITY_TAG] });
}
