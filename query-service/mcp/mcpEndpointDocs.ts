import type { RequestContext } from '../systemApi/operations/systemOperations.ts';

/**
 * The generated-API documents of an endpoint for `get_graphql_schema` and `get_openapi_spec`: authorized as
 * read Endpoint + read Table for `ctx.principal`, failing with AppErrors (ENDPOINT_NOT_FOUND, FORBIDDEN, …).
 */
export interface McpEndpointDocs {
  /** `{sdl}` of a GRAPHQL endpoint (the printed subgraph SDL). */
  graphqlSchema(ctx: RequestContext, endpointId: string): Promise<{ readonly sdl: string }>;
  /** The OpenAPI 3.1 document of a REST_API endpoint. */
  openApiSpec(ctx: RequestContext, endpointId: string): Promise<Readonly<Record<string, unknown>>>;
}
