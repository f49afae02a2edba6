export { commonHeaders, requestIdOf } from './http/commonHeaders.ts';
export { JSON_CONTENT_TYPE, sendJson } from './http/sendJson.ts';
export { errorHandler, sendError, toAppError } from './http/sendError.ts';
export { jsonBody } from './http/jsonBody.ts';
export { MIN_POSITION_HEADER, awaitMinPosition, minPosition } from './http/minPosition.ts';
export { awaitWriteConsistency, finishWrite } from './http/writeConsistency.ts';
export { requestLogger, type RequestLine, type RequestLineWriter } from './http/requestLogger.ts';
export { UNMATCHED_ROUTE, routeTemplateOf, setRouteTemplate, trackRouteTemplate } from './http/routeTemplate.ts';
export { methodNotAllowed, notFound } from './http/routeFallbacks.ts';

export { SYSTEM_PROJECTIONS, createQueryService } from './createQueryService.ts';
export { ADMIN_UI_CSP, createAdminUiRouter } from './admin/adminUiRouter.ts';
export { MCP_CONFIG_DEFAULTS, createMcpRouter } from './mcp/createMcpRouter.ts';
export { createInMemoryMcpSessionStore } from './mcp/inMemoryMcpSessionStore.ts';
export { createRedisMcpSessionStore } from './mcp/redisMcpSessionStore.ts';
export type { RedisMcpSessionStoreDeps } from './mcp/redisMcpSessionStore.ts';
export type { McpConfig, McpEndpoint, McpRouterDeps } from './mcp/createMcpRouter.ts';
export type { McpBinding, McpSessionLimits, McpSessionRecord, McpSessionStore } from './mcp/mcpSessionStore.ts';
export type { McpEndpointDocs } from './mcp/mcpEndpointDocs.ts';
export { authenticate, authenticateRequest, presentedCredentials, requestContextOf } from './http/authenticate.ts';

export type { JsonBodyOptions } from './http/jsonBody.ts';
export type { MinPositionOptions } from './http/minPosition.ts';
export type { WriteConsistency, WriteConsistencyOptions } from './http/writeConsistency.ts';
export { createSystemOperations, resolveConnection } from './operations/systemOperations.ts';
export { parseRowQuery } from './rows/rowQuery.ts';
export type {
  BranchRef,
  LazyConnection,
  OrganizationRef,
  PageArgs,
  ProjectRef,
  RequestContext,
  RevisionRef,
  RowRef,
  RowsArgs,
  SystemOperations,
  SystemOperationsDeps,
  TableRef,
} from './operations/systemOperations.ts';
export type { RowQuery, RowQueryContext, RowQueryInput } from './rows/rowQuery.ts';
export type { QueryService, QueryServiceConfig, QueryServiceDeps } from './createQueryService.ts';
export type { SessionCookieConfig } from './http/sessionCookies.ts';
export type { OriginPolicy } from './http/csrfGate.ts';
export type { AdminUiOptions } from './admin/adminUiRouter.ts';
export { SHARED_COMPONENT_NAMES, computeNames, projectPrefix, reservedNames } from './generated/naming.ts';
export { nestedKey } from './generated/nestedNames.ts';
export { buildGeneratedSchema } from './generated/graphql/buildGeneratedSchema.ts';
export { createRequestLoaders } from './generated/graphql/requestLoaders.ts';
export { knownOperationTypesRule } from './generated/graphql/knownOperationTypesRule.ts';
export { buildOpenApi } from './generated/rest/buildOpenApi.ts';
export { createGeneratedEndpoints } from './generated/createGeneratedEndpointsRouter.ts';
export { GRAPHQL_EXECUTION_DEFAULTS } from './generated/serve/compiledOperations.ts';
export type { FastRoutes } from './http/fastRoutes.ts';
export { tableJsonSchema } from './generated/rest/tableJsonSchema.ts';
export type {
  GeneratedTable,
  NamingMode,
  NamingOptions,
  ProjectNames,
  TableBaseNames,
  TableNames,
} from './generated/naming.ts';
export type { NestedTypeNames } from './generated/nestedNames.ts';
export type { BuildGeneratedSchemaOptions, GeneratedSchema } from './generated/graphql/buildGeneratedSchema.ts';
export type { GeneratedSchemaMode } from './generated/graphql/generatedTypeDefs.ts';
export type { GeneratedGraphqlContext } from './generated/graphql/generatedResolvers.ts';
export type {
  GeneratedDataSource,
  GeneratedDeleteResult,
  GeneratedListArgs,
  GeneratedPage,
  GeneratedPageInfo,
  GeneratedPatchInput,
  GeneratedPatchOperation,
  GeneratedRow,
  GeneratedRowInput,
} from './generated/graphql/generatedDataSource.ts';
export type { RequestLoaders } from './generated/graphql/requestLoaders.ts';
export type { BuildOpenApiOptions, OpenApiDocument } from './generated/rest/buildOpenApi.ts';
export type { GeneratedEndpointsDeps } from './generated/createGeneratedEndpointsRouter.ts';
export type { GraphqlExecutionConfig } from './generated/serve/compiledOperations.ts';
